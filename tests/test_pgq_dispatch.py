"""The dispatcher's turn at a delay (issue #20): the host whose politeness slot came first is
claimed first (by name, a host late in the order waited behind the others' claims at every
turn, so its gaps grew longer each time), and a host's next URL is claimed shortly before its
slot, the visit waiting for the slot itself (a gap it never shortens). SQLite frontier: the
rule is the dispatcher's, for every backend."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.politeness import Politeness
from indexer.crawl.scope import build_scope
from indexer.crawl.urls import SiteAliases
from indexer.pipeline.dispatch import CLAIM_AHEAD, Dispatcher
from indexer.pipeline.ledger import Ledger
from indexer.report import RunStats
from indexer.settings import load_settings

DELAY = 0.1
HOSTS = ("a.test", "b.test")


def _dispatcher(tmp_path: Path, concurrency: int) -> Dispatcher:
    frontier = Frontier(tmp_path / "d")
    frontier.start_run(resume=False)
    seeds = tuple(f"http://{h}/" for h in HOSTS)
    overrides = {"crawl.seeds": seeds, "crawl.data_dir": tmp_path / "d"}
    overrides |= {"fetch.concurrency": concurrency}
    settings = load_settings(None, overrides, environ={}).settings
    dispatcher = Dispatcher(
        settings,
        Ledger(frontier, RunStats()),
        Politeness(DELAY, 1, 60),
        build_scope(settings.crawl),
        SiteAliases(),
    )
    frontier.add([(f"http://{h}/{i}", h, 0) for h in HOSTS for i in range(2)])
    dispatcher.watch_queued_hosts()
    return dispatcher


def test_the_host_whose_slot_came_first_is_claimed_first(tmp_path: Path) -> None:
    dispatcher = _dispatcher(tmp_path, concurrency=1)
    started: list[str] = []

    async def visit(claimed: Claimed) -> None:
        started.append(claimed.host)

    async def turn() -> None:
        dispatcher.politeness.sent("b.test")  # b's last request came first
        await asyncio.sleep(0.03)
        dispatcher.politeness.sent("a.test")
        await asyncio.sleep(DELAY + 0.05)  # both slots have come, b's 30 ms earlier
        dispatcher._launch(visit)
        await asyncio.sleep(0)

    asyncio.run(turn())
    assert started == ["b.test"], "b waited longer: it goes before a, whatever the names"
    dispatcher.frontier.close()


def test_a_url_is_claimed_just_before_its_slot_and_waits_for_it(tmp_path: Path) -> None:
    dispatcher = _dispatcher(tmp_path, concurrency=4)
    politeness = dispatcher.politeness
    starts: dict[str, float] = {}

    async def visit(claimed: Claimed) -> None:
        await politeness.turn(claimed.host)
        starts[claimed.host] = time.monotonic()
        politeness.sent(claimed.host)

    async def turn() -> None:
        for host in HOSTS:
            politeness.sent(host)
        slot = politeness.ready_at("a.test")
        assert slot is not None
        await asyncio.sleep(max(0.0, slot - time.monotonic() - CLAIM_AHEAD / 2))
        claimed_at = time.monotonic()
        dispatcher._launch(visit)
        assert len(dispatcher._tasks) == 2, "claimed before the slot"
        assert claimed_at < slot
        await asyncio.wait(dispatcher._tasks)
        for host in HOSTS:
            assert starts[host] >= slot, "the request itself waits for the slot"

    asyncio.run(turn())
    dispatcher.frontier.close()
