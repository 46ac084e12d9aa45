"""Run records in the frontier: the columns that store a run's phase, exit code and reason.

The ``runs`` table of ``frontier.sqlite3`` started with ``id``, ``started`` and ``finished``;
the phase columns are added in place when a frontier is opened (``ALTER TABLE ... ADD
COLUMN``), so older state files keep working and read as runs without a stored phase. The
phases themselves are named in :mod:`indexer.pipeline.phases`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from indexer.crawl.frontier.sql import Connection

#: Columns added to ``runs`` after its first version, with their SQLite types.
RUN_COLUMNS = {"phase": "TEXT", "exit_code": "INTEGER", "reason": "TEXT"}
#: Phases that close a run: a later ``--resume`` starts a new one.
CLOSING_PHASES = frozenset({"finished", "refused"})


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One run as stored.

    Attributes:
        id: the run number.
        phase: its phase (None for a run from before phases were stored).
        exit_code: set when the run ended, else None.
        reason: one line ('' when none).
        finished: the run is closed (``finished`` or ``refused``).
    """

    id: int
    phase: str | None
    exit_code: int | None
    reason: str
    finished: bool


def add_run_columns(db: sqlite3.Connection) -> None:
    """Add the missing :data:`RUN_COLUMNS` to ``runs`` (a writable connection)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    for name, kind in RUN_COLUMNS.items():
        if name not in have:
            db.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")


def read_runs(db: Connection) -> list[RunRecord]:
    """Every run record, oldest first (read-only connections too: missing columns read as
    None)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    cols = ", ".join(c if c in have else "NULL" for c in RUN_COLUMNS)
    rows = db.execute(f"SELECT id, {cols}, finished IS NOT NULL FROM runs ORDER BY id")
    return [RunRecord(int(i), p, e, r or "", bool(f)) for i, p, e, r, f in rows]
