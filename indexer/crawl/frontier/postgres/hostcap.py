"""``crawl.max_pages_per_host`` for the run, across the processes of a shared frontier.

One process alone counts a host's pages itself (:class:`indexer.pipeline.dispatch.Dispatcher`),
and so did each process of a shared frontier, so that N processes could fetch N times a host's
cap between them (a host given back to balance the share starts at 0 in the process taking it).
The count that holds is the shared one: the host's URLs claimed in the run (``fetched_run``,
index ``urls_fetched``). Only the holder of a host's lease claims its URLs
(:mod:`.leases`) and every claim is committed at once (:meth:`.store.PgFrontier.grouped`), so
the count read by a process when it takes a host's lease is exact, and stays so counted up by
its own claims while it holds the lease: :meth:`HostCap.reached` is asked by
:meth:`.store.PgFrontier.claim` once it holds the lease (one query when the lease is taken, only
when a cap is set), and for a host another process holds when it is asked for
(:meth:`.store.PgFrontier.next_due`). What it learns is kept for the dispatcher
(:meth:`HostCap.known`), so that a host at its cap leaves the dispatch (and its URLs left end
``max-pages``) in whichever process sees it.
"""

from __future__ import annotations

from typing import Any

from indexer.crawl.frontier.sql import Connection

_COUNT = "SELECT COUNT(*) FROM urls WHERE fetched_run=? AND host=?"


class HostCap:
    """The per-host page cap of one process on a shared frontier.

    Args:
        db: the frontier's connection.
        limit: ``crawl.max_pages_per_host`` (None: no cap, nothing is asked).
    """

    def __init__(self, db: Connection, limit: int | None) -> None:
        self._db = db
        self.limit = limit
        self._seen: dict[str, int] = {}  # host → its URLs claimed in the run, as last known
        self._lease: dict[str, object | None] = {}  # host → the lease it was read under

    def reached(self, host: str, run: int, lease: object | None = None) -> bool:
        """Whether ``host`` has had its cap of URLs claimed in ``run``: read now, unless
        ``lease`` (this process's lease of the host, :meth:`.leases.HostLeases.lease_of`) is
        the one it was read under (then as counted here since: only the holder claims)."""
        if self.limit is None:
            return False
        if lease is None or self._lease.get(host) is not lease:
            row: Any = self._db.execute(_COUNT, (run, host)).fetchone()
            self._seen[host] = int(row[0])
            self._lease[host] = lease
        return self._seen[host] >= self.limit

    def claimed(self, host: str, first: bool) -> None:
        """A URL of ``host`` was claimed (``first``: not claimed before in the run)."""
        if self.limit is not None and first:
            self._seen[host] = self._seen.get(host, 0) + 1

    def known(self, host: str) -> int:
        """``host``'s count as last read or claimed here (0: never)."""
        return self._seen.get(host, 0)

    def over(self, host: str) -> bool:
        """Whether ``host`` is known to be at its cap (no query)."""
        return self.limit is not None and self.known(host) >= self.limit
