"""The page worker processes, driven by the crawl's event loop: no threads in between.

Python's ``ProcessPoolExecutor`` hands every call and every result through two threads of
the crawl process (a feeder that pickles calls into a shared queue, a manager that reads
results and wakes the loop). Both need the GIL the event loop holds, so under load a
worker waits for them: a profile of the benchmark's crawl (issue #16) had each worker
blocked about 30 % of its time sending a result and 14 % waiting for work while pages
were queued, and the two threads cost 0.34 CPU-ms a page.

:class:`LoopPool` gives each worker a pipe of its own, writes a call to an idle worker
from the loop's thread and reads the answer in a reader callback of the loop
(``loop.add_reader``): one pickle each way, no thread, no lock shared by the workers.
A worker runs one call at a time; calls wait in the pool's own queue, oldest first.
A worker that dies (a crash in a C extension, the kernel's OOM killer) fails only the call
it ran, with ``BrokenProcessPool`` as Python's pool would, and is replaced; Python's pool
is broken for good after one death. Workers are spawned with SIGINT and SIGTERM blocked
and get SIGKILL when the crawler dies (:func:`indexer.pipeline.workers.die_with_parent`).

It is an :class:`concurrent.futures.Executor` (``loop.run_in_executor`` takes it), whose
``submit`` must be called from the thread running the event loop. The crawl uses it with
``extract.worker_feed = "loop"`` only: on a loaded shared machine a crawl through it took
longer than through Python's pool at about the same CPU (CHANGELOG), so it is not the
default until measured on a quiet one (``scripts/bench/page_pool.py`` measures the pool).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import struct
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any

_Call = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]
STOP_WAIT = 5.0  # seconds a worker gets to finish its calls at shutdown, then SIGKILL
# Calls go to a busy worker too, queued in its pipe behind the one it runs, so that it goes
# on without waiting for the loop to read an answer (a busy loop reads one only between its
# callbacks), as long as all its unanswered calls together are this small: the pipe's
# socket buffer (about 200 KiB on Linux) holds them, so a write never blocks the loop.
QUEUED_BYTES = 128 * 1024


_READ_BYTES = 256 * 1024


class _Frames:
    """Messages in ``multiprocessing.connection``'s framing (a 4-byte signed big-endian
    length, or -1 and an 8-byte one), taken from the bytes as they arrive: the loop never
    blocks on the rest of a message a worker is still writing."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data``; return the messages now complete, in order."""
        buffer = self._buffer
        buffer += data
        done: list[bytes] = []
        while len(buffer) >= 4:
            (size,), start = struct.unpack_from("!i", buffer), 4
            if size == -1:
                if len(buffer) < 12:
                    break
                (size,), start = struct.unpack_from("!Q", buffer, 4), 12
            if len(buffer) < start + size:
                break
            done.append(bytes(buffer[start : start + size]))
            del buffer[: start + size]
        return done


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    calls: deque[Future[Any]] = field(default_factory=deque)  # sent, in order
    sizes: deque[int] = field(default_factory=deque)  # their pickled bytes
    frames: _Frames = field(default_factory=lambda: _Frames())


class LoopPool(Executor):
    """``workers`` page worker processes fed from the running event loop.

    An idle worker takes any call; a busy one more calls while its unanswered ones stay
    within :data:`QUEUED_BYTES` pickled bytes; the others wait in the pool, oldest first.

    Args:
        workers: how many processes (at least 1); they start on the first ``submit``.

    Raises:
        RuntimeError: from :meth:`submit` outside the event loop's thread, or after
            :meth:`shutdown`.
    """

    def __init__(self, workers: int) -> None:
        self._size = max(1, workers)
        self._workers: list[_Worker] = []
        self._waiting: deque[_Call] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue ``fn(*args, **kwargs)`` for a worker (both picklable); its future."""
        if self._closed:
            raise RuntimeError("cannot schedule new futures after shutdown")
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        elif asyncio.get_running_loop() is not self._loop:
            raise RuntimeError("LoopPool.submit called from another event loop")
        while len(self._workers) < self._size:
            self._spawn()
        future: Future[Any] = Future()
        self._waiting.append((future, fn, args, kwargs))
        self._feed()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the workers: calls not sent are cancelled (the loop that would feed them is
        the caller's); with ``wait``, each sent call gets :data:`STOP_WAIT` seconds to
        answer; then the pipes close, and a worker still running is killed by its pid."""
        self._closed = True
        while self._waiting:
            self._waiting.popleft()[0].cancel()
        for worker in list(self._workers):
            while wait and worker.calls and not worker.conn.closed and worker.conn.poll(STOP_WAIT):
                self._answer(worker)
            self._retire(worker)
            _fail(worker, "the page pool was shut down")
        for worker in self._workers:
            worker.process.join(STOP_WAIT if wait else 0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._workers.clear()

    def _spawn(self) -> None:
        from indexer.pipeline.workers import stops_blocked  # it imports this module

        assert self._loop is not None
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        with stops_blocked():
            process = context.Process(
                target=_serve, args=(theirs, os.getpid()), name="page-worker", daemon=True
            )
            process.start()
        theirs.close()
        worker = _Worker(process, mine)
        self._loop.add_reader(mine.fileno(), self._answer, worker)
        self._workers.append(worker)

    def _feed(self) -> None:
        """Send waiting calls, oldest first, each to the worker with the fewest unanswered
        bytes that may take it (see :data:`QUEUED_BYTES`)."""
        while self._waiting:
            future, fn, args, kwargs = self._waiting[0]
            if future.cancelled():
                self._waiting.popleft()
                continue
            try:
                payload = bytes(ForkingPickler.dumps((fn, args, kwargs)))
            except Exception as exc:  # the call does not pickle
                self._waiting.popleft()
                if future.set_running_or_notify_cancel():
                    future.set_exception(exc)
                continue
            worker = self._least_busy(len(payload))
            if worker is None or not future.set_running_or_notify_cancel():
                if worker is None:
                    return
                self._waiting.popleft()
                continue
            self._waiting.popleft()
            worker.calls.append(future)
            worker.sizes.append(len(payload))
            with contextlib.suppress(OSError):  # it died: its reader callback says so
                worker.conn.send_bytes(payload)

    def _least_busy(self, size: int) -> _Worker | None:
        """An idle worker, else the least loaded one that ``size`` more bytes may queue in."""
        live = [w for w in self._workers if not w.conn.closed]
        if not live:
            return None
        worker = min(live, key=lambda w: sum(w.sizes))
        if worker.calls and sum(worker.sizes) + size > QUEUED_BYTES:
            return None
        return worker

    def _answer(self, worker: _Worker) -> None:
        """The reader callback: what the worker's pipe holds now (answers to its oldest
        calls, once complete; never waiting for the rest of one), or its death."""
        try:
            data = os.read(worker.conn.fileno(), _READ_BYTES)
        except OSError:
            data = b""
        if not data:
            self._lost(worker)
            return
        for message in worker.frames.feed(data):
            ok, value = ForkingPickler.loads(message)
            if worker.calls:
                future = worker.calls.popleft()
                worker.sizes.popleft()
                (future.set_result if ok else future.set_exception)(value)
        if not self._closed:
            self._feed()

    def _lost(self, worker: _Worker) -> None:
        """A worker died: fail the calls it held, replace it."""
        self._retire(worker)
        worker.process.join(1.0)
        self._workers.remove(worker)
        why = f"a page worker died (exit code {worker.process.exitcode})"
        _fail(worker, why)
        if not self._closed:
            self._spawn()
            self._feed()

    def _retire(self, worker: _Worker) -> None:
        """Stop listening to ``worker`` and close its pipe (an idle worker then exits)."""
        if self._loop is not None and not self._loop.is_closed() and not worker.conn.closed:
            self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()


def _fail(worker: _Worker, why: str) -> None:
    """Fail the calls ``worker`` holds with ``BrokenProcessPool(why)``."""
    while worker.calls:
        worker.calls.popleft().set_exception(BrokenProcessPool(why))
    worker.sizes.clear()


def _serve(conn: Connection, parent: int) -> None:
    """A worker's loop: run each call received, send ``(ok, result or exception)``; end
    when the crawler closes its end of the pipe."""
    from indexer.pipeline.workers import die_with_parent  # it imports this module

    die_with_parent(parent)
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except Exception as exc:
            answer = (False, exc)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # the answer does not pickle
            conn.send((False, RuntimeError(f"unpicklable result: {exc!r}"[:300])))
