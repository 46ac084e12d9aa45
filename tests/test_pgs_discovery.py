"""Hosts another crawl process discovered (issue #20): process A queues the outlinks of a
host process B never saw; B's dispatcher takes that host up by its periodic look at the
hosts with queued URLs, so the two share the work. Real PostgreSQL; the visits are fakes
that finish their URL."""

from __future__ import annotations

import asyncio
from pathlib import Path

from indexer.crawl.frontier import Claimed
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.politeness import Politeness
from indexer.crawl.scope import build_scope
from indexer.crawl.urls import SiteAliases
from indexer.pipeline.dispatch import Dispatcher
from indexer.pipeline.ledger import Ledger
from indexer.report import RunStats
from indexer.settings import load_settings

OWN, NEW = "127.0.0.1:9", "127.0.0.2:9"


def test_a_host_queued_by_another_process_is_taken_up(pg_url: str, tmp_path: Path) -> None:
    a = PgFrontier(pg_url, tmp_path / "a")
    a.start_run(resume=False)
    b = PgFrontier(pg_url, tmp_path / "b")
    b.start_run(resume=True)
    seeds = (f"http://{OWN}/", f"http://{NEW}/")
    settings = load_settings(
        None, {"crawl.seeds": seeds, "crawl.data_dir": tmp_path / "b"}, environ={}
    ).settings
    dispatcher = Dispatcher(
        settings,
        Ledger(b, RunStats()),
        Politeness(0, 1, 60),
        build_scope(settings.crawl),
        SiteAliases(),
    )
    dispatcher.rewatch = 0.2
    b.add([(f"http://{OWN}/p{i}", OWN, 0) for i in range(15)])
    dispatcher.watch_queued_hosts()  # B starts: it knows its own host only
    a.add([(f"http://{NEW}/q{i}", NEW, 1) for i in range(5)])  # A's outlinks to a new host
    visited: list[str] = []

    async def visit(claimed: Claimed) -> None:
        await asyncio.sleep(0.05)
        visited.append(claimed.url)
        b.finish(claimed.url, "indexed", "")
        dispatcher.politeness.leave(claimed.host)

    async def ready() -> None:
        return None

    try:
        asyncio.run(dispatcher.run(visit, ready, asyncio.Event(), None))
    finally:
        b.close()
        a.close()
    assert sorted(u for u in visited if NEW in u) == sorted(
        f"http://{NEW}/q{i}" for i in range(5)
    ), "B never took up the host A queued"
