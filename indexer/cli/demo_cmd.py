"""``indexer demo``: the main job on bundled defaults, end to end on this machine.

Starts the local Solr (if not running), serves the bundled sample intranet site on
127.0.0.1, crawls it into core ``pages``, runs Japanese searches and prints the hits.
Solr is left running for more searches (``indexer solr stop`` ends it).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import sys
from pathlib import Path
from typing import Any

from indexer.cli.options import configure_logging
from indexer.crawl.frontier import Frontier
from indexer.demo import SAMPLE_SITE
from indexer.demo.sitehost import SiteHost
from indexer.errors import ConfigError
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.report import RunStats, format_summary
from indexer.settings import load_settings
from indexer.solr.launcher import DEFAULT_SOLR_HOME, start_solr
from indexer.solr.search import search

QUERIES = ("有給休暇", "健康診断", "パスワード", "夏祭り")


def add_parser(sub: Any) -> None:
    """Register ``indexer demo``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "demo", help="start Solr, crawl the bundled sample site, search it"
    )
    p.add_argument("--port", type=int, default=8983, help="Solr port (default 8983)")
    p.add_argument(
        "--site-port",
        type=int,
        default=8900,
        help="port of the sample site (default 8900; stable document ids)",
    )
    p.add_argument("--solr-home", type=Path, default=DEFAULT_SOLR_HOME)
    p.add_argument("--data-dir", type=Path, default=Path(".indexer/demo-crawl"))
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo; exit 0 when every step worked."""
    configure_logging(0, args.quiet)
    _check_port_free(args.site_port)
    print("starting Solr (the first start builds the launcher with Maven)…", file=sys.stderr)
    solr = load_settings().settings.solr
    solr_url = start_solr(
        args.port,
        args.solr_home,
        configset_dir=solr.configset_dir,
        launcher_dir=solr.launcher_dir,
    )
    print(f"Solr: {solr_url}", file=sys.stderr)
    stats = asyncio.run(_crawl_sample_site(solr_url, args.data_dir, args.site_port))
    print(format_summary(stats.summary()), file=sys.stderr)
    settings = load_settings(flags={"solr.url": solr_url}).settings
    for query in QUERIES:
        result = search(settings.solr, query, rows=3)
        print(f"\n検索: {query} — {result['numFound']} hits")
        for hit in result["hits"]:
            print(f"  {hit['title']}  {hit['url']}")
            for snippet in hit["snippets"][:1]:
                print(f"    … {snippet[:120]} …")
    home = "" if args.solr_home == DEFAULT_SOLR_HOME else f" --solr-home {args.solr_home}"
    print(
        f"\nSolr keeps running at {solr_url}; try: indexer search --solr {solr_url} 規程\n"
        f"stop it with: indexer solr stop --port {args.port}{home}",
        file=sys.stderr,
    )
    return 0 if stats.indexed else 1


def _check_port_free(port: int) -> None:
    with socket.socket() as sock:
        # as aiohttp's server socket does: a TIME_WAIT leftover of the last demo is no clash
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            raise ConfigError("--site-port", f"port {port} is in use; choose another") from None


async def _crawl_sample_site(solr_url: str, data_dir: Path, site_port: int) -> RunStats:
    shutil.rmtree(data_dir, ignore_errors=True)  # the demo's own state: always a full crawl
    host = SiteHost(SAMPLE_SITE, port=site_port)
    base = await host.start()
    try:
        loaded = load_settings(
            flags={
                "crawl.seeds": (f"{base}/index.html",),
                "crawl.data_dir": data_dir,
                "fetch.delay": 0.05,
                "solr.url": solr_url,
                "solr.commit_within_ms": 1000,
            }
        )
        with Frontier(data_dir) as frontier:
            return await Crawler(loaded.settings, frontier, CrawlOptions()).run()
    finally:
        await host.stop()
