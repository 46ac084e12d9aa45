"""What a frontier knows of the outbox of its crawl's data directory (a ``Frontier`` base).

The outbox itself is :mod:`indexer.index.outbox`; the frontier only keeps the ``meta`` mark
that this data directory's crawls use one (:attr:`OutboxRecord.outbox_mark`: a missing
outbox is then refused, not silently made anew) and hears what it held when a crawl ended
(:meth:`OutboxRecord.outbox_left`), which a frontier shared by many processes needs for the
end of their run (:mod:`indexer.crawl.frontier.postgres.runclose`); the SQLite frontier,
one process's own, needs nothing more.
"""

from __future__ import annotations


class OutboxRecord:
    """The outbox side of a frontier (see the module docstring).

    Attributes:
        outbox_mark: the ``meta`` key marking that this data directory's crawls use an
            outbox.
    """

    outbox_mark = "outbox"

    def outbox_left(self, pending: int) -> None:
        """A crawl ends with ``pending`` changes in its outbox (0: empty and committed)."""
