"""Group commit: a crawl's frontier writes committed together, a fraction of a second apart.

Outside a crawl each page's writes are one transaction (:class:`Transaction`). A commit
writes every B-tree page the transaction touched into the WAL (the ``urls`` row and its
indexes, the outcome history, outlinks, the explanation): for one page of writes that is
most of the cost, and it is paid on the event loop. While a crawl dispatches
(:meth:`GroupedCommits.grouped`), the frontier's connection stays in one transaction that
is committed when it is :data:`GROUP_SECONDS` old or holds :data:`GROUP_PAGES` page
groups, checked when a page group ends and on each turn of the dispatcher
(:meth:`GroupedCommits.commit_due`), and when dispatching ends. Each page's writes are a
``SAVEPOINT`` inside it, released together or undone together on an error, as before.

Connections handed to :meth:`GroupedCommits.grouped` (the outbox's) are grouped alike and
committed just before the frontier, so the frontier never records as done a page whose
document the outbox could still lose (``indexer reindex --repair`` trusts the frontier's
hashes).

Durability (SQLite WAL, https://sqlite.org/wal.html): a ``kill -9`` or a power cut loses
at most the writes since the last commit — URLs finished in that window are queued again
by ``--resume`` (a URL left ``fetching`` is) and fetched once more; their documents, in
the ``--out`` file already, are written again (the same id). Nothing committed is lost,
and nothing is reported done that was not.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType

from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.transaction import Transaction

#: Longest time (s) a crawl's frontier writes wait for their commit while pages complete.
GROUP_SECONDS = 0.25
#: Most page groups in one commit.
GROUP_PAGES = 128


@dataclass(slots=True)
class _Group:
    """The open transactions of a grouping: the frontier's and its followers' (committed
    first), when they began, page groups in them, nesting."""

    db: Connection
    followers: tuple[Connection, ...] = ()
    began: float = 0.0
    pages: int = 0
    depth: int = 0

    def due(self) -> bool:
        return self.pages >= GROUP_PAGES or time.monotonic() - self.began >= GROUP_SECONDS

    def begin(self) -> None:
        """Open the transactions that are not open."""
        for db in self.followers:
            if not db.in_transaction:
                db.execute("BEGIN")
        if not self.db.in_transaction:
            self.db.execute("BEGIN")
            self.began, self.pages = time.monotonic(), 0

    def commit(self) -> None:
        """Commit the followers, then the frontier (what is open of them)."""
        for db in (*self.followers, self.db):
            if db.in_transaction:
                db.execute("COMMIT")


class PageGroup:
    """``with PageGroup(db, group):`` — a ``SAVEPOINT`` in the grouping's transaction,
    released on success (committing the transaction when it is due), rolled back to on an
    exception; nothing when a page group is open already (the outer one decides)."""

    def __init__(self, db: Connection, group: _Group) -> None:
        self._db, self._group, self._outer = db, group, False

    def __enter__(self) -> None:
        self._outer = self._group.depth == 0
        self._group.depth += 1
        if self._outer:
            self._group.begin()
            self._db.execute("SAVEPOINT page")

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._group.depth -= 1
        if not self._outer:
            return
        if not self._db.in_transaction:  # SQLite rolled it all back already (disk full)
            return
        if et is not None:
            self._db.execute("ROLLBACK TO page")
            self._db.execute("RELEASE page")
            return
        self._db.execute("RELEASE page")
        self._group.pages += 1
        if self._group.due():
            self._group.commit()
            self._group.begin()


class GroupedCommits:
    """The frontier's transactions (a mixin of the SQLite frontier, on its ``_db``)."""

    _db: Connection
    _group: _Group | None = None

    def batch(self) -> Transaction | PageGroup:
        """``with frontier.batch():`` makes the writes of a section one transaction (one
        commit; all or none) — inside :meth:`grouped`, one savepoint of the grouping's
        transaction; the section must not ``await`` (:mod:`.transaction`)."""
        if self._group is not None:
            return PageGroup(self._db, self._group)
        return Transaction(self._db)

    @contextlib.contextmanager
    def grouped(self, *followers: Connection) -> Iterator[None]:
        """Group the frontier's writes, and those of ``followers`` (connections in
        autocommit mode, committed first), until the block ends, then commit them (see the
        module docstring). Statements outside any page group join the open transactions.

        Raises:
            StorageError, StateError: a commit failed (disk full, broken file).
        """
        group = self._group = _Group(self._db, followers)
        group.begin()
        try:
            yield
        finally:
            self._group = None
            group.commit()

    def commit_due(self) -> None:
        """Commit the grouping's writes when they are due (a dispatcher's turn), and open
        the next transactions; nothing outside :meth:`grouped` or inside a page group."""
        group = self._group
        if group is None or group.depth:
            return
        if group.due():
            group.commit()
        group.begin()
