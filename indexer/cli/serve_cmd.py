"""``indexer serve``: the search web interface (aiohttp.web), on 127.0.0.1 by default.

Any other bind address needs ``serve.admin_password`` of at least 12 characters, else the
command refuses with one line naming it (exit 2), before anything listens. On loopback
without it, a random admin password is generated at each start and printed once beside the
URL. ``--tls-cert FILE --tls-key FILE`` (``serve.tls_cert``, ``serve.tls_key``) serve HTTPS;
files that cannot be read or used are one line naming the setting and the file (exit 2).
With ``frontier.url`` (the admin views read the shared frontier) the database is opened
once first: unreachable, foreign or newer, it is one line naming ``frontier.url`` (exit 2).
Ctrl-C or SIGTERM stops the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import ssl
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from indexer.cli.options import ExitCode, add_common, configure_logging, load_from_args, solr_flags
from indexer.crawl.frontier.opening import open_view
from indexer.solr.query import query_options
from indexer.web.app import MAX_REQUEST_LINE, WebConfig, make_app
from indexer.web.requestlog import make_runner
from indexer.web.security import admin_password
from indexer.web.tls import server_context


def add_parser(sub: Any) -> None:
    """Register ``indexer serve``."""
    p: argparse.ArgumentParser = sub.add_parser("serve", help="run the search web interface")
    p.add_argument("--host", help="bind address (serve.host, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="TCP port (serve.port, default 8080; 0 picks one)")
    p.add_argument("--solr", help="Solr base URL (solr.url)")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--core", help="core to search (solr.core)")
    target.add_argument("--collection", help="SolrCloud collection (solr.collection)")
    p.add_argument(
        "--tls-cert",
        type=Path,
        metavar="FILE",
        help="PEM certificate: serve HTTPS (serve.tls_cert)",
    )
    p.add_argument("--tls-key", type=Path, metavar="FILE", help="PEM private key (serve.tls_key)")
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit 2 on a refused bind (see the module docstring)."""
    configure_logging(args.verbose, args.quiet)
    loaded = load_from_args(
        args,
        {
            "serve.host": args.host,
            "serve.port": args.port,
            "serve.tls_cert": args.tls_cert,
            "serve.tls_key": args.tls_key,
            **solr_flags(args),
        },
    )
    settings = loaded.settings
    if settings.frontier.url:  # the admin views read it: fail fast, one line (exit 2)
        open_view(
            settings.crawl.data_dir, settings.frontier.url, settings.frontier.stall_seconds
        ).close()
    password, generated = admin_password(settings.serve)  # checked before anything listens
    tls = server_context(settings.serve)
    config = WebConfig(
        settings.solr,
        admin_password=password,
        data_dir=settings.crawl.data_dir,
        frontier=settings.frontier.url or None,
        query=query_options(settings.search),
        loaded=loaded,
        config_file=args.config,
        serve=settings.serve,
    )
    banner = f"admin password (generated for this run): {password}" if generated else None
    with contextlib.suppress(KeyboardInterrupt):
        app = make_app(config)
        asyncio.run(_serve(app, settings.serve.host, settings.serve.port, banner, tls))
    print("indexer serve: stopped", file=sys.stderr)
    return ExitCode.OK


async def _serve(
    app: web.Application, host: str, port: int, banner: str | None, tls: ssl.SSLContext | None
) -> None:
    """Listen on ``host:port`` (HTTPS with ``tls``), print the URL (and ``banner``), run
    until SIGINT/SIGTERM."""
    runner = make_runner(app, MAX_REQUEST_LINE)
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        site = web.TCPSite(runner, host, port, ssl_context=tls)
        await site.start()
        bound = site._server.sockets[0].getsockname()[1] if site._server else port  # type: ignore[attr-defined]
        if banner:
            print(banner, flush=True)
        shown = f"[{host}]" if ":" in host else host
        scheme = "https" if tls else "http"
        print(f"indexer serve: {scheme}://{shown}:{bound}/ (Ctrl-C stops it)", flush=True)
        await stop.wait()
    finally:
        await runner.cleanup()
