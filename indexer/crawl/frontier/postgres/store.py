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

from pathlib import Path
from typing import TYPE_CHECKING

from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier.extract_state import ExtractState
from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.schema import NAMESPACE, prepare
from indexer.crawl.frontier.progress import ProgressStore
from indexer.crawl.frontier.store import Claimed, Frontier
from indexer.crawl.frontier.tombstones import Tombstones
from indexer.errors import StateError

_CLAIM = (
    "UPDATE urls SET state='fetching', fetched_run=:run, updated=:now WHERE url = "
    "(SELECT url FROM urls WHERE host=:host AND state='queued' AND run=:run "
    "AND next_fetch<=:now ORDER BY depth LIMIT 1 FOR UPDATE SKIP LOCKED) "
    "RETURNING url, depth, attempts, etag, last_modified, content_hash, resend"
)


class PgFrontier(Frontier):
    """The frontier in PostgreSQL (``frontier.url``), with a lock on this process's data dir.

    Args:
        url: ``postgresql://user:password@host:port/dbname`` (libpq's URL syntax).
        data_dir: this process's directory for the outbox and its lock (created if missing).
        create: a database without a frontier gets one (a new crawl); when False it is an
            error (``crawl --resume``, ``reindex``, ``delete``).

    Raises:
        CrawlLockedError: another process holds the lock on ``data_dir``.
        StateError: the database cannot be reached, holds no frontier and not ``create``,
            or holds a foreign or newer one (one line naming the URL without its password).
    """

    def __init__(self, url: str, data_dir: Path, *, create: bool = True) -> None:
        self.data_dir = DataDir(data_dir)
        self._db = db = PgConnection(url, NAMESPACE)
        self.url = db.url  # without the password
        try:
            prepare(db, create=create)
            self.data_dir.lock()
        except BaseException:
            db.close()
            raise
        self.tombstones = Tombstones(self._db)
        self.extract_state = ExtractState(self._db, read_only=True)  # tables made by prepare
        self.progress = ProgressStore(self._db)
        self.run = 0

    def claim(self, host: str, now: float) -> Claimed | None:
        """Take the shallowest due URL of ``host`` queued in this run (see
        :meth:`Frontier.claim`); a row another process is claiming is skipped, never waited
        for or taken twice (``FOR UPDATE SKIP LOCKED``)."""
        row = self._db.execute(_CLAIM, {"run": self.run, "now": now, "host": host}).fetchone()
        if row is None:
            return None
        return Claimed(row[0], host, row[1], row[2], row[3], row[4], row[5], bool(row[6]))

    def next_due(self, host: str) -> float | None:
        """Earliest ``next_fetch`` among the host's URLs queued in this run, or None."""
        row = self._db.execute(
            "SELECT MIN(next_fetch) FROM urls WHERE host=? AND state='queued' AND run=?",
            (host, self.run),
        ).fetchone()
        return None if row[0] is None else float(row[0])

    def copy_to(self, data_dir: Path) -> None:
        """Not available: a dry run's copy is a SQLite file (``reindex --dry-run``).

        Raises:
            StateError: always, naming the database.
        """
        raise StateError(self.url, "a dry run copies a SQLite frontier only")


if TYPE_CHECKING:  # mypy checks that this backend implements the whole interface
    from indexer.crawl.frontier.interface import FrontierBackend

    _PG: type[FrontierBackend] = PgFrontier
