"""The end of a run that many crawl processes share: their outboxes, who closes it, run leases.

Every process of a run on the shared frontier registers its data directory's outbox in
``run_outboxes`` when it starts or joins the run (:meth:`RunClosing.opened`); when it ends
it writes what its outbox still holds (:meth:`RunClosing.leave`). A run is closed
(``finished``, ``refused``) only by the process that leaves last, and only when no other
outbox of the run is still registered open: a process still crawling, one that ended with
changes left (Solr was down for it), or one killed with -9 before it emptied its outbox,
keeps the run open until that data directory is resumed (``indexer crawl --join
--data-dir DIR``: its outbox is drained, it leaves empty and closes the run). A process
that uses no outbox (``--out`` only) holds the run open only while it lives (its
``crawl_processes`` row, :mod:`.leases`). The check and the write are one transaction
under an advisory lock on the run, so two processes ending together cannot both leave
the closing to the other.

Run leases (``run_leases``: ``run, task, owner, expires_at, done``): a task done once per
run, whichever process reaches it first (reconciliation,
:func:`indexer.pipeline.reconcile.reconcile`), is taken like a host lease: free, one's own
or expired; marked done once it ran, so that no later process of the run does it again.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.transaction import Transaction

#: Schema step (version 4 of the frontier's tables in PostgreSQL).
TABLES = """
CREATE TABLE run_outboxes (
    run INTEGER NOT NULL,
    outbox TEXT COLLATE "C" NOT NULL,
    owner TEXT NOT NULL,
    uses_outbox BOOLEAN NOT NULL,
    open BOOLEAN NOT NULL,
    pending INTEGER,
    updated DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (run, outbox)
);
CREATE TABLE run_leases (
    run INTEGER NOT NULL,
    task TEXT NOT NULL,
    owner TEXT,
    expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    done DOUBLE PRECISION,
    PRIMARY KEY (run, task)
);
"""

_OPEN = (
    "INSERT INTO run_outboxes (run, outbox, owner, uses_outbox, open, pending, updated) "
    "VALUES (?, ?, ?, ?, TRUE, NULL, ?) ON CONFLICT (run, outbox) DO UPDATE SET "
    "owner=excluded.owner, uses_outbox=excluded.uses_outbox, open=TRUE, updated=excluded.updated"
)
_LEAVE = "UPDATE run_outboxes SET open=?, pending=?, updated=? WHERE run=? AND outbox=?"
#: Other outboxes that keep the run open: registered open and either holding an outbox or
#: belonging to a process still alive.
_BLOCKING = (
    "SELECT o.outbox, o.pending FROM run_outboxes o WHERE o.run=? AND o.outbox != ? AND o.open "
    "AND (o.uses_outbox OR EXISTS (SELECT 1 FROM crawl_processes p "
    "WHERE p.owner = o.owner AND p.expires_at >= ?)) ORDER BY o.outbox"
)
_LOCK = "SELECT pg_advisory_xact_lock(hashtext('indexer.run'), ?)"
_TAKE = (
    "INSERT INTO run_leases (run, task, owner, expires_at) VALUES (:run, :task, :me, :exp) "
    "ON CONFLICT (run, task) DO UPDATE SET owner=excluded.owner, expires_at=excluded.expires_at "
    "WHERE run_leases.done IS NULL AND (run_leases.owner = excluded.owner "
    "OR run_leases.expires_at < :now) RETURNING owner"
)


def outbox_key(data_dir: Path) -> str:
    """The name of a data directory's outbox in ``run_outboxes``: ``machine:/absolute/dir``
    (the same directory resumed later is the same outbox)."""
    return f"{socket.gethostname()}:{data_dir.resolve()}"


class RunClosing:
    """One process's part in the end of the runs it crawls (see the module docstring).

    Args:
        db: the frontier's connection (tables of :data:`TABLES` and ``crawl_processes``).
        outbox: :func:`outbox_key` of this process's data directory.
        owner: this process's lease owner (:func:`.leases.owner_id`).
    """

    def __init__(self, db: PgConnection, outbox: str, owner: str) -> None:
        self._db = db
        self.outbox = outbox
        self.owner = owner
        #: Other outboxes that kept the run open when this process left it (``machine:dir``
        #: with the changes they held, None when unknown); empty when none did.
        self.waiting: list[tuple[str, int | None]] = []

    def opened(self, run: int, *, uses_outbox: bool) -> None:
        """Register this process's outbox as open in ``run`` (it crawls the run now)."""
        self._db.execute(_OPEN, (run, self.outbox, self.owner, uses_outbox, time.time()))

    def leave(self, run: int, pending: int | None) -> bool:
        """This process ends its part of ``run`` with ``pending`` changes left in its outbox
        (None: unknown, counted as not empty); returns whether it may close the run (no other
        outbox keeps it open; :attr:`waiting` names those that do)."""
        with Transaction(self._db):
            self._db.execute(_LOCK, (run,))
            self._db.execute(_LEAVE, (pending != 0, pending, time.time(), run, self.outbox))
            rows = self._db.execute(_BLOCKING, (run, self.outbox, time.time())).fetchall()
        self.waiting = [(str(r[0]), None if r[1] is None else int(r[1])) for r in rows]
        return not self.waiting

    def take_task(self, run: int, task: str, seconds: float) -> bool:
        """Take the lease on ``task`` of ``run`` for ``seconds``: True when this process may do
        it now (nobody did it in this run and nobody else holds a live lease on it)."""
        now = time.time()
        params = {"run": run, "task": task, "me": self.owner, "exp": now + seconds, "now": now}
        return self._db.execute(_TAKE, params).fetchone() is not None

    def task_done(self, run: int, task: str) -> None:
        """Mark ``task`` of ``run`` done (no later process of the run does it again)."""
        self._db.execute(
            "UPDATE run_leases SET done=? WHERE run=? AND task=? AND owner=?",
            (time.time(), run, task, self.owner),
        )
