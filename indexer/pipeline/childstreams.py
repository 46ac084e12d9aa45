"""The parent's side of its children's stderr in ``indexer crawl --processes N``.

Each child's stderr is a pipe the parent reads in a thread of its own
(:class:`ChildStream`): a progress line (:data:`~indexer.pipeline.childside.PROGRESS_MARK`
+ JSON, :class:`~indexer.pipeline.childside.ChildProgress`) replaces the child's last
counts; every other line (the warnings and errors a ``-q`` child logs, a traceback) is
written to the parent's stderr prefixed with the child's number (``[p1] …``).
:class:`LaunchProgress` adds the children's last counts up into the one progress line a
single crawl shows (:func:`indexer.cli.progress.progress_line`): fetched, indexed, retries
and outcomes summed, the queue (shared by all) the largest last seen, Retry-After holds
merged.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import IO, Any, TextIO

from indexer.pipeline.childside import PROGRESS_MARK
from indexer.report import RunStats

#: Characters of a child's stderr line passed on (the rest is cut).
MAX_LINE = 4000


class ChildStream:
    """Reads one child's stderr until it closes (a daemon thread).

    Args:
        index: the child's number (its prefix, ``[pK]``).
        pipe: the child's stderr, read as bytes.
        out: where other lines go (the parent's stderr).
        lock: taken around each write to ``out`` (several children write).
    """

    def __init__(self, index: int, pipe: IO[bytes], out: TextIO, lock: threading.Lock) -> None:
        self.index = index
        self.last: dict[str, Any] | None = None
        self._pipe, self._out, self._lock = pipe, out, lock
        self._thread = threading.Thread(target=self._read, name=f"child-{index}", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in self._pipe:
                self._line(raw.decode("utf-8", "replace").rstrip("\r\n")[:MAX_LINE])
        with contextlib.suppress(OSError):
            self._pipe.close()

    def _line(self, line: str) -> None:
        if line.startswith(PROGRESS_MARK):
            with contextlib.suppress(ValueError):
                data = json.loads(line[len(PROGRESS_MARK) :])
                if isinstance(data, dict):
                    self.last = data
            return
        with self._lock, contextlib.suppress(OSError, ValueError):
            print(f"[p{self.index}] {line}", file=self._out, flush=True)

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` s for the rest of the child's output (it ended)."""
        self._thread.join(timeout)


def added_up(counts: Iterable[dict[str, Any]]) -> tuple[RunStats, int]:
    """The children's last counts as one :class:`RunStats` and the queue length."""
    stats, queued = RunStats(), 0
    for one in counts:
        stats.fetched += int(one.get("fetched", 0))
        stats.indexed += int(one.get("indexed", 0))
        stats.retries.update(Counter(one.get("retries", {})))
        stats.outcomes.update(Counter(one.get("outcomes", {})))
        for host, until in dict(one.get("waiting", {})).items():
            stats.waiting[host] = max(float(until), stats.waiting.get(host, 0.0))
        queued = max(queued, int(one.get("queued", 0)))
    return stats, queued


class LaunchProgress:
    """The parent's progress: the children's counts added up, handed to ``show`` (a
    :meth:`indexer.cli.progress.ProgressDisplay.update`) by :meth:`tick`.

    Args:
        show: called with the added-up stats and the queue length.
        every: seconds between two calls of ``show`` (:meth:`tick` may be called often).
    """

    def __init__(
        self, show: Callable[[RunStats, int], None] | None = None, every: float = 1.0
    ) -> None:
        self.lock = threading.Lock()
        self._show = show
        self._every = every
        self._shown = -math.inf  # monotonic time of the last show
        self._streams: dict[int, ChildStream] = {}  # by child pid
        self._ended: list[dict[str, Any]] = []  # the last counts of the children that ended

    def follow(self, index: int, pid: int, pipe: IO[bytes] | None) -> None:
        """Read child ``index``'s stderr (``pipe``; None: not piped)."""
        if pipe is not None:
            self._streams[pid] = ChildStream(index, pipe, sys.stderr, self.lock)

    def ended(self, pid: int) -> None:
        """Child ``pid`` ended: its last counts stay in the sum (a replacement counts only
        its own pages)."""
        stream = self._streams.pop(pid, None)
        if stream is not None:
            stream.join(2.0)
            if stream.last is not None:
                self._ended.append(stream.last)

    def tick(self) -> None:
        """Show the added-up counts, at most once every ``every`` seconds (nothing before
        any child reported)."""
        if self._show is None or time.monotonic() - self._shown < self._every:
            return
        live = [s.last for s in self._streams.values() if s.last is not None]
        counts = self._ended + live
        if counts:
            self._shown = time.monotonic()
            stats, queued = added_up(counts)
            with self.lock:
                self._show(stats, queued)
