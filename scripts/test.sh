#!/usr/bin/env bash
# Install everything the tests need, then run lint, types and the test suite.
# The tests start their own Solr (built from Maven Central) and web servers, and stop them.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
# The web interface's browser tests drive Debian's Chromium through Playwright (which cannot
# download its own browser builds here: no `playwright install`), with Japanese fonts.
if ! dpkg -s chromium fonts-noto-cjk >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk
fi
python3 -c "from indexer.solr.launcher import build_launcher; build_launcher()"
ruff check indexer tests scripts
ruff format --check indexer tests scripts
mypy indexer
rm -rf test-artifacts
show_artifacts() {
  if [ -d test-artifacts ]; then
    echo "test artefacts (browser screenshots): $PWD/test-artifacts"
    ls -l test-artifacts
  fi
}
trap show_artifacts EXIT
python3 -m pytest -q -p no:cacheprovider -p tests.area_times "$@"
