"""The database connection the frontier's queries run on, as a protocol: SQLite or PostgreSQL.

The frontier's modules (:mod:`.store`, :mod:`.recrawl`, :mod:`.tombstones`,
:mod:`.extract_state`, :mod:`.progress`, :mod:`.history`, :mod:`.browse`,
:mod:`.transaction`) write their SQL once, in the subset both databases understand (``?``
and ``:name`` placeholders, ``INSERT … ON CONFLICT … DO UPDATE``, ``RETURNING``), and run it
on a :class:`Connection`: a :class:`sqlite3.Connection` in autocommit mode, or the
PostgreSQL adapter :class:`indexer.crawl.frontier.postgres.connection.PgConnection`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol


class Cursor(Protocol):
    """The result of one statement (DB-API 2.0 cursor subset)."""

    @property
    def rowcount(self) -> int:
        """Rows changed by an INSERT, UPDATE or DELETE."""
        ...

    def fetchone(self) -> Any:
        """The next row (a tuple), or None."""
        ...

    def fetchall(self) -> list[Any]:
        """The remaining rows."""
        ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection in autocommit mode (each statement its own transaction unless ``BEGIN``
    opened one; :class:`indexer.crawl.frontier.transaction.Transaction`)."""

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
        ...

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor:
        """Run one statement with ``?`` or ``:name`` parameters."""
        ...

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Cursor:
        """Run one statement once per parameter row."""
        ...

    def executescript(self, sql: str, /) -> Any:
        """Run statements without parameters."""
        ...

    def close(self) -> None:
        """Close the connection."""
        ...
