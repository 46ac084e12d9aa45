"""``indexer solr start|stop|status``: run the local Solr and look at it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from indexer.errors import SolrError
from indexer.solr.admin import solr_status
from indexer.solr.launcher import (
    CONFIGSET_NAME,
    DEFAULT_SOLR_HOME,
    base_url,
    running_solr_url,
    start_solr,
    stop_solr,
)


def add_parser(subparsers: Any) -> None:
    """Register ``solr`` with its ``start``, ``stop`` and ``status`` actions."""
    parser = subparsers.add_parser("solr", help="start, stop or query the local Solr")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    start = actions.add_parser("start", help="start the local Solr; prints its base URL")
    _add_local_args(start)
    start.add_argument("--core", default=CONFIGSET_NAME, help="core (default %(default)s)")
    start.add_argument(
        "--configset", type=Path, default=None, help="configset dir (default: solr-config/)"
    )
    start.add_argument("--timeout", type=float, default=180, help="seconds (default 180)")

    stop = actions.add_parser("stop", help="stop the local Solr started on --port")
    _add_local_args(stop)

    status = actions.add_parser("status", help="print one JSON object about a core")
    status.add_argument("--solr", default=base_url(8983), help="base URL (default %(default)s)")
    status.add_argument("--core", default=CONFIGSET_NAME, help="core (default %(default)s)")
    parser.set_defaults(func=run)


def _add_local_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8983, help="port (default 8983)")
    parser.add_argument(
        "--solr-home", type=Path, default=DEFAULT_SOLR_HOME, help="default %(default)s"
    )


def run(args: argparse.Namespace) -> int:
    """Run the chosen action (``start``, ``stop`` or ``status``); returns the exit code."""
    actions = {"start": run_start, "stop": run_stop, "status": run_status}
    return actions[args.action](args)


def run_start(args: argparse.Namespace) -> int:
    """Start Solr (or find ours running) and print its base URL on stdout.

    Exit 0 on success (also when already running, with a note on stderr); exit 1 when the
    port is held by another process or the core fails to load (raised as SolrLaunchError).
    """
    running = running_solr_url(args.port, args.solr_home, args.core)
    if running is not None:
        print(f"indexer: Solr already runs on port {args.port}", file=sys.stderr)
        print(running)
        return 0
    print(start_solr(args.port, args.solr_home, args.core, args.configset, args.timeout))
    return 0


def run_stop(args: argparse.Namespace) -> int:
    """Stop our Solr on ``--port``; exit 0 also when none runs (a note on stderr)."""
    if not stop_solr(args.port, args.solr_home):
        print(f"indexer: no Solr of ours runs on port {args.port}", file=sys.stderr)
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Print ``{"url", "core", "numDocs", "solr_version"}`` as JSON; exit 1 if Solr is down."""
    try:
        status = solr_status(args.solr, args.core)
    except SolrError as exc:
        print(f"indexer: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(status, ensure_ascii=False))
    return 0
