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
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

from indexer.crawl.frontier.sql import Connection
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

    def __init__(self, db: Connection) -> None:
        self._db = db

    def write(self, progress: Progress) -> None:
        """Store ``progress`` as its run's row (replacing the earlier one)."""
        self._db.execute(
            "INSERT INTO run_progress (run, updated, data) VALUES (?, ?, ?) ON CONFLICT (run) "
            "DO UPDATE SET updated=excluded.updated, data=excluded.data",
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
            progress = parse(data)
            if progress is not None:
                found[progress.run] = progress
        return found

    def earlier(self, run: int) -> Progress | None:
        """What ``run``'s row held before this process wrote it: the part of the run done by
        an earlier process of it (a crawl stopped or killed, then resumed), None when there
        is none. One row a run here; the shared frontier keeps a row a process and answers
        None (:class:`indexer.crawl.frontier.postgres.members.PgProgressStore`)."""
        found = self.all().get(run)
        mine = _owner()
        return found if found is not None and found.owner != mine else None

    def run_outcomes(self, run: int) -> dict[str, int] | None:
        """The outcomes of ``run`` to store at its end: those the frontier holds for the
        URLs of the run (:func:`run_outcomes`: every resumed part of it too, so the run's
        row counts the whole run). None on the shared frontier, whose rows are a process's
        own."""
        return run_outcomes(self._db, run)


def parse(data: str) -> Progress | None:
    """A :class:`Progress` from its JSON (as :meth:`ProgressStore.write` stores it); None
    when it does not parse."""
    try:
        raw = json.loads(data)
        raw["waiting"] = tuple(raw.get("waiting", ()))
        raw["owner"] = tuple(raw.get("owner", ()))
        return Progress(**raw)
    except (TypeError, ValueError):
        return None


def run_outcomes(db: Connection, run: int) -> dict[str, int]:
    """``{outcome: URLs}`` of the URLs that ended in ``run`` (the same SQL on both backends:
    a run queues again every URL it reaches, so ``urls.run`` is its last run)."""
    rows = db.execute(
        "SELECT outcome, COUNT(*) FROM urls WHERE run=? AND state='done' "
        "AND outcome IS NOT NULL GROUP BY outcome ORDER BY outcome",
        (run,),
    )
    return {str(o): int(n) for o, n in rows}


class ProgressWriter:
    """Writes a running crawl's progress at most every :data:`INTERVAL` seconds.

    A run continued after a stop or a ``kill -9`` (``--resume``) counts the whole run: the
    counts the run's row held from the earlier process (:meth:`ProgressStore.earlier`, read
    at the first write) are added to this process's, and the final write
    (:meth:`finish`) stores the outcomes the frontier holds for the run.

    Args:
        store: the frontier's progress table.
        kind: ``crawl`` or ``reindex``.
    """

    def __init__(self, store: ProgressStore, kind: str) -> None:
        self._store = store
        self._kind = kind
        self._last = 0.0  # monotonic time of the last write
        self._last_fetched = 0
        self._base: dict[int, Progress | None] = {}  # run → its earlier part (first write)

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

    def finish(self, run: int, counts: Counts, waiting: Iterable[str], outcomes: Counts) -> None:
        """The write at the run's end (of this process's part): the outcomes stored are
        :meth:`ProgressStore.run_outcomes` (the frontier's for the whole run on SQLite)."""
        whole = self._store.run_outcomes(run)
        own = outcomes if whole is None else whole
        self.write(run, counts, waiting, own, whole_run=whole is not None)

    def write(
        self,
        run: int,
        counts: Counts,
        waiting: Iterable[str],
        outcomes: Counts,
        *,
        whole_run: bool = False,
    ) -> None:
        """Write now; the rate is fetches per second since the last write (0 for the first).
        ``outcomes`` are this process's, added to the run's earlier part, unless
        ``whole_run`` (they count the whole run already)."""
        now = time.monotonic()
        elapsed = now - self._last if self._last else 0.0
        fetched = counts.get("fetched", 0)
        rate = (fetched - self._last_fetched) / elapsed if elapsed > 0 else 0.0
        base = self._earlier(run)
        total = Counter(outcomes)
        if base is not None and not whole_run:
            total.update(base.outcomes)
        self._store.write(
            Progress(
                run,
                self._kind,
                time.time(),
                fetched + (base.fetched if base else 0),
                counts.get("indexed", 0) + (base.indexed if base else 0),
                counts.get("queued", 0),
                counts.get("outbox", 0),
                round(max(rate, 0.0), 2),
                tuple(sorted(waiting)),
                dict(sorted(total.items())),
                _owner(),
            )
        )
        self._last, self._last_fetched = now, fetched

    def _earlier(self, run: int) -> Progress | None:
        """The run's earlier part (:meth:`ProgressStore.earlier`), read once before this
        process's first write; None when another kind of job wrote it (a reindex's failed
        start)."""
        if run not in self._base:
            self._base[run] = self._store.earlier(run)
        base = self._base[run]
        return base if base is not None and base.kind == self._kind else None


def _owner() -> tuple[str, int, int]:
    """The writing process, as the row stores it (:class:`indexer.crawl.owner.Owner`)."""
    owner = current()
    return (owner.host, owner.pid, owner.started)
