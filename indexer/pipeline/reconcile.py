"""Reconciliation of a reindex job with Solr: grace runs for missed documents, the guard.

1. Grace: documents of the crawled hosts that the run did not reach count one missed run
   (:class:`MissedRuns`, ``missed.sqlite3`` in the data directory); after
   ``reindex.delete_grace_runs`` missed runs in a row they are planned for deletion.
   Only documents inside the job's scope count, so jobs that crawl different parts of one
   host leave each other's documents alone.
2. Guard: when the planned deletes of a host exceed ``reindex.max_delete_share`` of its
   documents in Solr, nothing at all is deleted (unless forced) and the job says why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from indexer.crawl.datadir import DataDir, StateKind, backup, open_state
from indexer.crawl.frontier import Frontier
from indexer.settings import Settings

#: The missed-runs state file (version 1: the one table, as first released).
MISSED = StateKind(
    name="missed.sqlite3",
    version=1,
    tables={"missed": ("id", "runs")},
    schema="CREATE TABLE IF NOT EXISTS missed (id TEXT PRIMARY KEY, runs INTEGER)",
    remedy="delete it (the missed-run counts of reindex.delete_grace_runs then start anew)",
)


class MissedRuns:
    """Counts, per document id, the reindex runs in a row that did not reach it (SQLite).

    Args:
        path: database file under the data directory (created when missing).

    Raises:
        StateError: the file is broken, foreign or newer.
    """

    def __init__(self, path: Path) -> None:
        self._db: sqlite3.Connection = open_state(path, MISSED, create=True)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def update(self, reached: set[str], in_solr: list[str]) -> dict[str, int]:
        """Reset reached ids, count one more miss for the others; returns their counts."""
        counts: dict[str, int] = {}
        self._db.execute("BEGIN")
        for doc_id in in_solr:
            if doc_id in reached:
                self._db.execute("DELETE FROM missed WHERE id=?", (doc_id,))
                continue
            row = self._db.execute(
                "INSERT INTO missed (id, runs) VALUES (?, 1) ON CONFLICT(id) DO UPDATE "
                "SET runs = runs + 1 RETURNING runs",
                (doc_id,),
            ).fetchone()
            counts[doc_id] = int(row[0])
        self._db.execute("COMMIT")
        return counts

    def forget(self, ids: list[str]) -> None:
        """Drop ids that were deleted."""
        self._db.executemany("DELETE FROM missed WHERE id=?", [(i,) for i in ids])

    def copy_to(self, target: Path) -> None:
        """Write a consistent copy of the counts to ``target`` (dry runs)."""
        backup(self._db, target)


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
        data_dir: where ``missed.sqlite3`` lives.
        in_index: the document ids Solr holds, by host.
        planned: planned deletes by host, updated in place.
        in_scope: whether an id is inside this job's scope (``crawl.include`` /
            ``crawl.exclude``); ids outside it are neither counted nor deleted.

    Returns:
        the number of in-scope documents Solr holds, by host (the guard's denominators).
    """
    grace = settings.reindex.delete_grace_runs
    totals: dict[str, int] = {}
    missed = MissedRuns(DataDir(data_dir).missed)
    try:
        for host, ids in in_index.items():
            in_solr = [doc_id for doc_id in ids if in_scope(doc_id)]
            totals[host] = len(in_solr)
            counts = missed.update(frontier.reached_in_run(host), in_solr)
            planned[host].update(i for i, runs in counts.items() if runs >= grace)
    finally:
        missed.close()
    return totals


def guard(settings: Settings, deletes: dict[str, list[str]], totals: dict[str, int]) -> list[str]:
    """One message for every host whose planned deletes exceed ``reindex.max_delete_share``.

    Args:
        settings: ``reindex.max_delete_share`` (a fraction, 0-1) is read.
        deletes: planned deletes by host.
        totals: in-scope documents in Solr by host (a host without any is never refused).

    Returns:
        messages sorted by host; empty when every host is within the share.
    """
    share = settings.reindex.max_delete_share
    refused = []
    for host, ids in sorted(deletes.items()):
        total = totals.get(host, 0)
        if total and len(ids) / total > share:
            refused.append(
                f"{host}: {len(ids)} of {total} documents would be deleted "
                f"({len(ids) / total:.0%} > reindex.max_delete_share={share:.0%})"
            )
    return refused


def forget(data_dir: Path, frontier: Frontier, ids: list[str]) -> None:
    """Drop deleted ids from the frontier and the missed-runs counts."""
    frontier.forget(ids)
    missed = MissedRuns(DataDir(data_dir).missed)
    try:
        missed.forget(ids)
    finally:
        missed.close()
