#!/usr/bin/env bash
# Install everything the tests need, then run lint, types and the test suite; print the time of
# each phase. The tests start their own Solr (built from Maven Central), web servers and
# browsers, and stop them.
set -euo pipefail
cd "$(dirname "$0")/.."

phase() {  # phase NAME COMMAND...: run it, then print how long it took; its exit status
  local name=$1 start=$SECONDS status=0
  shift
  echo "== phase: $name"
  "$@" || status=$?
  echo "== phase: $name took $((SECONDS - start)) s"
  return $status
}

debian_packages() {
  # Chromium and Japanese fonts for the web interface's browser tests (Playwright drives
  # Debian's Chromium: it cannot download browser builds here, so no `playwright install`);
  # a small Debian HTML manual for the site-level extraction check (tests/test_site_eval.py).
  local missing=()
  for pkg in chromium fonts-noto-cjk maint-guide-ja; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
}

postgresql_package() {
  # PostgreSQL for the shared frontier's tests (tests/pgcluster.py makes a throwaway cluster
  # with initdb/pg_ctl as an unprivileged user). createcluster.conf first, so the package
  # leaves no cluster of its own running.
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" >>/etc/postgresql-common/createcluster.conf
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  fi
}

show_artifacts() {
  if [ -d test-artifacts ]; then
    echo "test artefacts (browser screenshots): $PWD/test-artifacts"
    ls -l test-artifacts
  fi
}

phase "pip install" python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
phase "debian packages" debian_packages
pg_start=$SECONDS
phase "postgresql package" postgresql_package
export PG_PACKAGE_SECONDS=$((SECONDS - pg_start))  # printed with the PostgreSQL tests' time
phase "build Solr launcher" python3 -c "from indexer.solr.launcher import build_launcher; build_launcher()"
# the Tika service (tika-service/: Apache Tika 3.3.1 from Maven Central) for DOC/XLS/PPT/RTF
phase "build Tika service" python3 -c \
  "from indexer.extract.formats.tika_service import build_tika_service; build_tika_service()"
phase "ruff" ruff check indexer tests scripts
phase "ruff format" ruff format --check indexer tests scripts
phase "mypy" mypy indexer
# Extraction quality gate (#18): F1 floors per corpus set and profile (scripts/extract_gate.py).
phase "extraction gate" python3 scripts/eval_extraction.py --gate
rm -rf test-artifacts
trap show_artifacts EXIT
pytest_run=(python3 -m pytest -q -p no:cacheprovider -p tests.area_times)
if [ $# -gt 0 ]; then  # the tests asked for, in one run
  phase "tests" "${pytest_run[@]}" "$@"
  exit
fi
# The shared frontier's tests (tests/test_pg*.py: crawl processes, leases, kills and
# outages on a real PostgreSQL) mostly wait on delays and lease expiry: they run in a phase of
# their own, three at a time (pytest-xdist); everything else first, one at a time.
pg_file=$(mktemp)
rc=0
PG_SECONDS_FILE=$pg_file phase "tests" "${pytest_run[@]}" --ignore-glob='tests/test_pg*.py' || rc=$?
pg_start=$SECONDS
phase "tests on PostgreSQL" "${pytest_run[@]}" -n 3 tests/test_pg*.py || rc=$?
pg_phase=$((SECONDS - pg_start))
pg_elsewhere=$(cat "$pg_file" 2>/dev/null || echo 0)
rm -f "$pg_file"
echo "PostgreSQL's added CI time: package ${PG_PACKAGE_SECONDS} s + its phase ${pg_phase} s" \
  "+ its tests in the other phase ${pg_elsewhere:-0} s (budget 240 s)"
exit $rc
