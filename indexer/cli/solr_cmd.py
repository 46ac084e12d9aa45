"""``indexer solr start|stop|status|init|update-config``: run a local Solr, set up and inspect
cores and SolrCloud collections.

Admin actions read ``solr.url``, ``solr.user`` and ``solr.password`` from settings (``--config``,
``INDEXER_SOLR_*``); ``--solr`` overrides the URL. Credentials are never printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from indexer.settings import SolrSettings, load_settings
from indexer.solr import runtime
from indexer.solr.admin import init_core, solr_status, update_core_config
from indexer.solr.cloud import collection_status, init_collection, update_collection_config
from indexer.solr.connection import SolrConnection
from indexer.solr.launcher import (
    CONFIGSET_NAME,
    DEFAULT_SOLR_HOME,
    CloudOptions,
    pid_file,
    running_solr_url,
    start_solr,
    stop_solr,
)


def add_parser(subparsers: Any) -> None:
    """Register ``solr`` with its ``start``, ``stop``, ``status``, ``init`` and
    ``update-config`` actions."""
    parser = subparsers.add_parser("solr", help="run, set up or query Solr")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    _add_start(actions)
    stop = actions.add_parser("stop", help="stop the local Solr started on --port")
    _add_local_args(stop)

    status = actions.add_parser("status", help="print one JSON object about a core/collection")
    _add_target_args(status, required=False)

    init = actions.add_parser("init", help="create a core or collection with our configset")
    _add_target_args(init, required=True)
    init.add_argument("--shards", type=int, default=1, help="collection shards (default 1)")
    init.add_argument("--replicas", type=int, default=1, help="replicas per shard (default 1)")
    init.add_argument(
        "--configset",
        help="configset name (default: pages for a core, the collection's name for a collection)",
    )
    _add_configset_dir(init)

    update = actions.add_parser("update-config", help="push the configset and reload")
    _add_target_args(update, required=True)
    _add_configset_dir(update)
    update.add_argument(
        "--reload-only", action="store_true", help="core: only RELOAD (files copied by hand)"
    )
    parser.set_defaults(func=run)


def _add_start(actions: Any) -> None:
    start = actions.add_parser("start", help="start the local Solr; prints its base URL(s)")
    _add_local_args(start)
    start.add_argument("--core", default=CONFIGSET_NAME, help="core (default %(default)s)")
    start.add_argument(
        "--configset", type=Path, default=None, help="configset dir (default: solr.configset_dir)"
    )
    start.add_argument("--timeout", type=float, default=180, help="seconds (default 180)")
    start.add_argument("--cloud", action="store_true", help="SolrCloud with embedded ZooKeeper")
    start.add_argument("--zk-port", type=int, help="embedded ZooKeeper port (default port+1000)")
    start.add_argument("--zk-host", help="join this ZooKeeper (HOST:PORT) instead")
    start.add_argument("--security-json", type=Path, help="install this security.json")
    start.add_argument("--heap", default="512m", help="JVM heap per node (default 512m)")
    start.add_argument("--config", type=Path, help="TOML settings (solr.user for readiness)")


def _add_local_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8983, help="port (default 8983)")
    parser.add_argument(
        "--solr-home", type=Path, default=DEFAULT_SOLR_HOME, help="default %(default)s"
    )
    parser.add_argument(
        "--nodes", type=int, default=1, help="cloud nodes on --port, --port+1, ... (default 1)"
    )


def _add_target_args(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--solr", help="base URL (default: solr.url)")
    parser.add_argument("--config", type=Path, help="TOML settings file")
    target = parser.add_mutually_exclusive_group(required=required)
    target.add_argument("--core", help="standalone core")
    target.add_argument("--collection", help="SolrCloud collection")


def _add_configset_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--configset-dir",
        type=Path,
        default=None,
        help="configset files to push (default: solr.configset_dir)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; returns the exit code (0 ok, 1 Solr failure)."""
    actions = {
        "start": run_start,
        "stop": run_stop,
        "status": run_status,
        "init": run_init,
        "update-config": run_update_config,
    }
    return actions[args.action](args)


def node_home(solr_home: Path, port: int, cloud: bool) -> Path:
    """Solr home of one node: ``solr_home`` standalone, ``solr_home/node-PORT`` in cloud."""
    return solr_home / f"node-{port}" if cloud else solr_home


def run_start(args: argparse.Namespace) -> int:
    """Start Solr (or find ours running) and print its base URL on stdout, one per node.

    Cloud: the first node on ``--port`` runs the embedded ZooKeeper (or joins ``--zk-host``),
    the others join it. Exit 0 on success (also when already running, with a note on
    stderr); exit 1 when a port is held by another process or a core fails to load.
    """
    cfg = _solr_settings(args)
    auth = SolrConnection.from_settings(cfg).auth
    if not args.cloud:
        running = running_solr_url(args.port, args.solr_home, args.core, auth=auth)
        if running is not None:
            print(f"indexer: Solr already runs on port {args.port}", file=sys.stderr)
            print(running)
            return 0
    zk_host = args.zk_host
    for i in range(args.nodes if args.cloud else 1):
        port = args.port + i
        cloud = None
        if args.cloud:
            cloud = CloudOptions(zk_host, args.zk_port)
            zk_host = zk_host or f"127.0.0.1:{args.zk_port or args.port + 1000}"
        url = start_solr(
            port,
            node_home(args.solr_home, port, args.cloud),
            args.core,
            args.configset or cfg.configset_dir,
            args.timeout,
            launcher_dir=cfg.launcher_dir,
            heap=args.heap,
            cloud=cloud,
            security_json=args.security_json,
            auth=auth,
        )
        print(url, flush=True)
    return 0


def run_stop(args: argparse.Namespace) -> int:
    """Stop our Solr nodes on ``--port`` (and the next ``--nodes``-1 ports), the last first.

    A node is found through its pid file in ``--solr-home`` or, when it was started with
    another Solr home, through the launcher's per-user record of that port
    (:mod:`indexer.solr.runtime`). Exit 1 when a port had no Solr of ours to stop.
    """
    missing = 0
    for port in reversed(range(args.port, args.port + args.nodes)):
        home = node_home(args.solr_home, port, cloud=True)
        if not pid_file(port, home).exists():
            home = args.solr_home
        if not pid_file(port, home).exists():
            home = _recorded_home(port) or home
        if not stop_solr(port, home):
            print(f"indexer: no Solr of ours runs on port {port}", file=sys.stderr)
            missing += 1
    return 1 if missing else 0


def _recorded_home(port: int) -> Path | None:
    """The Solr home the launcher recorded for ``port`` (``stop_solr`` checks the pid)."""
    try:
        found = runtime.lookup(port)
    except OSError:
        return None
    return None if found is None else found[1]


def run_status(args: argparse.Namespace) -> int:
    """Print a core's (``url, core, numDocs, solr_version``) or a collection's status (its
    shards and replicas with their state) as JSON.

    Raises:
        SolrError: Solr is down or refuses (exit 1).
    """
    cfg = _solr_settings(args)
    conn = SolrConnection.from_settings(cfg, args.solr)
    if args.collection:
        status = collection_status(conn, args.collection)
    else:
        status = solr_status(conn.base_url, args.core or cfg.core, auth=conn.auth)
    print(json.dumps(status, ensure_ascii=False))
    return 0


def run_init(args: argparse.Namespace) -> int:
    """Create the core (Cores API) or collection (Configsets + Collections API).

    Exit 0 when created or already there (reported, left alone); 1 with Solr's message.
    """
    cfg = _solr_settings(args)
    conn = SolrConnection.from_settings(cfg, args.solr)
    if args.collection:
        result = init_collection(
            conn,
            args.collection,
            args.configset_dir or cfg.configset_dir,
            shards=args.shards,
            replicas=args.replicas,
            configset=args.configset,
        )
    else:
        result = init_core(conn, args.core, args.configset or CONFIGSET_NAME)
    print(result.message)
    return 0


def run_update_config(args: argparse.Namespace) -> int:
    """Push ``--configset-dir`` to the live core or collection and reload it; exit 1 on
    failure with Solr's message (the old configuration then stays live)."""
    cfg = _solr_settings(args)
    conn = SolrConnection.from_settings(cfg, args.solr)
    configset = args.configset_dir or cfg.configset_dir
    if args.collection:
        print(update_collection_config(conn, args.collection, configset))
    else:
        print(update_core_config(conn, args.core, configset, reload_only=args.reload_only))
    return 0


def _solr_settings(args: argparse.Namespace) -> SolrSettings:
    return load_settings(getattr(args, "config", None)).settings.solr
