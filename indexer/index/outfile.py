"""The ``--out`` JSON-lines file: one document per line, written before its URL is done.

A write error (a full disk, an I/O error) raises :class:`~indexer.errors.StorageError`
naming the file, which stops the crawl at once: the page whose line failed is not marked
done, so ``--resume`` fetches it again. Resuming first cuts a partial last line (what a
crash or a full disk leaves), so the file stays one JSON document per line.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import IO, Any

from indexer.errors import StorageError

_CHUNK = 65536


class OutFile:
    """An open ``--out`` file.

    Args:
        path: the file.
        append: continue it (``--resume``, after cutting a partial last line) instead of
            writing it anew.

    Raises:
        StorageError: it cannot be opened or cut.
    """

    def __init__(self, path: Path, *, append: bool) -> None:
        self.path = path
        self.cut_bytes = 0
        try:
            if append and path.exists():
                self.cut_bytes = cut_partial_line(path)
            self._file: IO[str] = path.open("a" if append else "w", encoding="utf-8")
        except OSError as exc:
            raise _error(path, exc) from None

    def write(self, record: dict[str, Any]) -> None:
        """Write ``record`` as one JSON line and flush it to the OS.

        Raises:
            StorageError: the line could not be written in full.
        """
        try:
            self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._file.flush()
        except OSError as exc:
            raise _error(self.path, exc) from None

    def close(self) -> None:
        """Close the file; an error flushing what is left is not raised again."""
        with contextlib.suppress(OSError):  # the failed write was reported already
            self._file.close()


def cut_partial_line(path: Path) -> int:
    """Cut ``path`` after its last newline; returns how many bytes were removed.

    Reads backwards in 64 KiB steps, so a large file is not read whole.
    """
    size = path.stat().st_size
    with path.open("rb+") as f:
        end = size
        while end > 0:
            start = max(0, end - _CHUNK)
            f.seek(start)
            block = f.read(end - start)
            at = block.rfind(b"\n")
            if at >= 0:
                keep = start + at + 1
                break
            end = start
        else:
            keep = 0
        if keep < size:
            f.truncate(keep)
            os.fsync(f.fileno())
    return size - keep


def _error(path: Path, exc: OSError) -> StorageError:
    return StorageError(path, f"cannot write --out: {exc.strerror or exc}")
