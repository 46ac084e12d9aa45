"""Reconciliation of a reindex job with Solr: grace runs for missed documents, the guard.

1. Grace: documents of the crawled hosts whose URL ended the run with a deleting outcome
   (:func:`indexer.pipeline.grace.counts_as_missed`: a 404, ``login-required``, …) count
   one missed run (:class:`MissedRuns`, ``missed.sqlite3`` in the data directory, or the
   ``missed`` table of a shared PostgreSQL frontier, :func:`missed_runs`); after
   ``reindex.delete_grace_runs`` missed runs in a row they are planned for deletion. A
   document reached resets its count; one not fetched (limits) or failing with a ``keep``
   outcome (network, 5xx, site-wide duplicate) leaves it as it was: only answers confirm a
   page gone.
   Only documents inside the job's scope count, so jobs that crawl different parts of one
   host leave each other's documents alone.
2. Guard: when the planned deletes of a host exceed ``reindex.max_delete_share`` of its
   documents in Solr, nothing at all is deleted (unless forced) and the job says why.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.crawl.datadir import DataDir, StateKind, backup, open_state
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.transaction import Transaction
from indexer.pipeline.grace import counts_as_missed
from indexer.settings import ReindexSettings, Settings

if TYPE_CHECKING:
    from indexer.crawl.frontier.postgres.store import PgFrontier

log = logging.getLogger("indexer")
#: The run lease's task name of the missed-ids step.
RECONCILE = "reconcile"
#: The missed-runs state file (version 1: the one table, as first released).
MISSED = StateKind(
    name="missed.sqlite3",
    version=1,
    tables={"missed": ("id", "runs")},
    schema="CREATE TABLE IF NOT EXISTS missed (id TEXT PRIMARY KEY, runs INTEGER)",
    remedy="delete it (the missed-run counts of reindex.delete_grace_runs then start anew)",
)


@dataclass(frozen=True)
class Refusal:
    """The guard's refusal for one host: ``delete`` planned of ``total`` documents."""

    host: str
    delete: int
    total: int
    share: float

    @property
    def message(self) -> str:
        """One line naming the host, the counts and the setting."""
        return (
            f"{self.host}: {self.delete} of {self.total} documents would be deleted "
            f"({self.delete / self.total:.0%} > reindex.max_delete_share={self.share:.0%})"
        )


class MissedRuns:
    """Counts, per document id, the reindex runs in a row that did not reach it.

    Args:
        path: database file under the data directory (created when missing).
        shared: instead, the connection of a shared frontier whose ``missed`` table holds
            the counts (PostgreSQL, :mod:`indexer.crawl.frontier.shared`; not closed here).

    Raises:
        StateError: the file is broken, foreign or newer.
    """

    def __init__(self, path: Path | None = None, *, shared: Connection | None = None) -> None:
        self._file: sqlite3.Connection | None = None
        if shared is not None:
            self._db: Connection = shared
            return
        assert path is not None, "a path or a shared connection"
        self._file = self._db = open_state(path, MISSED, create=True)

    def close(self) -> None:
        """Close the database (a file of its own; a shared connection stays open)."""
        if self._file is not None:
            self._file.close()

    def update(self, reached: set[str], in_solr: list[str]) -> dict[str, int]:
        """Reset reached ids, count one more miss for the others; returns their counts."""
        counts: dict[str, int] = {}
        with Transaction(self._db):
            for doc_id in in_solr:
                if doc_id in reached:
                    self._db.execute("DELETE FROM missed WHERE id=?", (doc_id,))
                    continue
                row = self._db.execute(
                    "INSERT INTO missed (id, runs) VALUES (?, 1) ON CONFLICT(id) DO UPDATE "
                    "SET runs = missed.runs + 1 RETURNING runs",
                    (doc_id,),
                ).fetchone()
                counts[doc_id] = int(row[0])
        return counts

    def forget(self, ids: list[str]) -> None:
        """Drop ids that were deleted."""
        self._db.executemany("DELETE FROM missed WHERE id=?", [(i,) for i in ids])

    def copy_to(self, target: Path) -> None:
        """Write a consistent copy of the counts (a file of its own) to ``target`` (dry runs)."""
        assert self._file is not None, "a dry run copies the counts of a data directory"
        backup(self._file, target)


def missed_runs(frontier: Frontier, data_dir: Path) -> MissedRuns:
    """The grace counters of ``frontier``'s crawl: in its shared database (PostgreSQL: every
    process and machine counts in one table), else ``missed.sqlite3`` of ``data_dir``.

    Raises:
        StateError: a broken, foreign or newer ``missed.sqlite3``.
    """
    if frontier.shared is not None:
        return MissedRuns(shared=frontier.shared.db)
    return MissedRuns(DataDir(data_dir).missed)


def reconcile(
    settings: Settings,
    frontier: Frontier,
    data_dir: Path,
    in_index: dict[str, list[str]],
    planned: dict[str, set[str]],
    in_scope: Callable[[str], bool],
) -> dict[str, int]:
    """Count this run's misses; add ids missed for ``delete_grace_runs`` runs to ``planned``.

    Args:
        settings: ``reindex.delete_grace_runs`` is read.
        frontier: the run's frontier (which ids it reached per host).
        data_dir: where ``missed.sqlite3`` lives (a shared frontier keeps the counts).
        in_index: the document ids Solr holds, by host.
        planned: planned deletes by host, updated in place.
        in_scope: whether an id is inside this job's scope (``crawl.include`` /
            ``crawl.exclude``); ids outside it are neither counted nor deleted.

    Returns:
        the number of in-scope documents Solr holds, by host (the guard's denominators).

    On the shared frontier the counting runs once per run, by the process that takes the
    run's lease on it first (:meth:`~indexer.crawl.frontier.postgres.store.PgFrontier.
    run_task`); any other process of the run gets the totals only.
    """
    scoped = {host: [i for i in ids if in_scope(i)] for host, ids in in_index.items()}
    totals = {host: len(ids) for host, ids in scoped.items()}
    shared = _shared(settings, frontier)
    if shared is not None and not shared.run_task(RECONCILE):
        log.info("missed ids: counted by another process of run %d", frontier.run)
        return totals
    _count_missed(settings.reindex, frontier, data_dir, scoped, planned)
    if shared is not None:
        shared.run_task_done(RECONCILE)
    return totals


def _count_missed(
    reindex: ReindexSettings,
    frontier: Frontier,
    data_dir: Path,
    scoped: dict[str, list[str]],
    planned: dict[str, set[str]],
) -> None:
    """One more missed run for the in-scope ids Solr holds that the run judged gone, reset
    for those reached; ids at ``reindex.delete_grace_runs`` runs join ``planned``."""
    grace = reindex.delete_grace_runs
    missed = missed_runs(frontier, data_dir)
    try:
        for host, in_solr in scoped.items():
            reached = frontier.reached_in_run(host)
            ended = frontier.outcomes_in_run(host)
            judged = [i for i in in_solr if i in reached or counts_as_missed(ended.get(i), reindex)]
            counts = missed.update(reached, judged)
            planned[host].update(i for i, runs in counts.items() if runs >= grace)
    finally:
        missed.close()


def _shared(settings: Settings, frontier: Frontier) -> PgFrontier | None:
    """The frontier when it is the shared one (``frontier.url``), else None."""
    if not settings.frontier.url:
        return None
    from indexer.crawl.frontier.postgres.store import PgFrontier  # psycopg only when asked

    return frontier if isinstance(frontier, PgFrontier) else None


def guard(
    settings: Settings, deletes: dict[str, list[str]], totals: dict[str, int]
) -> list[Refusal]:
    """A refusal for every host whose planned deletes (404s after grace, 410s, reconciled
    ids) exceed ``reindex.max_delete_share`` of its documents.

    Args:
        settings: ``reindex.max_delete_share`` (a fraction, 0-1) is read.
        deletes: planned deletes by host.
        totals: in-scope documents in Solr by host (a host without any is never refused).

    Returns:
        refusals sorted by host; empty when every host is within the share.
    """
    share = settings.reindex.max_delete_share
    refused = []
    for host, ids in sorted(deletes.items()):
        total = totals.get(host, 0)
        if total and len(ids) / total > share:
            refused.append(Refusal(host, len(ids), total, share))
    return refused


def forget(data_dir: Path, frontier: Frontier, ids: list[str]) -> None:
    """Drop deleted ids from the frontier and the missed-runs counts."""
    frontier.forget(ids)
    missed = missed_runs(frontier, data_dir)
    try:
        missed.forget(ids)
    finally:
        missed.close()
