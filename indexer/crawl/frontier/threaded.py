"""The queue's hot calls off the event loop: one writer thread in front of a sync backend.

:class:`ThreadedQueue` implements :class:`~indexer.crawl.frontier.interface.AsyncURLQueue`
over any backend that implements the sync
:class:`~indexer.crawl.frontier.interface.URLQueue` (the SQLite frontier, the PostgreSQL
one): the backend is opened *in* the thread (``open_backend``), so it has a connection of
its own that no other thread touches (SQLite's rule for a connection, and psycopg's for a
non-thread-safe one). Calls are handed over in a FIFO queue and run one at a time in the
order they were made, so a refusal recorded after an add, or a claim asked after an add,
never overtakes it; the calls waiting when the thread takes one are run back to back
(the adds among them in one backend transaction when the backend offers ``batch()``).
:meth:`ThreadedQueue.close` runs what is pending, closes the backend and stops the thread.
What a call writes is as durable as the backend makes it when its coroutine returns.

The crawl does not use it yet (it calls the SQLite frontier on the loop, with grouped
commits, :mod:`.groups`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from indexer.crawl.frontier.interface import Entry, Refusal, URLQueue
from indexer.crawl.frontier.store import Claimed

_Job = tuple[Callable[[URLQueue], Any], concurrent.futures.Future[Any]]
_STOP = None


class ThreadedQueue:
    """:class:`AsyncURLQueue` over a sync backend on a thread of its own.

    Args:
        open_backend: called once in the writer thread; returns the backend it uses (and
            closes, with a ``close()`` method, when :meth:`close` is called).

    Raises:
        Whatever ``open_backend`` raises, from :meth:`start` (a locked or broken frontier).
    """

    def __init__(self, open_backend: Callable[[], URLQueue]) -> None:
        self._open = open_backend
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="frontier-writer", daemon=True)
        self._ready: concurrent.futures.Future[URLQueue] = concurrent.futures.Future()
        self._closed = False

    async def start(self) -> None:
        """Start the thread and open the backend in it."""
        self._thread.start()
        await asyncio.wrap_future(self._ready)

    async def add(self, entries: Sequence[Entry]) -> int:
        """:meth:`URLQueue.add`, in order with every other call."""
        return int(await self._call(lambda q: q.add(entries)))

    async def record_many(self, rows: Sequence[Refusal]) -> list[bool]:
        """:meth:`URLQueue.record_many`, off the loop."""
        answer: list[bool] = await self._call(lambda q: q.record_many(rows))
        return answer

    async def claim(self, host: str, now: float) -> Claimed | None:
        """:meth:`URLQueue.claim`, after every call made before it."""
        claimed: Claimed | None = await self._call(lambda q: q.claim(host, now))
        return claimed

    async def next_due(self, host: str) -> float | None:
        """:meth:`URLQueue.next_due`, after every call made before it."""
        due: float | None = await self._call(lambda q: q.next_due(host))
        return due

    async def close(self) -> None:
        """Run what is pending, close the backend, stop the thread (once)."""
        if self._closed or not self._thread.is_alive():
            return
        self._closed = True
        self._jobs.put(_STOP)
        await asyncio.to_thread(self._thread.join)

    def _call(self, fn: Callable[[URLQueue], Any]) -> asyncio.Future[Any]:
        if self._closed:
            raise RuntimeError("the frontier writer is closed")
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._jobs.put((fn, future))
        return asyncio.wrap_future(future)

    def _serve(self) -> None:
        try:
            backend = self._open()
        except BaseException as exc:
            self._ready.set_exception(exc)
            return
        self._ready.set_result(backend)
        try:
            while self._run_waiting(backend):
                pass
        finally:
            close = getattr(backend, "close", None)
            if close is not None:
                close()

    def _run_waiting(self, backend: URLQueue) -> bool:
        """Run the next call and those waiting behind it in one backend transaction, then
        answer them (so an answer means committed); False once stopped."""
        jobs = [self._jobs.get()]
        with contextlib.suppress(queue.Empty):
            while jobs[-1] is not _STOP:
                jobs.append(self._jobs.get_nowait())
        calls = [job for job in jobs if job is not _STOP]
        answers: list[tuple[concurrent.futures.Future[Any], Any, BaseException | None]] = []
        batch = getattr(backend, "batch", None)
        try:
            with batch() if callable(batch) else contextlib.nullcontext():
                for fn, future in calls:
                    try:
                        answers.append((future, fn(backend), None))
                    except Exception as exc:  # the caller's (a StateError: disk, file)
                        answers.append((future, None, exc))
        except Exception as exc:  # the commit failed: nothing of the group is stored
            answers = [(future, None, exc) for future, _result, _error in answers]
        for future, result, error in answers:
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)
        return len(calls) == len(jobs)


if TYPE_CHECKING:  # mypy checks that it implements the interface
    from indexer.crawl.frontier.interface import AsyncURLQueue

    _ASYNC: type[AsyncURLQueue] = ThreadedQueue
