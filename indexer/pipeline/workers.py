"""The process pool for CPU-bound page work (decode and extract), off the event loop.

``extract.workers`` sizes it: ``auto`` is one process per core; ``0`` is no process at all,
pages are decoded and extracted on one thread of the crawl process (small machines, and the
baseline of a scaling measure); documents beyond HTML always parse in their own worker
processes (:mod:`indexer.pipeline.docworkers`).

``extract.worker_feed = "loop"`` makes them a :class:`~indexer.pipeline.looppool.LoopPool`
(fed and read by the event loop, without the two threads of Python's
``ProcessPoolExecutor`` in the crawl process).
Workers are started with ``spawn`` and ask the Linux kernel to kill them when the crawler
dies (``prctl(PR_SET_PDEATHSIG)``), so a crawler stopped with ``kill -9`` leaves no worker
processes behind; Python's pool does not guarantee that on its own.

Workers ignore SIGINT and SIGTERM: Ctrl-C in a terminal and systemd's or ``timeout``'s
SIGTERM go to the whole process group, and the crawler, not each worker, decides when work
stops (a worker killed by them would fail the pages in flight with ``BrokenProcessPool``).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from indexer.pipeline.looppool import LoopPool

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def page_workers(setting: int | str) -> int:
    """The number of page worker processes for ``extract.workers`` (``auto``: the cores)."""
    if setting == "auto":
        return os.cpu_count() or 1
    return int(setting)


def page_pool(workers: int, feed: str = "threads") -> Executor:
    """A pool of ``workers`` processes that die with this process; for 0, one thread of
    this process (extraction inline, off the event loop).

    Args:
        workers: number of processes (:func:`page_workers`).
        feed: ``extract.worker_feed``: ``threads``, Python's ``ProcessPoolExecutor``;
            ``loop``, :class:`~indexer.pipeline.looppool.LoopPool` (submit from the
            event loop's thread).
    """
    if workers == 0:
        return ThreadPoolExecutor(1, thread_name_prefix="extract")
    if feed == "loop":
        return LoopPool(workers)
    return ProcessPoolExecutor(
        max(1, workers),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def warm_up(pool: Executor, workers: int) -> None:
    """Start the worker processes now rather than on the first page (a worker takes about
    half a second to start and import the extractors); see :func:`stops_blocked`."""
    with stops_blocked():
        for _ in range(workers):
            pool.submit(_ready)


@contextlib.contextmanager
def stops_blocked() -> Iterator[None]:
    """Block SIGINT and SIGTERM in this thread while worker processes are spawned: they
    inherit the blocked mask, so a stop arriving before their initializer ignores the
    signals (:func:`die_with_parent`) cannot kill them; this process receives it when the
    mask is restored on exit."""
    stops = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _ready() -> bool:
    import indexer.pipeline.page  # noqa: F401  (the import is the warm-up)

    return True


def die_with_parent(parent: int) -> None:
    """Worker initializer: ignore SIGINT and SIGTERM (the crawler decides when work stops);
    get SIGKILL when the crawler (pid ``parent``) exits, however it exits; exit at once if
    it is already gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the crawler died before prctl took effect
        os._exit(1)
