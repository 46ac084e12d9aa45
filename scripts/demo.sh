#!/usr/bin/env bash
# The main job on bundled defaults: install, start the local Solr, serve the sample
# intranet site on 127.0.0.1, crawl it, search it in Japanese and show the hits.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e .
python3 -m indexer demo "$@"
