"""Extraction state kept beside the frontier: host template statistics and explanations.

Two tables of the frontier's SQLite database, created if missing (additive: a frontier
written by an older version gains them on open, an older version ignores them):

- ``template_stats``: one row per host, the statistics of :mod:`indexer.extract.template`
  as JSON, so a later crawl or reindex job starts with each host's template known;
- ``explanations``: one row per indexed URL, why each block was kept or dropped
  (:mod:`indexer.extract.explain`), zlib-compressed JSON lines; not sent to Solr.

Another frontier backend provides the same methods (:class:`ExtractState`'s public ones).
"""

from __future__ import annotations

import sqlite3
import time
import zlib
from collections.abc import Iterable

from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.transaction import Transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS template_stats (
    host TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS explanations (
    url TEXT PRIMARY KEY,
    run INTEGER NOT NULL,
    data BLOB NOT NULL
);
"""


class ExtractState:
    """Template statistics and explanations in a SQLite database (a ``TemplateStore``).

    Args:
        db: an open connection in autocommit mode (the frontier's).
        read_only: do not create the tables (a report reading a running crawl's state).
    """

    def __init__(self, db: Connection, *, read_only: bool = False) -> None:
        self._db = db
        if not read_only:
            db.executescript(_SCHEMA)

    def load_template_stats(self, host: str) -> str | None:
        """The stored template statistics of ``host``, or None."""
        row = self._query("SELECT data FROM template_stats WHERE host=?", (host,))
        return None if row is None else str(row[0])

    def save_template_stats(self, items: Iterable[tuple[str, str]]) -> None:
        """Store ``(host, statistics)`` pairs, replacing earlier ones, in one transaction
        (rows in host order: processes sharing a PostgreSQL frontier lock them in the same
        order, so two saves never deadlock)."""
        now = time.time()
        rows = sorted((host, data, now) for host, data in items)
        with Transaction(self._db):
            self._db.executemany(
                "INSERT INTO template_stats (host, data, updated) VALUES (?, ?, ?) "
                "ON CONFLICT (host) DO UPDATE SET data=excluded.data, updated=excluded.updated",
                rows,
            )

    def save_explanation(self, url: str, run: int, lines: str) -> None:
        """Store why each block of ``url`` was kept or dropped (JSON lines) in run ``run``."""
        self._db.execute(
            "INSERT INTO explanations (url, run, data) VALUES (?, ?, ?) ON CONFLICT (url) "
            "DO UPDATE SET run=excluded.run, data=excluded.data",
            (url, run, zlib.compress(lines.encode("utf-8"))),
        )

    def save_packed_explanation(self, url: str, run: int, packed: bytes) -> None:
        """:meth:`save_explanation` for lines compressed already (zlib of their UTF-8, as
        :func:`indexer.extract.explain.pack` makes them in the page's worker)."""
        self._db.execute(
            "INSERT INTO explanations (url, run, data) VALUES (?, ?, ?) ON CONFLICT (url) "
            "DO UPDATE SET run=excluded.run, data=excluded.data",
            (url, run, packed),
        )

    def explanation(self, url: str) -> str | None:
        """The JSON lines stored for ``url``, or None."""
        row = self._query("SELECT data FROM explanations WHERE url=?", (url,))
        if row is None or not isinstance(row[0], bytes):
            return None
        return zlib.decompress(row[0]).decode("utf-8")

    def _query(self, sql: str, params: tuple[str, ...]) -> tuple[object, ...] | None:
        try:
            row: tuple[object, ...] | None = self._db.execute(sql, params).fetchone()
        except sqlite3.OperationalError:  # a read-only view of state without the tables
            return None
        return row
