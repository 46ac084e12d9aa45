"""SQLite errors of the state files, translated into the project's tree with the file's name.

SQLite reports a full disk as ``SQLITE_FULL``, a damaged file as ``SQLITE_CORRUPT`` or
``SQLITE_NOTADB`` (result codes, https://sqlite.org/rescode.html). The connections that
:class:`indexer.crawl.datadir.DataDir` opens are :class:`StateConnection`, whose
statements raise :class:`~indexer.errors.StorageError` (exit 1: free space, then
``--resume``) or :class:`~indexer.errors.StateError` (exit 2: the file is broken) instead,
each naming the file. Other SQLite errors (a bug in a statement) pass unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from indexer.errors import IndexerError, StateError, StorageError

_FULL = frozenset({sqlite3.SQLITE_FULL})
_IO = frozenset({sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN})
_BROKEN = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def translate(exc: sqlite3.Error, path: Path, remedy: str = "") -> IndexerError | sqlite3.Error:
    """The project error for a SQLite error on the file ``path`` (or ``exc`` itself).

    Args:
        exc: the error raised by :mod:`sqlite3`.
        path: the state file the statement ran on.
        remedy: the way out named for a broken file.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in _FULL:
        return StorageError(path, f"cannot write: {exc} (free space, then run again; --resume)")
    if primary in _BROKEN:
        return StateError(path, f"malformed ({exc}){'; ' + remedy if remedy else ''}")
    if primary == sqlite3.SQLITE_IOERR:  # a write past a full disk or a file size limit
        return StorageError(path, f"cannot read or write: {exc} (disk full or file too large?)")
    if primary in _IO:
        return StorageError(path, f"cannot read or write: {exc}")
    return exc


class StateCursor(sqlite3.Cursor):
    """A cursor whose errors are translated (see :func:`translate`)."""

    state_path: Path = Path()
    remedy: str = ""

    def execute(self, sql: str, parameters: Any = (), /) -> StateCursor:
        try:
            super().execute(sql, parameters)
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None
        return self

    def executemany(self, sql: str, seq: Iterable[Any], /) -> StateCursor:
        try:
            super().executemany(sql, seq)
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None
        return self

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None


class StateConnection(sqlite3.Connection):
    """A connection to a state file whose statements translate their errors.

    Attributes:
        state_path: the file, named in translated errors.
        remedy: the way out named when the file turns out to be broken.
    """

    state_path: Path = Path()
    remedy: str = ""

    def state_cursor(self) -> StateCursor:
        """A new cursor whose errors are translated."""
        cur = super().cursor(StateCursor)
        assert isinstance(cur, StateCursor)
        cur.state_path = self.state_path
        cur.remedy = self.remedy
        return cur

    def execute(self, sql: str, parameters: Any = (), /) -> StateCursor:
        return self.state_cursor().execute(sql, parameters)

    def executemany(self, sql: str, seq: Iterable[Any], /) -> StateCursor:
        return self.state_cursor().executemany(sql, seq)

    def executescript(self, script: str, /) -> StateCursor:
        cur = self.state_cursor()
        try:
            cur.executescript(script)
        except sqlite3.Error as exc:
            raise translate(exc, self.state_path, self.remedy) from None
        return cur
