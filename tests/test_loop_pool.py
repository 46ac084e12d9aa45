"""The page pool fed from the event loop (:mod:`indexer.pipeline.looppool`): answers in
the caller's futures, errors carried back, a killed worker failing only what it held and
replaced, shutdown leaving no process; a crawl with ``extract.worker_feed = "loop"``."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from indexer.pipeline.looppool import QUEUED_BYTES, LoopPool
from tests.faultserver import FaultServer, Reply, crawl, html


def _echo(value: object) -> object:
    return value


def _size(data: bytes) -> int:
    return len(data)


def _slow_size(data: bytes) -> int:
    time.sleep(0.2)
    return len(data)


def _fail(message: str) -> None:
    raise ValueError(message)


async def _run(pool: LoopPool, fn: object, *args: object) -> object:
    return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)  # type: ignore[arg-type]


def test_answers_errors_and_large_calls() -> None:
    async def main() -> None:
        with LoopPool(2) as pool:
            got = await asyncio.gather(*(_run(pool, _echo, i) for i in range(200)))
            assert got == list(range(200))
            big = b"x" * (4 * QUEUED_BYTES)  # too big to queue behind a running call
            sizes = await asyncio.gather(*(_run(pool, _size, big) for _ in range(6)))
            assert sizes == [len(big)] * 6
            with pytest.raises(ValueError, match="bad page"):
                await _run(pool, _fail, "bad page")
            assert await _run(pool, _echo, "after") == "after"

    asyncio.run(main())


def test_a_killed_worker_fails_its_calls_only_and_is_replaced() -> None:
    async def main() -> tuple[int, int]:
        pool = LoopPool(1)
        with pool:
            first = int(await _run(pool, os.getpid))  # type: ignore[call-overload]
            slow = asyncio.ensure_future(_run(pool, time.sleep, 30))
            await asyncio.sleep(0.5)
            os.kill(first, signal.SIGKILL)
            with pytest.raises(BrokenProcessPool, match="died"):
                await asyncio.wait_for(slow, 10)
            second = int(await asyncio.wait_for(_run(pool, os.getpid), 30))  # type: ignore[call-overload]
            assert await _run(pool, _echo, 7) == 7
        return first, second

    first, second = asyncio.run(main())
    assert second != first
    _assert_gone(second)


def test_shutdown_cancels_waiting_calls_and_ends_the_workers() -> None:
    big = b"x" * (QUEUED_BYTES - 1000)  # one such call fills a worker's queue

    async def main() -> tuple[list[int], list[Future[object]]]:
        pool = LoopPool(2)
        pids = await asyncio.gather(*(_run(pool, os.getpid) for _ in range(8)))
        calls = [pool.submit(_slow_size, big) for _ in range(10)]
        pool.shutdown(wait=True)
        with pytest.raises(RuntimeError, match="after shutdown"):
            pool.submit(_echo, 1)
        return sorted({int(p) for p in pids}), calls  # type: ignore[call-overload]

    pids, calls = asyncio.run(main())
    assert len(pids) == 2
    assert [c.result() for c in calls[:2]] == [len(big)] * 2  # sent: answered at shutdown
    assert all(c.cancelled() for c in calls[2:])  # waiting in the pool: cancelled
    for pid in pids:
        _assert_gone(pid)


def test_submit_needs_the_event_loop() -> None:
    pool = LoopPool(1)
    with pytest.raises(RuntimeError):
        pool.submit(_echo, 1)
    pool.shutdown()


def _assert_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} still running")


def test_answers_are_read_as_they_arrive_without_waiting_for_the_rest() -> None:
    from multiprocessing.reduction import ForkingPickler

    from indexer.pipeline.looppool import _Frames

    first = bytes(ForkingPickler.dumps((True, "一" * 20000)))
    second = bytes(ForkingPickler.dumps((False, ValueError("x"))))
    wire = len(first).to_bytes(4, "big") + first + len(second).to_bytes(4, "big") + second
    frames, got = _Frames(), []
    for cut in range(0, len(wire), 7001):  # pieces that split headers and messages
        got += frames.feed(wire[cut : cut + 7001])
        if len(got) == 0:
            assert cut + 7001 < len(first) + 4  # nothing before the first is whole
    assert got == [first, second]
    big = b"\xff\xff\xff\xff" + (3).to_bytes(8, "big") + b"abc"  # the 8-byte length form
    assert _Frames().feed(big) == [b"abc"]


def test_a_crawl_through_the_loop_fed_pool(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.page("/", "トップ", [f"/p{i}" for i in range(12)])
        for i in range(12):
            srv.route(f"/p{i}", Reply(body=html(f"ページ{i}", f"本文その{i}。" * 20)))
        run = asyncio.run(crawl([srv.url("/")], tmp_path, extract__worker_feed="loop"))
    assert run.stats.outcomes["indexed"] == 13, run.outcomes
    texts = {str(d["url"]).rsplit("/", 1)[-1]: str(d["text"]) for d in run.docs}
    assert all(f"本文その{i}" in texts[f"p{i}"] for i in range(12))
