#!/usr/bin/env bash
# Install everything the tests need, then run lint, types and the test suite.
# The tests start their own Solr (built from Maven Central) and web servers, and stop them.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[dev]'
# A small Debian HTML manual for the site-level extraction check (tests/test_site_eval.py).
if [ ! -f /usr/share/doc/maint-guide-ja/html/index.ja.html ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq maint-guide-ja
fi
python3 -c "from indexer.solr.launcher import build_launcher; build_launcher()"
ruff check indexer tests scripts
ruff format --check indexer tests scripts
mypy indexer
python3 -m pytest -q -p no:cacheprovider "$@"
