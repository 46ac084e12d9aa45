"""The queue's calls on a writer thread (issue #16, :mod:`indexer.crawl.frontier.threaded`):
any sync backend behind it, opened in the thread; calls in the order they were made; an
answer only once committed; close runs what is pending."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.threaded import ThreadedQueue

HOST = "127.0.0.1"


def _url(i: int) -> str:
    return f"http://{HOST}/p/{i}.html"


class _Watched:
    """A frontier that notes the thread each call runs on."""

    def __init__(self, path: Path) -> None:
        self.frontier = Frontier(path)
        self.frontier.start_run(False)
        self.threads: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.frontier, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self.threads.add(threading.current_thread().name)
            return attr(*args, **kwargs)

        return call


def test_calls_run_in_order_on_the_writer_thread(tmp_path: Path) -> None:
    opened: list[_Watched] = []

    def open_backend() -> Any:
        opened.append(_Watched(tmp_path))
        return opened[0]

    async def crawl() -> tuple[list[int], list[bool], list[str | None]]:
        queue = ThreadedQueue(open_backend)
        await queue.start()
        # handed in together: each add is stored before the refusal and the claims after it
        added = [queue.add([(_url(i), HOST, 1)]) for i in range(20)]
        refused = queue.record_many([(_url(3), HOST, 1, "out-of-scope", "a refusal")])
        claims = [queue.claim(HOST, time.time()) for _ in range(3)]
        counts = list(await asyncio.gather(*added))
        answers = await refused
        urls = [None if c is None else c.url for c in await asyncio.gather(*claims)]
        assert await queue.next_due(HOST) == 0.0
        await queue.close()
        return counts, answers, urls

    counts, answers, urls = asyncio.run(crawl())
    assert counts == [1] * 20
    assert answers == [False]  # queued in this run already: the add came first
    assert urls == [_url(0), _url(1), _url(2)]
    assert opened[0].threads == {"frontier-writer"}
    with Frontier(tmp_path) as again:  # closed by the writer: the lock is free
        assert again.queued_count() == 20


def test_an_error_reaches_its_caller_and_close_is_idempotent(tmp_path: Path) -> None:
    async def crawl() -> None:
        queue = ThreadedQueue(lambda: Frontier(tmp_path))  # no run started: claims fine
        await queue.start()
        with pytest.raises(ValueError):
            await queue.add([("too", "few")])  # type: ignore[list-item]
        assert await queue.add([(_url(1), HOST, 1)]) == 1
        await queue.close()
        await queue.close()
        with pytest.raises(RuntimeError, match="closed"):
            await queue.add([(_url(2), HOST, 1)])

    asyncio.run(crawl())


def test_a_backend_that_cannot_open_fails_start(tmp_path: Path) -> None:
    async def crawl() -> None:
        with Frontier(tmp_path):  # holds the lock
            queue = ThreadedQueue(lambda: Frontier(tmp_path))
            with pytest.raises(Exception, match="another crawl"):
                await queue.start()

    asyncio.run(crawl())
