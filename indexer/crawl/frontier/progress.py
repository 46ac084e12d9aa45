"""A running crawl's progress, written into the crawl state so that another process (the
admin views of ``indexer serve``) can show it.

One table of the frontier's SQLite database, added by the schema's version 3 step
(:data:`indexer.crawl.frontier.schema.STEPS`): ``run_progress`` holds one row per run, its latest
:class:`Progress` as JSON. A crawl writes it at most every :data:`INTERVAL` seconds while
it dispatches, and once more when the run ends, so the row of an ended run holds its final
counts per outcome.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

from indexer.crawl.owner import current

Counts = Mapping[str, int]
#: Seconds between two progress writes of a running crawl (issue 22: "every 2 seconds").
INTERVAL = 2.0

#: The table (part of the frontier's version 3 step).
SCHEMA = """
CREATE TABLE IF NOT EXISTS run_progress (
    run INTEGER PRIMARY KEY,
    updated REAL NOT NULL,
    data TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a run stands.

    Attributes:
        run: the run number.
        kind: ``crawl`` or ``reindex``.
        updated: when it was written (epoch seconds).
        fetched: HTTP fetches made so far (attempts included).
        indexed: documents acknowledged by Solr (or written to ``--out``).
        queued: URLs queued or being fetched.
        outbox: changes waiting in the outbox for Solr.
        rate: fetches per second since the previous write.
        waiting: hosts held by a Retry-After right now.
        outcomes: final outcomes so far, ``{"indexed": 12, "http-404": 1}``.
        owner: ``[host, pid, start ticks]`` of the writing process
            (:mod:`indexer.crawl.owner`; empty in rows of older versions).
    """

    run: int
    kind: str
    updated: float
    fetched: int = 0
    indexed: int = 0
    queued: int = 0
    outbox: int = 0
    rate: float = 0.0
    waiting: tuple[str, ...] = ()
    outcomes: dict[str, int] = field(default_factory=dict)
    owner: tuple[str, int, int] | tuple[()] = ()


class ProgressStore:
    """The ``run_progress`` table of a frontier.

    Args:
        db: an open connection in autocommit mode (the frontier's), or a read-only one.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def write(self, progress: Progress) -> None:
        """Store ``progress`` as its run's row (replacing the earlier one)."""
        self._db.execute(
            "INSERT OR REPLACE INTO run_progress (run, updated, data) VALUES (?, ?, ?)",
            (progress.run, progress.updated, json.dumps(asdict(progress), ensure_ascii=False)),
        )

    def all(self) -> dict[int, Progress]:
        """``{run: progress}`` of every run that wrote one (``{}`` for a frontier without
        the table; a row that does not parse is left out)."""
        try:
            rows = self._db.execute("SELECT data FROM run_progress").fetchall()
        except sqlite3.OperationalError:  # a read-only view of state without the table
            return {}
        found = {}
        for (data,) in rows:
            try:
                raw = json.loads(data)
                raw["waiting"] = tuple(raw.get("waiting", ()))
                raw["owner"] = tuple(raw.get("owner", ()))
                progress = Progress(**raw)
            except (TypeError, ValueError):
                continue
            found[progress.run] = progress
        return found


class ProgressWriter:
    """Writes a running crawl's progress at most every :data:`INTERVAL` seconds.

    Args:
        store: the frontier's progress table.
        kind: ``crawl`` or ``reindex``.
    """

    def __init__(self, store: ProgressStore, kind: str) -> None:
        self._store = store
        self._kind = kind
        self._last = 0.0  # monotonic time of the last write
        self._last_fetched = 0

    def update(self, run: int, counts: Counts, waiting: Iterable[str], outcomes: Counts) -> bool:
        """Write when :data:`INTERVAL` has passed since the last write; True when written.

        Args:
            run: the run number.
            counts: ``fetched``, ``indexed``, ``queued``, ``outbox`` (a missing one is 0).
            waiting: hosts held by a Retry-After.
            outcomes: ``{outcome: count}`` so far.
        """
        if time.monotonic() - self._last < INTERVAL:
            return False
        self.write(run, counts, waiting, outcomes)
        return True

    def write(self, run: int, counts: Counts, waiting: Iterable[str], outcomes: Counts) -> None:
        """Write now (also at the run's end); the rate is fetches per second since the last
        write (0 for the first)."""
        now = time.monotonic()
        elapsed = now - self._last if self._last else 0.0
        fetched = counts.get("fetched", 0)
        rate = (fetched - self._last_fetched) / elapsed if elapsed > 0 else 0.0
        get = counts.get
        self._store.write(
            Progress(
                run,
                self._kind,
                time.time(),
                fetched,
                get("indexed", 0),
                get("queued", 0),
                get("outbox", 0),
                round(max(rate, 0.0), 2),
                tuple(sorted(waiting)),
                dict(outcomes),
                _owner(),
            )
        )
        self._last, self._last_fetched = now, fetched


def _owner() -> tuple[str, int, int]:
    """The writing process, as the row stores it (:class:`indexer.crawl.owner.Owner`)."""
    owner = current()
    return (owner.host, owner.pid, owner.started)
