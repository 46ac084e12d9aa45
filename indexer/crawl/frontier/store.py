"""The persistent frontier: every URL the crawl knows, its state and its HTTP validators.

Stored in SQLite (WAL mode) under the data directory, so a crawl stopped at any point
(Ctrl-C or ``kill -9``) resumes without fetching finished pages again and without losing
queued ones. Memory stays flat: URLs are claimed from disk one at a time per host.
States: ``queued`` → ``fetching`` → ``done`` (or back to ``queued`` for a retry). A URL
left in ``fetching`` by a killed crawl is queued again on resume.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from indexer.crawl.datadir import DataDir, backup
from indexer.crawl.frontier.extract_state import ExtractState
from indexer.crawl.frontier.groups import GroupedCommits
from indexer.crawl.frontier.hoprecords import HopRecords
from indexer.crawl.frontier.outboxes import OutboxRecord
from indexer.crawl.frontier.progress import ProgressStore
from indexer.crawl.frontier.runs import CLOSING_PHASES, add_run_columns
from indexer.crawl.frontier.schema import FRONTIER, HOSTS_QUEUED, LATER_INDEXES, NO_CRAWL, upgrade
from indexer.crawl.frontier.shared import SharedState
from indexer.crawl.frontier.tombstones import Tombstones
from indexer.errors import StateError


@dataclass(frozen=True, slots=True)
class Claimed:
    """A URL handed to a fetcher.

    Attributes:
        url: normalized URL.
        host: its host.
        depth: link distance from a seed.
        attempts: attempts made before this one.
        etag, last_modified: validators stored from the last successful fetch, or None.
        content_hash: hash of the last indexed main content, or None.
        resend: its indexed document must be fetched in full and sent again (a page
            restored after a site-wide duplicate).
    """

    url: str
    host: str
    depth: int
    attempts: int
    etag: str | None
    last_modified: str | None
    content_hash: str | None
    resend: bool = False


class Frontier(HopRecords, GroupedCommits, OutboxRecord):
    """SQLite-backed URL store with an exclusive lock on its directory.

    Args:
        data_dir: directory for ``frontier.sqlite3`` and ``lock`` (created if missing).
        create: a missing frontier is created (a new crawl); when False it is an error
            (``crawl --resume``, ``reindex``, ``delete``).

    Raises:
        CrawlLockedError: another process holds the lock on ``data_dir``.
        StateError: the frontier is broken, foreign or newer, or missing and not ``create``.
    """

    #: Set by a frontier other processes share (:mod:`.shared`); None: this process alone.
    shared: SharedState | None = None

    def __init__(self, data_dir: Path, *, create: bool = True) -> None:
        self.data_dir = DataDir(data_dir)
        if not create and not self.data_dir.frontier.exists():  # leave no empty directory
            raise StateError(self.data_dir.frontier, f"missing: {NO_CRAWL}")
        self.data_dir.lock()
        try:
            self._db = self.data_dir.open(FRONTIER, create=create, missing_hint=NO_CRAWL)
            add_run_columns(self._db)
            self._db.execute(LATER_INDEXES)
            self.add_recrawl_schema()
            upgrade(self._db)
            self.tombstones = Tombstones(self._db)
            self.extract_state = ExtractState(self._db)
            self.progress = ProgressStore(self._db)
        except BaseException:
            self.data_dir.unlock()
            raise
        self.run = 0

    def close(self) -> None:
        """Close the database and release the lock."""
        self._db.close()
        self.data_dir.unlock()

    def __enter__(self) -> Frontier:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def start_run(self, resume: bool) -> int:
        """Begin a run and return its number.

        With ``resume`` the last unfinished run continues: URLs left ``fetching`` are queued
        again. Without it a new run starts and every URL reached before is queued again
        (its stored validators make the refetch a conditional GET).
        """
        row = self._db.execute("SELECT id, finished FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if resume and row is not None and row[1] is None:
            self.run = int(row[0])
            self._db.execute("UPDATE urls SET state='queued' WHERE state='fetching'")
            return self.run
        self.run = self._new_run()
        self._db.execute(
            "UPDATE urls SET state='queued', attempts=0, next_fetch=0, run=? "
            "WHERE reached_run IS NOT NULL OR state != 'done'",
            (self.run,),
        )
        return self.run

    def save_seeds(self, seeds: Iterable[str]) -> None:
        """Remember the crawl's seeds, so that ``--resume`` needs none (they define scope)."""
        self.set_meta("seeds", json.dumps(list(seeds)))

    def meta(self, key: str) -> str | None:
        """The value stored under ``key`` in the frontier's ``meta`` table, or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` in the ``meta`` table."""
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    def stored_seeds(self) -> tuple[str, ...]:
        """The seeds saved by the last crawl that had any, or ``()``."""
        raw = self.meta("seeds")
        return tuple(json.loads(raw)) if raw else ()

    def finish_run(self) -> None:
        """Mark the current run finished (a later ``--resume`` then starts anew)."""
        self._db.execute("UPDATE runs SET finished=? WHERE id=?", (time.time(), self.run))

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        """Store the current run's phase (:class:`indexer.pipeline.phases.Phase`), with its
        exit code and one-line reason when it ends. ``finished`` and ``refused`` close the
        run (``--resume`` then starts anew); any other phase leaves it open."""
        closed = phase in CLOSING_PHASES
        self._db.execute(
            "UPDATE runs SET phase=?, exit_code=?, reason=?, finished=? WHERE id=?",
            (phase, exit_code, reason, time.time() if closed else None, self.run),
        )

    def add(self, entries: Iterable[tuple[str, str, int]]) -> int:
        """Queue ``(url, host, depth)`` entries not yet seen in this run; returns how many.

        A URL known from an earlier run is queued again, keeping its validators. A URL that
        ``indexer delete`` buried (:attr:`tombstones`) is not admitted.
        """
        added = 0
        with self.batch():
            for url, host, depth in entries:
                if self.tombstones.buries(url):
                    continue
                cur = self._db.execute(
                    "INSERT INTO urls (url, host, depth, run) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(url) DO UPDATE SET state='queued', attempts=0, next_fetch=0, "
                    "run=excluded.run, depth=excluded.depth WHERE urls.run < excluded.run",
                    (url, host, depth, self.run),
                )
                added += cur.rowcount
        return added

    def hosts_with_queued(self) -> list[str]:
        """Hosts that have at least one URL queued in this run, in order (about one index
        lookup per host: a shared frontier asks every few seconds, ``schema.HOSTS_QUEUED``)."""
        rows = self._db.execute(HOSTS_QUEUED, {"run": self.run})
        return [r[0] for r in rows if r[0] is not None]

    def claim(self, host: str, now: float) -> Claimed | None:
        """Take the shallowest due URL of ``host`` queued in this run and mark it
        ``fetching``; None if none due. (URLs a killed run left queued wait for the next run
        that queues them: the re-send run of ``reindex --repair`` fetches only its own.)"""
        row = self._db.execute(
            "SELECT url, depth, attempts, etag, last_modified, content_hash, resend FROM urls "
            "INDEXED BY urls_claim WHERE host=? AND state='queued' AND run=? AND next_fetch<=? "
            "ORDER BY depth LIMIT 1",
            (host, self.run, now),
        ).fetchone()
        if row is None:
            return None
        self._db.execute(
            "UPDATE urls SET state='fetching', fetched_run=?, updated=? WHERE url=?",
            (self.run, now, row[0]),
        )
        return Claimed(row[0], host, row[1], row[2], row[3], row[4], row[5], bool(row[6]))

    def next_due(self, host: str) -> float | None:
        """Earliest ``next_fetch`` (epoch seconds) among the host's URLs queued in this run,
        or None: one lookup in the ``(host, state, run, next_fetch)`` index, however many
        are queued."""
        row = self._db.execute(
            "SELECT MIN(next_fetch) FROM urls INDEXED BY urls_due "
            "WHERE host=? AND state='queued' AND run=?",
            (host, self.run),
        ).fetchone()
        return None if row[0] is None else float(row[0])

    def retry_later(self, url: str, at: float, reason: str) -> None:
        """Queue ``url`` again for ``at`` (epoch seconds), counting the attempt."""
        self._db.execute(
            "UPDATE urls SET state='queued', attempts=attempts+1, next_fetch=?, reason=?, "
            "updated=? WHERE url=?",
            (at, reason, time.time(), url),
        )

    def release(self, url: str) -> None:
        """Queue a claimed URL again without counting an attempt (e.g. the crawl stopped)."""
        self._db.execute("UPDATE urls SET state='queued' WHERE url=?", (url,))

    def finish(
        self,
        url: str,
        outcome: str,
        reason: str = "",
        *,
        reached: bool = False,
        etag: str | None = None,
        last_modified: str | None = None,
        content_hash: str | None = None,
    ) -> None:
        """Record the URL's final outcome for this run.

        Args:
            reached: the page exists and is (still) part of the index (``indexed``,
                ``not-modified``); validators and hash are then replaced when given. A new
                hash keeps the one it replaces (see :meth:`restore_previous`) and ends a
                pending ``resend``.
        """
        if reached:
            self.finish_reached(url, outcome, reason, (etag, last_modified, content_hash))
            return
        self._db.execute(
            "UPDATE urls SET state='done', outcome=?, reason=?, updated=? WHERE url=?",
            (outcome, reason, time.time(), url),
        )

    def finish_left(self, url: str, outcome: str, reason: str) -> None:
        """:meth:`finish` for a URL whose document was just deleted: its validators and
        hashes are dropped, so the next fetch is unconditional and the page, open again, is
        sent again even unchanged (a 304 or an equal hash would leave it out of search)."""
        self._db.execute(  # first: a stop between the two leaves the URL to fetch in full
            "UPDATE urls SET etag=NULL, last_modified=NULL, content_hash=NULL, prev_hash=NULL "
            "WHERE url=?",
            (url,),
        )
        self.finish(url, outcome, reason)  # a backend's own ending of the URL included

    def finish_queued(self, outcome: str, reason: str, host: str | None = None) -> int:
        """Give every URL still queued in this run (of ``host``, or all) a final outcome;
        returns how many."""
        sql = (
            "UPDATE urls SET state='done', outcome=?, reason=?, updated=? "
            "WHERE state='queued' AND run=?"
        )
        params: tuple[object, ...] = (outcome, reason, time.time(), self.run)
        if host is not None:
            sql += " AND host=?"
            params += (host,)
        return self._db.execute(sql, params).rowcount

    def query_variants(self, url: str, limit: int) -> int:
        """How many known URLs share ``url``'s part before ``?`` (counting stops at ``limit``)."""
        prefix = url.split("?", 1)[0] + "?"
        row = self._db.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM urls WHERE url > ? AND url < ? LIMIT ?) AS v",
            (prefix, prefix[:-1] + "@", limit),
        ).fetchone()
        return int(row[0])

    def record(self, url: str, host: str, depth: int, outcome: str, reason: str) -> bool:
        """Store a final outcome for a URL that was never queued (e.g. out of scope).

        Returns False when the URL was already handled in this run (nothing changed).
        """
        return self.record_many([(url, host, depth, outcome, reason)])[0]

    def record_many(self, rows: Sequence[tuple[str, str, int, str, str]]) -> list[bool]:
        """:meth:`record` for ``(url, host, depth, outcome, reason)`` rows in one transaction;
        one answer per row."""
        stored = []
        now = time.time()
        with self.batch():
            for url, host, depth, outcome, reason in rows:
                cur = self._db.execute(
                    "INSERT INTO urls (url, host, depth, run, state, outcome, reason, updated) "
                    "VALUES (?, ?, ?, ?, 'done', ?, ?, ?) ON CONFLICT(url) DO UPDATE SET "
                    "outcome=excluded.outcome, reason=excluded.reason, state='done' "
                    "WHERE urls.run < excluded.run",
                    (url, host, depth, self.run, outcome, reason, now),
                )
                stored.append(cur.rowcount > 0)
        return stored

    def fetched_in_run(self) -> int:
        """URLs fetched (claimed at least once) in the current run."""
        row = self._db.execute("SELECT COUNT(*) FROM urls WHERE fetched_run=?", (self.run,))
        return int(row.fetchone()[0])

    def fetched_in_run_by_host(self) -> dict[str, int]:
        """``{host: URLs fetched in the current run}``."""
        rows = self._db.execute(
            "SELECT host, COUNT(*) FROM urls WHERE fetched_run=? GROUP BY host", (self.run,)
        )
        return {h: int(n) for h, n in rows}

    def outcomes(self) -> Iterator[tuple[str, str, str, str]]:
        """``(url, host, outcome, reason)`` for every URL with a final outcome, by URL."""
        rows = self._db.execute(
            "SELECT url, host, outcome, COALESCE(reason, '') FROM urls "
            "WHERE outcome IS NOT NULL ORDER BY url"
        )
        yield from rows

    def reached_in_run(self, host: str) -> set[str]:
        """URLs of ``host`` reached (indexed, unchanged or not modified) in the current run."""
        rows = self._db.execute(
            "SELECT url FROM urls WHERE host=? AND reached_run=? AND state='done'",
            (host, self.run),
        )
        return {r[0] for r in rows}

    def known_hosts(self) -> list[str]:
        """Hosts with at least one URL that was ever reached."""
        rows = self._db.execute("SELECT DISTINCT host FROM urls WHERE reached_run IS NOT NULL")
        return sorted(r[0] for r in rows)

    def forget(self, urls: Iterable[str]) -> int:
        """Remove URLs from the frontier (they are no longer known); returns how many."""
        with self.batch():
            removed = 0
            for u in urls:
                removed += self._db.execute("DELETE FROM urls WHERE url=?", (u,)).rowcount
                self._db.execute("DELETE FROM outlinks WHERE url=?", (u,))
            return removed

    def forget_host(self, host: str) -> int:
        """Remove every URL of ``host`` (and its stored outlinks); returns how many."""
        self._db.execute(
            "DELETE FROM outlinks WHERE url IN (SELECT url FROM urls WHERE host=?)", (host,)
        )
        return self._db.execute("DELETE FROM urls WHERE host=?", (host,)).rowcount

    def copy_to(self, data_dir: Path) -> None:
        """Write a consistent copy of the frontier database into ``data_dir`` (dry runs)."""
        DataDir(data_dir).ensure()
        assert isinstance(self._db, sqlite3.Connection)
        backup(self._db, DataDir(data_dir).frontier)

    def queued_count(self) -> int:
        """URLs queued or being fetched."""
        row = self._db.execute("SELECT COUNT(*) FROM urls WHERE state != 'done'").fetchone()
        return int(row[0])
