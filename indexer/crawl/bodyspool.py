"""A response body as it streams in: in memory while the process's budget has room, else in a
temporary file until its turn comes (:mod:`indexer.crawl.membudget`).

The file is made with :func:`tempfile.TemporaryFile` (in ``$TMPDIR``, unlinked at once, so
nothing is left behind by a crash); a write or read that fails there (a full disk) is a
:class:`~indexer.errors.StorageError` naming the directory: the crawl stops and the URL waits
for ``--resume``, as for any state file.
"""

from __future__ import annotations

import io
import tempfile
from typing import IO

from indexer.crawl.membudget import BODY_COST, Reservation
from indexer.errors import StorageError

#: Bytes of room reserved at a time for a body of unknown size (the excess is given back).
STEP = 256 * 1024


class BodySpool:
    """Collects one body's decoded chunks against ``reservation``.

    Args:
        reservation: the visit's share of the budget; it holds :data:`BODY_COST` × the
            bytes kept in memory (the visit releases it when it ends). None: no budget
            (robots.txt and sitemaps, small and capped), nothing spilled.
        expected: the declared size (``Content-Length``, bytes) or None: a declared body
            that does not fit is streamed to the file from its first byte.
    """

    def __init__(self, reservation: Reservation | None, expected: int | None) -> None:
        self._reservation = reservation
        self._memory: io.BytesIO | None = io.BytesIO()
        self._file: IO[bytes] | None = None
        self.size = 0
        self._covered = 0  # bytes the reservation holds room for
        if expected is not None and expected > 0 and not self._room(expected):
            self._spill()

    @property
    def spilled(self) -> bool:
        """Whether the body went to a temporary file."""
        return self._file is not None

    def write(self, chunk: bytes) -> None:
        """Add ``chunk``; to the file once the budget has no room for it.

        Raises:
            StorageError: the temporary file cannot be written (names its directory).
        """
        self.size += len(chunk)
        short = self.size - self._covered
        if self._memory is not None and short > 0 and not self._room(short):
            self._spill()
        if self._memory is not None:
            self._memory.write(chunk)
            return
        self._write_file(chunk)

    async def value(self) -> bytes:
        """The whole body in memory: at once, or, from the file, once the budget has room
        (waiting in line with the other bodies).

        Raises:
            StorageError: the temporary file cannot be read.
        """
        if self._memory is not None:
            body = self._memory.getvalue()  # shares the buffer: no second copy
            self._memory = None
            if self._reservation is not None:
                self._reservation.trim(BODY_COST * len(body))
            return body
        assert self._reservation is not None  # only a budgeted body spills
        await self._reservation.grow(BODY_COST * self.size)
        try:
            assert self._file is not None
            self._file.seek(0)
            return self._file.read()
        except OSError as exc:
            raise StorageError(tempfile.gettempdir(), f"reading a spooled body: {exc}") from None
        finally:
            self.close()

    def close(self) -> None:
        """Drop the file (the body, if not taken, with it)."""
        if self._file is not None:
            self._file.close()
        self._memory = None

    def _room(self, more: int) -> bool:
        """Reserve room for ``more`` bytes in memory (at least :data:`STEP` at a time, so that
        a body of unknown size does not ask chunk by chunk)."""
        if self._reservation is None:
            return True
        step = max(more, STEP)
        if self._reservation.try_grow(BODY_COST * step):
            self._covered += step
            return True
        return False

    def _spill(self) -> None:
        """Move what is in memory to a temporary file and give the reservation back."""
        assert self._reservation is not None
        memory, self._memory = self._memory, None
        try:
            self._file = tempfile.TemporaryFile(prefix="indexer-body-")  # noqa: SIM115 (kept open)
        except OSError as exc:
            raise StorageError(tempfile.gettempdir(), f"spooling a body: {exc}") from None
        self._reservation.budget.stats.spilled += 1
        if memory is not None and memory.tell():
            self._write_file(memory.getvalue())
        self._reservation.release()
        self._covered = 0

    def _write_file(self, data: bytes) -> None:
        assert self._file is not None
        try:
            self._file.write(data)
        except OSError as exc:
            raise StorageError(tempfile.gettempdir(), f"spooling a body: {exc}") from None
