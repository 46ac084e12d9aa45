"""Filtered listings of a frontier's URLs for the admin views: one page at a time, or all.

Reads the ``urls`` table (read-only connections too). A URL without a final outcome yet
lists as its state (``queued`` or ``fetching``), as in ``indexer report``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from indexer.crawl.frontier.sql import Connection

_OUTCOME = "CASE WHEN state='done' THEN outcome ELSE state END"
_ALL = 2**63 - 1  # LIMIT for "no limit" in SQLite and PostgreSQL alike


@dataclass(frozen=True, slots=True)
class UrlFilter:
    """Which URLs to list; an empty field does not filter.

    Attributes:
        outcome: this outcome only (or ``queued`` / ``fetching``).
        host: this host only (``127.0.0.1:8080``).
        q: URLs or reasons containing this text (case-insensitive for ASCII, SQLite ``LIKE``
            with ``%`` and ``_`` taken literally).
    """

    outcome: str = ""
    host: str = ""
    q: str = ""

    def where(self) -> tuple[str, tuple[str, ...]]:
        """The SQL condition and its parameters."""
        terms, params = ["1=1"], []
        if self.outcome:
            terms.append(f"{_OUTCOME}=?")
            params.append(self.outcome)
        if self.host:
            terms.append("host=?")
            params.append(self.host)
        if self.q:
            pattern = "%" + self.q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            terms.append(  # lower(): SQLite's LIKE ignores ASCII case, PostgreSQL's does not
                "(lower(url) LIKE lower(?) ESCAPE '\\' "
                "OR lower(COALESCE(reason, '')) LIKE lower(?) ESCAPE '\\')"
            )
            params += [pattern + "%", pattern + "%"]
        return " AND ".join(terms), tuple(params)


@dataclass(frozen=True, slots=True)
class UrlRow:
    """One listed URL.

    Attributes:
        url, host: the URL and its host.
        outcome: its outcome or state.
        reason: the stored reason ('' when none).
        updated: when its row last changed (epoch seconds), None when never fetched.
    """

    url: str
    host: str
    outcome: str
    reason: str
    updated: float | None


class UrlBrowser:
    """Listings of one frontier connection's ``urls`` table.

    Args:
        db: an open connection (read-only is enough).
    """

    def __init__(self, db: Connection) -> None:
        self._db = db

    def count(self, flt: UrlFilter) -> int:
        """How many URLs ``flt`` lets through."""
        where, params = flt.where()
        row = self._db.execute(f"SELECT COUNT(*) FROM urls WHERE {where}", params).fetchone()
        return int(row[0])

    def rows(self, flt: UrlFilter, offset: int = 0, limit: int | None = None) -> Iterator[UrlRow]:
        """The URLs ``flt`` lets through, by URL; ``limit`` None: all from ``offset``."""
        where, params = flt.where()
        sql = (
            f"SELECT url, host, {_OUTCOME}, COALESCE(reason, ''), updated FROM urls "
            f"WHERE {where} ORDER BY url LIMIT ? OFFSET ?"
        )
        cursor = self._db.execute(sql, (*params, _ALL if limit is None else limit, offset))
        for url, host, outcome, reason, updated in cursor:
            at = None if updated is None else float(updated)
            yield UrlRow(url, host, outcome or "", reason, at)

    def rows_after(self, flt: UrlFilter, after: str, limit: int) -> list[UrlRow]:
        """Up to ``limit`` URLs ``flt`` lets through that sort after ``after`` (keyset
        paging: each batch costs the same however far into the list)."""
        where, params = flt.where()
        sql = (
            f"SELECT url, host, {_OUTCOME}, COALESCE(reason, ''), updated FROM urls "
            f"WHERE {where} AND url > ? ORDER BY url LIMIT ?"
        )
        rows = self._db.execute(sql, (*params, after, limit))
        return [UrlRow(u, h, o or "", r, None if t is None else float(t)) for u, h, o, r, t in rows]

    def choices(self) -> tuple[list[str], list[str]]:
        """The outcomes and the hosts present, each sorted (the filter's choices)."""
        rows = self._db.execute(f"SELECT DISTINCT {_OUTCOME} AS o FROM urls ORDER BY o")
        outcomes = [r[0] for r in rows if r[0]]
        hosts = [r[0] for r in self._db.execute("SELECT DISTINCT host FROM urls ORDER BY host")]
        return outcomes, hosts
