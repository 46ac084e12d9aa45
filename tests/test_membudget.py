"""The crawl process's memory budget for bodies (crawl.memory_budget): reservations, the line
of bodies waiting their turn, and bodies streamed to a temporary file when it is full, fetched
from a real local server."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import os
from pathlib import Path

import pytest
from aiohttp import web

from indexer.crawl.bodyspool import BodySpool
from indexer.crawl.fetch import Fetcher, Validators, build_session
from indexer.crawl.membudget import BODY_COST, MemoryBudget
from indexer.pipeline.processplan import Plan
from indexer.settings import FetchSettings

MIB = 1 << 20


async def test_a_reservation_grows_within_the_budget_and_one_large_body_goes_alone() -> None:
    budget = MemoryBudget(100)
    a, b = budget.reservation(), budget.reservation()
    assert a.try_grow(60) and not b.try_grow(50) and b.try_grow(40)
    assert budget.used == 100
    a.release()
    a.release()  # idempotent
    assert budget.used == 40 and a.held == 0
    b.release()
    big = budget.reservation()
    assert big.try_grow(250)  # nothing else held: larger than the budget, alone
    assert not budget.reservation().try_grow(1)
    big.release()
    assert budget.used == 0 and budget.stats.peak == 250


async def test_waiting_bodies_are_served_first_come_first_served() -> None:
    budget = MemoryBudget(100)
    holder = budget.reservation()
    assert holder.try_grow(80)
    first, second, late = budget.reservation(), budget.reservation(), budget.reservation()
    order: list[str] = []

    async def wait(name: str, amount: int, reservation: object) -> None:
        await reservation.grow(amount)  # type: ignore[attr-defined]
        order.append(name)

    tasks = [
        asyncio.create_task(wait("first", 50, first)),
        asyncio.create_task(wait("second", 10, second)),
    ]
    await asyncio.sleep(0.01)
    assert not late.try_grow(5)  # room for 5, but bodies wait in line before it
    assert order == [] and budget.stats.waits == 2
    holder.release()
    await asyncio.gather(*tasks)
    assert order == ["first", "second"] and budget.used == 60
    with pytest.raises(ValueError):  # holding bytes, it may not wait for more
        await first.grow(1000)


async def test_a_cancelled_waiter_leaves_the_line() -> None:
    budget = MemoryBudget(100)
    holder, gone, next_one = (budget.reservation() for _ in range(3))
    assert holder.try_grow(90)
    waiting = asyncio.create_task(gone.grow(50))
    after = asyncio.create_task(next_one.grow(5))
    await asyncio.sleep(0.01)
    waiting.cancel()
    await asyncio.sleep(0.01)
    assert after.done() and next_one.held == 5 and gone.held == 0
    holder.release()
    assert budget.used == 5


async def test_a_spool_without_room_writes_a_file_and_waits_its_turn() -> None:
    budget = MemoryBudget(4 * MIB)
    holder = budget.reservation()
    assert holder.try_grow(3 * MIB)
    data = os.urandom(3 * MIB)
    spool = BodySpool(budget.reservation(), None)
    for start in range(0, len(data), 64 * 1024):
        spool.write(data[start : start + 64 * 1024])
    assert spool.spilled and budget.used == 3 * MIB
    value = asyncio.create_task(spool.value())
    await asyncio.sleep(0.01)
    assert not value.done()  # its turn comes when the holder lets go
    holder.release()
    assert await value == data and budget.used == BODY_COST * len(data)


def _server_app(bodies: dict[str, bytes]) -> web.Application:
    async def serve(request: web.Request) -> web.StreamResponse:
        body = bodies[request.path]
        kind = request.query.get("as", "length")
        if kind == "gzip":
            packed = gzip.compress(body, 1)
            headers = {"Content-Encoding": "gzip", "Content-Type": "application/pdf"}
            return web.Response(body=packed, headers=headers)
        if kind == "chunked":
            resp = web.StreamResponse(headers={"Content-Type": "application/pdf"})
            resp.enable_chunked_encoding()
            await resp.prepare(request)
            for start in range(0, len(body), 256 * 1024):
                await resp.write(body[start : start + 256 * 1024])
            await resp.write_eof()
            return resp
        return web.Response(body=body, content_type="application/pdf")

    app = web.Application()
    app.router.add_get("/{name}", serve)
    return app


@pytest.mark.parametrize("kind", ["length", "chunked", "gzip"])
async def test_bodies_in_parallel_stay_within_the_budget_and_arrive_whole(kind: str) -> None:
    bodies = {f"/d{i}": os.urandom(3 * MIB) + bytes([i]) * MIB for i in range(8)}
    runner = web.AppRunner(_server_app(bodies))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    budget = MemoryBudget(20 * MIB)  # room for two 4 MiB bodies at twice their size
    cfg = FetchSettings(delay=0, concurrency=8, per_host=8)
    seen: dict[str, str] = {}

    async def one(session_fetcher: Fetcher, path: str) -> None:
        held = budget.reservation()
        try:
            url = f"http://127.0.0.1:{port}{path}?as={kind}"
            result = await session_fetcher.fetch(url, Validators(), _no_hop, _no_turn, held)
            await asyncio.sleep(0.05)  # parsed while held
            seen[path] = hashlib.sha256(result.body).hexdigest()
        finally:
            held.release()

    try:
        async with build_session(cfg) as session:
            fetcher = Fetcher(session, cfg)
            await asyncio.wait_for(asyncio.gather(*(one(fetcher, p) for p in bodies)), 60)
    finally:
        await runner.cleanup()
    assert seen == {p: hashlib.sha256(b).hexdigest() for p, b in bodies.items()}
    assert budget.stats.peak <= budget.limit, budget.stats
    assert budget.stats.spilled >= 4 and budget.used == 0


async def _no_hop(_url: str) -> None:
    return None


async def _no_turn(_url: str) -> None:
    return None


def test_each_of_n_processes_gets_a_share_of_the_budget() -> None:
    seed, url = "http://127.0.0.1:9/", "postgresql://127.0.0.1/x"
    plan = Plan(("crawl", seed), 4, Path("d"), None, url, 30.0, memory_budget=1 << 30)
    cmd = plan.command(0, join=False, handoff=5)
    assert cmd[cmd.index("--memory-budget") + 1] == str((1 << 30) // 4)


async def test_a_body_longer_or_shorter_than_declared_arrives_as_sent() -> None:
    budget = MemoryBudget(64 * MIB)
    for declared, sent in ((MIB, 3 * MIB), (3 * MIB, MIB)):
        held = budget.reservation()
        spool = BodySpool(held, declared)
        data = os.urandom(sent)
        for start in range(0, sent, 64 * 1024):
            spool.write(data[start : start + 64 * 1024])
        assert await spool.value() == data
        held.release()
    small = MemoryBudget(16 * MIB)
    blocker = small.reservation()
    assert blocker.try_grow(15 * MIB)
    late = small.reservation()
    spool = BodySpool(late, MIB)  # no room for its declared size: a file from the start
    data = os.urandom(2 * MIB)
    spool.write(data[:MIB])
    spool.write(data[MIB:])
    assert spool.spilled
    blocker.release()
    assert await spool.value() == data
