"""The PostgreSQL frontier backend: the SQLite :class:`Frontier`'s interface on a shared database.

:class:`PgFrontier` runs the SQLite frontier's queries (:mod:`indexer.crawl.frontier.store`,
:mod:`~indexer.crawl.frontier.recrawl`, :mod:`~indexer.crawl.frontier.tombstones`,
:mod:`~indexer.crawl.frontier.extract_state`, :mod:`~indexer.crawl.frontier.progress`) on a
:class:`~indexer.crawl.frontier.postgres.connection.PgConnection`; it replaces only what
differs: opening (the database schema instead of the state file) and the claim, which takes
a row with ``FOR UPDATE SKIP LOCKED`` so that processes sharing the database never claim the
same URL. The data directory still holds what is each process's own (the outbox, the missed
ids, its lock).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier.extract_state import ExtractState
from indexer.crawl.frontier.hoprecords import DocFields
from indexer.crawl.frontier.members import Member, drain_command
from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.cutoff import leave_note, settle
from indexer.crawl.frontier.postgres.hostcap import HostCap
from indexer.crawl.frontier.postgres.latedeletes import LateDeletes
from indexer.crawl.frontier.postgres.lease_sql import IN_FLIGHT
from indexer.crawl.frontier.postgres.leases import HostLeases
from indexer.crawl.frontier.postgres.members import (
    LEAVING,
    STILL_CRAWLS,
    PgProgressStore,
    RunMembers,
    closing_note,
    open_lines,
)
from indexer.crawl.frontier.postgres.robots_share import SharedRobots
from indexer.crawl.frontier.postgres.runclose import RunClosing, outbox_key
from indexer.crawl.frontier.postgres.schema import NAMESPACE, prepare
from indexer.crawl.frontier.postgres.store_sql import ADD, CLAIM, NOTE_HASH, REQUEUE_ORPHANS
from indexer.crawl.frontier.runs import CLOSING_PHASES
from indexer.crawl.frontier.shared import SharedState
from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.store import Claimed, Frontier
from indexer.crawl.frontier.tombstones import TOMBSTONES_EVERY, Tombstones
from indexer.settings_frontier import STALL_SECONDS

log = logging.getLogger("indexer")


class PgFrontier(Frontier):
    """The frontier in PostgreSQL (``frontier.url``), with a lock on this process's data dir.

    Args:
        url: ``postgresql://user:password@host:port/dbname`` (libpq's URL syntax).
        data_dir: this process's directory for the outbox and its lock (created if missing).
        create: a database without a frontier gets one (a new crawl); when False it is an
            error (``crawl --resume``, ``reindex``, ``delete``).
        lease_seconds, delay, stall_seconds: ``frontier.lease_seconds``, ``fetch.delay``,
            ``frontier.stall_seconds``.
        max_pages_per_host: ``crawl.max_pages_per_host``, counted for the run across
            processes (:mod:`.hostcap`; None: no cap).

    Raises:
        CrawlLockedError: another process holds the lock on ``data_dir``.
        StateError: the database cannot be reached, holds no frontier and not ``create``,
            or holds a foreign or newer one (one line naming the URL without its password).
    """

    def __init__(
        self,
        url: str,
        data_dir: Path,
        *,
        create: bool = True,
        lease_seconds: float = 30.0,
        delay: float = 0.0,
        stall_seconds: float = STALL_SECONDS,
        max_pages_per_host: int | None = None,
    ) -> None:
        self.data_dir = DataDir(data_dir)
        self._db = self._pg = db = PgConnection(url, NAMESPACE, stall_seconds)
        self.url = db.url  # without the password
        try:
            prepare(db, create=create)
            self.data_dir.lock()
        except BaseException:
            db.close()
            raise
        self.tombstones = Tombstones(self._db, refresh_every=TOMBSTONES_EVERY)
        self.late_deletes = LateDeletes(self.tombstones, self.forget, self.forget_host)
        self.extract_state = ExtractState(self._db, read_only=True)  # tables made by prepare
        self.leases = HostLeases(db, lease_seconds, delay)
        #: host left to others → (the refused ask, its earliest queued ``next_fetch`` then)
        self._foreign_due: dict[str, tuple[int, float]] = {}
        self.host_cap = HostCap(db, max_pages_per_host)
        self.shared = SharedState(db, self.leases, SharedRobots(db, self.leases), self.host_cap)
        self.closing = RunClosing(db, outbox_key(self.data_dir.root), self.leases.owner)
        self.members = RunMembers(db, self.leases.owner, self.closing.outbox)
        self.progress: PgProgressStore = PgProgressStore(db, self.members)
        self._pending: int | None = None  # what the outbox holds at the end (outbox_left)
        #: The ``meta`` key marking this data directory's outbox as used: ``meta`` is shared,
        #: each process's outbox is its own.
        self.outbox_mark = f"outbox:{self.closing.outbox}"
        self.run = 0

    @contextlib.contextmanager
    def grouped(self, *followers: Connection) -> Iterator[None]:
        """No group commit here: each page's writes stay one transaction of their own, so
        that claims, leases and outcomes are seen by the other processes at once (an open
        transaction would hold its lease rows and hide new ones; :mod:`..groups` is for the
        single-process SQLite frontier)."""
        yield

    def commit_due(self) -> None:
        """Nothing is held back (see :meth:`grouped`)."""

    def close(self) -> None:
        """Give this process's host leases back, close the connection, release the lock (a
        lost connection gives nothing back: the leases expire, :mod:`.connection`; it leaves
        the note of :mod:`.cutoff` in the data directory for the resume)."""
        try:
            if self._pg.lost is None:
                self.leases.release_all()
            else:
                leave_note(self.data_dir.root, self.run, self.leases.owner, str(self._pg.lost))
        finally:
            super().close()

    def start_run(self, resume: bool) -> int:
        """:meth:`Frontier.start_run`; resuming (or joining) the open run queues again only
        the URLs left ``fetching`` on hosts no live lease holds (another process may be
        fetching them now)."""
        row = self._db.execute("SELECT id, finished FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if resume and row is not None and row[1] is None:
            self.run = self.leases.run = int(row[0])
            self._db.execute(REQUEUE_ORPHANS, (time.time(),))
        else:
            self.leases.run = super().start_run(resume=False)
        settle(self._pg, self.data_dir.root, self.run)  # a cut-off process of it: continued
        self.closing.opened(self.run, uses_outbox=self.meta(self.outbox_mark) is not None)
        self.members.joined(self.run)
        self.leases.renew_due()  # announced at once: alive for the others from now on
        return self.run

    def open_run(self) -> int | None:
        """The number of the last run when it is still open (a crawl runs), else None."""
        row = self._db.execute("SELECT id, finished FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None or row[1] is not None else int(row[0])

    def outbox_left(self, pending: int) -> None:
        """This process's crawl ends with ``pending`` changes in its outbox (0: empty and
        committed); :meth:`set_phase` writes it with the run's end."""
        self._pending = pending

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        """:meth:`Frontier.set_phase`; at this process's end (an exit code) its outbox is
        written off as empty or not (:meth:`.runclose.RunClosing.leave`) and a closing phase
        is left to the last process: while another process crawls, or another outbox of the
        run still holds changes, the run stays open."""
        if exit_code is None:  # the run goes on here
            super().set_phase(phase, exit_code, reason)
            return
        self.members.ended(self.run, phase, exit_code)  # this process leaves the run
        closes = self.closing.leave(self.run, self._pending)
        if not closes and (phase in CLOSING_PHASES or phase == "interrupted"):  # theirs to end
            _say_open(self.run, self.closing.waiting, self.members.of(self.run))
            return
        left = self._left_queued() if closes and phase in CLOSING_PHASES else 0
        if left:  # a process stopped meanwhile put pages back: the run is not done
            phase, exit_code, reason = "interrupted", 130, _left_reason(left, self.data_dir.root)
            log.warning("run %d stays open: %s", self.run, reason)
        elif closes:  # the last one: the run's record says how the others ended
            note, died = closing_note(self.members.of(self.run), self.leases.owner)
            reason = "; ".join(r for r in (reason, note) if r)
            exit_code = 1 if died and exit_code == 0 else exit_code  # as --processes exits
            self.progress.close_run(self.run)
        super().set_phase(phase, exit_code, reason)

    def _left_queued(self) -> int:
        """URLs of this run still queued or claimed (none when the run is done: a crawl's end
        gives every URL it leaves an outcome; a process stopped puts its pages back)."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM urls WHERE run=? AND state IN ('queued', 'fetching')",
            (self.run,),
        ).fetchone()
        return int(row[0])

    def finish_run(self) -> None:
        """:meth:`Frontier.finish_run`, when no other process or outbox keeps the run open."""
        if self.closing.leave(self.run, self._pending):
            super().finish_run()

    def run_task(self, task: str) -> bool:
        """Whether this process does ``task`` of the current run, once per run under a run
        lease (:meth:`.runclose.RunClosing.take_task`); mark it with :meth:`run_task_done`."""
        return self.closing.take_task(self.run, task, self.leases.seconds)

    def run_task_done(self, task: str) -> None:
        """``task`` of the current run is done (no other process does it again)."""
        self.closing.task_done(self.run, task)

    def hosts_with_queued(self) -> list[str]:
        """:meth:`Frontier.hosts_with_queued` and the hosts with URLs in flight in this run:
        in another process their pages may queue more and the host be handed over (a
        process joining while every URL of a host was in flight saw that host only at its
        dispatcher's next look, 2 s later)."""
        rows = self._db.execute(
            f"SELECT DISTINCT host FROM urls WHERE {IN_FLIGHT} AND run=:run", {"run": self.run}
        ).fetchall()
        return sorted(set(super().hosts_with_queued()) | {str(r[0]) for r in rows})

    def claim(self, host: str, now: float) -> Claimed | None:
        """Take the shallowest due URL of ``host`` queued in this run (see
        :meth:`Frontier.claim`) when this process holds the host's lease and the host's
        ``next_allowed_at`` has come (:mod:`.leases`); a row another process is claiming is
        skipped, never waited for or taken twice (``FOR UPDATE SKIP LOCKED``)."""
        allowed = self.leases.take(host, now, self.run)
        if allowed is None or allowed > now:
            return None
        if self.host_cap.reached(host, self.run, self.leases.lease_of(host)):
            return None
        params = {"run": self.run, "now": now, "host": host, "me": self.leases.owner}
        params["next"] = self.leases.gap_after(now, host)
        row = self._db.execute(CLAIM, params).fetchone()
        while row is not None and self.late_deletes.forget_if_buried(row[0]):
            row = self._db.execute(CLAIM, params).fetchone()  # deleted since it was queued
        if row is None:
            return None
        if not self.leases.valid(host):  # the claim returned past the lease's fence
            super().release(row[0])
            self.leases.lapsed(host)
            return None
        self.leases.claimed(row[0], host, now)
        self.host_cap.claimed(host, first=row[2] == 0)
        return Claimed(row[0], host, row[1], row[2], row[3], row[4], row[5], bool(row[6]))

    def next_due(self, host: str) -> float | None:
        """Earliest ``next_fetch`` among the host's URLs queued in this run, or None (the
        host's lease is then given back); not before the host's lease can be had: its
        ``next_allowed_at``, or when another process's lease is asked for again. For a host
        another process holds the answer is looked up once per ask (the dispatcher asks
        after each claim refused), and one with nothing queued but a URL in flight there
        is waited for until that ends (its page may queue more: dropped, the host would
        come back only at the dispatcher's next look at the queued hosts)."""
        self.leases.renew_due()
        if self.host_cap.over(host):  # at crawl.max_pages_per_host: nothing more to claim
            if not self._fetching(host):
                self.leases.release(host)
            return None
        seen = self._foreign_due.get(host)
        if seen is not None and seen[0] == self.leases.asked(host):
            return max(seen[1], self.leases.retry_at(host) or seen[1])
        if not self.leases.held(host) and self.host_cap.reached(host, self.run):
            return None  # at its cap by another process: none of it is due here
        due = self._min_due(host)
        if due is None:
            if self._fetching(host):
                self.leases.release_when_idle(host)
                return self._wait_elsewhere(host)
            self.leases.release(host)
            return None
        allowed = self.leases.take(host, time.time(), self.run)
        if allowed is not None:
            return max(due, allowed)
        retry, asked = self.leases.retry_at(host), self.leases.asked(host)
        if asked is not None:
            self._foreign_due[host] = (asked, due)
        return max(due, retry or due)

    def _wait_elsewhere(self, host: str) -> float | None:
        """For a host held elsewhere with a URL in flight and nothing queued: when to ask
        again (the next look at the lease rows ends the wait once nothing is in flight);
        None for a host held here."""
        asked = self.leases.asked(host)
        if asked is None or self.leases.held(host):
            return None
        self._foreign_due[host] = (asked, 0.0)
        return self.leases.retry_at(host)

    def _min_due(self, host: str) -> float | None:
        row = self._db.execute(
            "SELECT MIN(next_fetch) FROM urls WHERE host=? AND state='queued' AND run=?",
            (host, self.run),
        ).fetchone()
        return None if row[0] is None else float(row[0])

    def add(self, entries: Iterable[tuple[str, str, int]]) -> int:
        """:meth:`Frontier.add` in one statement (each URL once, buried ones left out)."""
        fresh: dict[str, tuple[str, int]] = {}
        for url, host, depth in entries:
            if url not in fresh and not self.late_deletes.buries(url):
                fresh[url] = (host, depth)
        if not fresh:
            return 0
        self.leases.queued({h for h, _ in fresh.values()})
        params = {"run": self.run, "urls": list(fresh)}
        params |= {
            "hosts": [h for h, _ in fresh.values()],
            "depths": [d for _, d in fresh.values()],
        }
        return int(self._db.execute(ADD, params).rowcount)

    def note_hash(self, url: str, digest: str) -> int:
        """:meth:`Frontier.note_hash` in one statement."""
        params = {"digest": digest, "run": self.run, "url": url}
        return int(self._db.execute(NOTE_HASH, params).fetchone()[0])

    def finish(self, url: str, outcome: str, reason: str = "", **fields: Any) -> None:
        """:meth:`Frontier.finish`; the URL is no longer in flight here. A URL deleted since it
        was claimed is forgotten instead (:mod:`.latedeletes`)."""
        if not self.late_deletes.forget_if_buried(url):
            super().finish(url, outcome, reason, **fields)
        self.leases.ended(url)

    def retry_later(self, url: str, at: float, reason: str) -> None:
        """:meth:`Frontier.retry_later`; the URL is no longer in flight here."""
        super().retry_later(url, at, reason)
        self.leases.ended(url)

    def release(self, url: str) -> None:
        """:meth:`Frontier.release`; the URL is no longer in flight here."""
        super().release(url)
        self.leases.ended(url)

    def record_reached(
        self, url: str, host: str, depth: int, source: str, fields: DocFields
    ) -> bool:
        """:meth:`Frontier.record_reached`; a copy of ``url`` claimed here meanwhile (its
        visit waits for the redirect's, then sends nothing) is no longer in flight."""
        if not super().record_reached(url, host, depth, source, fields):
            return False
        self.leases.ended(url)
        return True

    def _fetching(self, host: str) -> bool:
        row = self._db.execute(
            f"SELECT 1 FROM urls WHERE host=:host AND {IN_FLIGHT} AND run=:run LIMIT 1",
            {"host": host, "run": self.run},
        ).fetchone()
        return row is not None

    def copy_to(self, data_dir: Path) -> None:
        """Write a SQLite copy of this frontier and its grace counters into ``data_dir``
        (``reindex --dry-run``, :mod:`.copy`)."""
        from indexer.crawl.frontier.postgres.copy import copy_frontier

        assert isinstance(self._db, PgConnection)
        copy_frontier(self._db, data_dir)


def _left_reason(left: int, data_dir: Path) -> str:
    """The reason of a run its last process leaves open with ``left`` URLs still queued."""
    return (
        f"{left} URL(s) left queued or in flight by a process that stopped or died: "
        f"`{drain_command(str(data_dir))}` (or that process's command with --resume) "
        "continues the run"
    )


def _say_open(run: int, waiting: list[tuple[str, int | None]], members: list[Member]) -> None:
    """Log why ``run`` stays open (:func:`.members.open_lines`): a warning for each outbox
    that holds changes or whose process is gone without ending (naming the command that
    finishes its part), else (other processes still crawl) an info line."""
    for line in open_lines(waiting, members)[:5]:
        still = line.endswith((STILL_CRAWLS, LEAVING))
        log.log(logging.INFO if still else logging.WARNING, "run %d stays open: %s", run, line)


if TYPE_CHECKING:  # mypy checks that this backend implements the whole interface
    from indexer.crawl.frontier.interface import FrontierBackend

    _PG: type[FrontierBackend] = PgFrontier
