#!/usr/bin/env bash
# The main job on bundled defaults: install, start the local Solr, serve the sample
# intranet site on 127.0.0.1, crawl it, search it in Japanese and show the hits; then run
# the search web interface (`indexer serve`) on the crawled sample in the foreground.
# Ctrl-C stops the web interface; Solr keeps running (the last lines say how to stop it).
#   scripts/demo.sh [indexer demo options, e.g. --port 8983]   WEB_PORT=8080 by default
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e .
python3 -m indexer demo "$@"

solr_port=8983
solr_home=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --port) solr_port="${args[i + 1]:-8983}" ;;
    --port=*) solr_port="${args[i]#--port=}" ;;
    --solr-home) solr_home=(--solr-home "${args[i + 1]:-}") ;;
  esac
done
trap 'echo; echo "Solr keeps running on port ${solr_port}; stop it with:"; echo "  python3 -m indexer solr stop --port ${solr_port} ${solr_home[*]}"' EXIT
echo
echo "Search the sample in a browser: open the URL below and try 有給休暇 (Ctrl-C stops it)."
echo "The admin views: /admin, with the admin password printed below."
python3 -m indexer serve --solr "http://127.0.0.1:${solr_port}/solr" --port "${WEB_PORT:-8080}" \
  --data-dir .indexer/demo-crawl || true
