"""Each URL's last outcomes: the history the admin document view shows.

One table of the frontier's SQLite database and the triggers that fill it, added by the
schema's version 3 step (:data:`indexer.crawl.frontier.schema.STEPS`, applied when a
frontier is opened for writing; a read-only view of an older file reads no history):
``url_history`` holds, per URL, its last :data:`KEEP` outcomes with the run, the time
(epoch seconds) and the reason. Whatever stores a final outcome in ``urls`` (a row that is
or becomes ``done`` with an outcome: finished, recorded, reached by a redirect, ended
with the queue) adds an entry through the triggers, so no writer can forget it; the same
outcome again in the same run (a page re-extracted at the run's end) only refreshes its
entry's time and reason.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from indexer.crawl.frontier.sql import Connection

#: Outcomes kept per URL (issue 22: "the last five").
KEEP = 5

_NOW = "((julianday('now') - 2440587.5) * 86400.0)"  # epoch seconds, any SQLite 3
_ADD = f"""
    UPDATE url_history SET at = {_NOW}, reason = substr(COALESCE(NEW.reason, ''), 1, 300)
    WHERE rowid = (SELECT rowid FROM url_history WHERE url = NEW.url
                   ORDER BY at DESC, rowid DESC LIMIT 1)
      AND run = NEW.run AND outcome = NEW.outcome;
    INSERT INTO url_history (url, at, run, outcome, reason)
    SELECT NEW.url, {_NOW}, NEW.run, NEW.outcome, substr(COALESCE(NEW.reason, ''), 1, 300)
    WHERE NOT EXISTS (SELECT 1 FROM (SELECT run, outcome FROM url_history WHERE url = NEW.url
                      ORDER BY at DESC, rowid DESC LIMIT 1) AS last
                      WHERE last.run = NEW.run AND last.outcome = NEW.outcome);
    DELETE FROM url_history WHERE url = NEW.url AND rowid NOT IN
        (SELECT rowid FROM url_history WHERE url = NEW.url ORDER BY at DESC, rowid DESC
         LIMIT {KEEP});
"""
#: The table and its triggers (part of the frontier's version 3 step).
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS url_history (
    url TEXT NOT NULL,
    at REAL NOT NULL,
    run INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS url_history_url ON url_history (url, at);
CREATE TRIGGER IF NOT EXISTS url_history_update AFTER UPDATE OF state, outcome, reason ON urls
WHEN NEW.state = 'done' AND NEW.outcome IS NOT NULL BEGIN {_ADD} END;
CREATE TRIGGER IF NOT EXISTS url_history_insert AFTER INSERT ON urls
WHEN NEW.state = 'done' AND NEW.outcome IS NOT NULL BEGIN {_ADD} END;
"""


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

    def __init__(self, db: Connection) -> None:
        self._db = db

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
