"""What the Tika service is given at once: documents within its heap, one large at a time.

A JVM parsing several large Office files at once runs out of heap (``-XX:+ExitOnOutOfMemoryError``
ends it) although each parses alone. So the documents in the service at once may add up to
:data:`HEAP_SHARE` of its heap (``extract.tika_heap``): Apache POI holds a 97–2003 file's
whole OLE2 container and the objects it builds from it, a few times the file's size. A
document larger than that share is sent alone, and so is a document asked again after a
JVM died under it (:mod:`indexer.pipeline.tikadocs`): whether it or its neighbours took
the heap is then known by its own answer. Admission is first come, first served, so a
large document is not passed over for ever by small ones.

Used from the Tika threads; a wait ends when the crawl stops
(:class:`~indexer.pipeline.tikacheck.Stopped`).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import deque
from collections.abc import Iterator

from indexer.pipeline.tikacheck import Stopped

#: The share of the JVM's heap that the documents in the service may add up to (bytes).
HEAP_SHARE = 0.25
#: Seconds between looks at the stop while waiting.
POLL = 0.1
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def heap_bytes(heap: str) -> int:
    """``extract.tika_heap`` (``-Xmx`` syntax: ``512m``, ``2g``, ``1048576``) in bytes.

    Raises:
        ValueError: not in that syntax.
    """
    match = re.fullmatch(r"([1-9][0-9]*)([kmgKMG]?)", heap)
    if match is None:
        raise ValueError(f"not a heap size: {heap!r}")
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


class TikaLoad:
    """Admits documents to the service by size.

    Args:
        capacity: bytes of documents in the service at once (``HEAP_SHARE`` × heap).
        stop: set when the crawl stops; a waiting document then raises :class:`Stopped`.
    """

    def __init__(self, capacity: int, stop: threading.Event) -> None:
        self.capacity = max(1, capacity)
        self._stop = stop
        self._cond = threading.Condition()
        self._line: deque[object] = deque()
        self.in_service = 0  #: bytes of documents in the service now
        self.documents = 0  #: documents in the service now
        self.peak = 0  #: the most bytes in the service at once

    @contextlib.contextmanager
    def admit(self, size: int, *, alone: bool = False) -> Iterator[None]:
        """Hold a place for a document of ``size`` bytes while the block runs.

        A document fits when the bytes in the service stay within the capacity; one larger
        than the capacity, or ``alone``, waits until the service holds nothing.

        Raises:
            Stopped: the crawl stopped first.
        """
        cost = self.capacity if alone else max(0, size)
        ticket = object()
        with self._cond:
            self._line.append(ticket)
            try:
                while not (self._line[0] is ticket and self._fits(cost)):
                    if self._stop.is_set():
                        raise Stopped
                    self._cond.wait(POLL)
            finally:
                self._line.remove(ticket)
                self._cond.notify_all()
            self.in_service += cost
            self.documents += 1
            self.peak = max(self.peak, self.in_service)
        try:
            yield
        finally:
            with self._cond:
                self.in_service -= cost
                self.documents -= 1
                self._cond.notify_all()

    def _fits(self, cost: int) -> bool:
        return self.documents == 0 or self.in_service + cost <= self.capacity
