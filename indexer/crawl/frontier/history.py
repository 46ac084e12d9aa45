"""Each URL's last outcomes: the history the admin document view shows.

One table of the frontier's SQLite database, added by the schema's version 3 step
(:data:`indexer.crawl.frontier.schema.STEPS`, applied when a frontier is opened for
writing; a read-only view of an older file reads no history): ``url_history`` holds, per
URL, its last :data:`KEEP` outcomes with the run, the time (epoch seconds) and the reason.
The frontier records an entry wherever it stores an outcome
(:meth:`indexer.crawl.frontier.Frontier.finish` and its siblings).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

#: Outcomes kept per URL (issue 22: "the last five").
KEEP = 5

#: The table (part of the frontier's version 3 step).
SCHEMA = """
CREATE TABLE IF NOT EXISTS url_history (
    url TEXT NOT NULL,
    at REAL NOT NULL,
    run INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS url_history_url ON url_history (url, at);
"""
_TRIM = (
    "DELETE FROM url_history WHERE url=? AND rowid NOT IN "
    "(SELECT rowid FROM url_history WHERE url=? ORDER BY at DESC, rowid DESC LIMIT ?)"
)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One stored outcome of a URL.

    Attributes:
        at: when it was recorded (epoch seconds).
        run: the run number it ended in.
        outcome: the outcome (an :class:`indexer.outcomes.Outcome` value or ``http-<code>``).
        reason: its one-line reason ('' when none).
    """

    at: float
    run: int
    outcome: str
    reason: str


class OutcomeHistory:
    """The ``url_history`` table of a frontier.

    Args:
        db: an open connection in autocommit mode (the frontier's), or a read-only one.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def record(self, url: str, run: int, outcome: str, reason: str) -> None:
        """Add an outcome of ``url`` and drop all but its last :data:`KEEP`. The same
        outcome again in the same run (a page re-extracted at the run's end) replaces the
        entry's time and reason instead of adding one."""
        now, reason = time.time(), reason[:300]
        same = self._db.execute(
            "UPDATE url_history SET at=?, reason=? WHERE rowid=(SELECT rowid FROM url_history "
            "WHERE url=? ORDER BY at DESC, rowid DESC LIMIT 1) AND run=? AND outcome=?",
            (now, reason, url, run, outcome),
        )
        if same.rowcount:
            return
        self._db.execute(
            "INSERT INTO url_history (url, at, run, outcome, reason) VALUES (?, ?, ?, ?, ?)",
            (url, now, run, outcome, reason),
        )
        self._db.execute(_TRIM, (url, url, KEEP))

    def record_queued(self, run: int, outcome: str, reason: str, host: str | None) -> None:
        """Add ``outcome`` for every URL still queued in run ``run`` (of ``host``, or all), as
        :meth:`indexer.crawl.frontier.Frontier.finish_queued` is about to store it; older
        entries of those URLs beyond :data:`KEEP` are dropped."""
        where = "state='queued' AND run=?" + ("" if host is None else " AND host=?")
        params: tuple[object, ...] = (run,) if host is None else (run, host)
        self._db.execute(
            "INSERT INTO url_history (url, at, run, outcome, reason) "
            f"SELECT url, ?, ?, ?, ? FROM urls WHERE {where}",
            (time.time(), run, outcome, reason[:300], *params),
        )
        self._db.execute(
            "DELETE FROM url_history WHERE rowid IN (SELECT rowid FROM (SELECT rowid, "
            "ROW_NUMBER() OVER (PARTITION BY url ORDER BY at DESC, rowid DESC) AS n "
            f"FROM url_history WHERE url IN (SELECT url FROM urls WHERE {where})) WHERE n > ?)",
            (*params, KEEP),
        )

    def of(self, url: str) -> list[HistoryEntry]:
        """The stored outcomes of ``url``, newest first (``[]`` for a frontier without the
        table)."""
        try:
            rows = self._db.execute(
                "SELECT at, run, outcome, reason FROM url_history WHERE url=? "
                "ORDER BY at DESC, rowid DESC",
                (url,),
            ).fetchall()
        except sqlite3.OperationalError:  # a read-only view of state without the table
            return []
        return [HistoryEntry(float(a), int(r), str(o), str(s)) for a, r, o, s in rows]
