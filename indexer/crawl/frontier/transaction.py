"""Transactions on a state connection in autocommit mode, re-entrant.

Each statement on the frontier's connection is its own transaction (autocommit) unless a
:class:`Transaction` is open: then writes are committed together, once, and undone
together on an error. Inside an open one a nested :class:`Transaction` does nothing (the
outer one commits), so a method that groups its own statements can run inside a larger
group, such as the writes of one page's verdict (:meth:`Frontier.batch`). A group must not
span an ``await``: other tasks' statements on the connection would join it.
"""

from __future__ import annotations

from types import TracebackType

from indexer.crawl.frontier.sql import Connection


class Transaction:
    """``with Transaction(db):`` — ``BEGIN`` … ``COMMIT``, or ``ROLLBACK`` on an exception;
    nothing when ``db`` is in a transaction already.

    Raises:
        StorageError, StateError: from the connection's translation (disk full, broken file).
    """

    def __init__(self, db: Connection) -> None:
        self._db = db
        self._outer = False

    def __enter__(self) -> None:
        self._outer = not self._db.in_transaction
        if self._outer:
            self._db.execute("BEGIN")

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self._outer:
            return
        if et is None:
            self._db.execute("COMMIT")
        elif self._db.in_transaction:  # SQLite may have rolled back already (disk full)
            self._db.execute("ROLLBACK")
