"""Tombstones: what ``indexer delete`` removed stays removed until a user crawls it again.

``indexer delete --url U`` buries the URL ``U``, ``--host H`` the host ``H`` (``host[:port]``)
in the frontier's ``tombstones`` table (schema version 2, :mod:`.schema`). A buried URL, or
any URL of a buried host, is not admitted to the frontier (:meth:`Frontier.add
<indexer.crawl.frontier.Frontier.add>`: seeds, outlinks, stored outlinks of a 304,
sitemaps, the ids a reindex rechecks), not recorded as reached through a redirect, and its
document is not written to the outbox or ``--out``; so neither ``crawl --resume`` nor
``indexer reindex`` brings it back through the stored seeds, scope or outlinks.

A tombstone is lifted only by ``indexer crawl`` naming the URL, or a URL of the host, as a
seed on its command line (:meth:`Tombstones.lift`).

Tombstones are few (one per delete command's target), so they are held in memory too. On a
frontier other processes share (PostgreSQL), ``indexer delete`` runs beside the crawl
processes: each reads the table again every :data:`TOMBSTONES_EVERY` seconds while it admits
URLs, and its outbox asks :meth:`Tombstones.buried_among` (a fresh read) before each batch
it sends, so adds waiting in any process's outbox are dropped, not sent, once buried.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from indexer.crawl.frontier.sql import Connection
from indexer.crawl.urls import host_of

URL = "url"
HOST = "host"
#: Seconds between two reads of the tombstones of a shared frontier while admitting URLs.
TOMBSTONES_EVERY = 1.0


class Tombstones:
    """The tombstones of one frontier database.

    Args:
        db: the frontier's connection (schema version 2 or later applied; writable unless
            ``read_only``).
        refresh_every: seconds after which :meth:`buries` reads the table again (a shared
            frontier, where other processes bury URLs); None: read once (one process).
    """

    def __init__(self, db: Connection, refresh_every: float | None = None) -> None:
        self._db = db
        self._every = refresh_every
        self.refresh()

    def refresh(self) -> None:
        """Read the tombstones again (those other processes added or lifted meanwhile)."""
        rows = self._db.execute("SELECT kind, key FROM tombstones").fetchall()
        self.urls = {str(k) for kind, k in rows if kind == URL}
        self.hosts = {str(k) for kind, k in rows if kind == HOST}
        self._read = time.monotonic()

    def buries(self, url: str) -> bool:
        """Whether ``url`` (normalized) or its host was deleted and not crawled again (as
        read at most ``refresh_every`` seconds ago)."""
        if self._every is not None and time.monotonic() - self._read >= self._every:
            self.refresh()
        return url in self.urls or (bool(self.hosts) and host_of(url) in self.hosts)

    def buried_among(self, ids: Iterable[str]) -> set[str]:
        """The document ids of ``ids`` that are buried now: on a shared frontier the table
        is read first (an outbox's last look before it sends)."""
        if self._every is not None:
            self.refresh()
        return {i for i in ids if self.buries(i)}

    def bury_url(self, url: str) -> None:
        """Record that ``url`` (normalized, a document id) was deleted."""
        self._bury(URL, url)
        self.urls.add(url)

    def bury_host(self, host: str) -> None:
        """Record that every document of ``host`` (``host[:port]``) was deleted."""
        self._bury(HOST, host)
        self.hosts.add(host)

    def lift(self, seeds: Iterable[str]) -> list[str]:
        """Lift the tombstones of ``seeds`` (normalized URLs a user gave as seeds): each
        URL's own and its host's. Returns what was lifted (URLs and hosts)."""
        lifted: list[str] = []
        for url in seeds:
            for kind, key, held in ((URL, url, self.urls), (HOST, host_of(url), self.hosts)):
                if key in held:
                    self._db.execute("DELETE FROM tombstones WHERE kind=? AND key=?", (kind, key))
                    held.discard(key)
                    lifted.append(key)
        return lifted

    def _bury(self, kind: str, key: str) -> None:
        self._db.execute(
            "INSERT INTO tombstones (kind, key, deleted) VALUES (?, ?, ?) "
            "ON CONFLICT (kind, key) DO UPDATE SET deleted=excluded.deleted",
            (kind, key, time.time()),
        )
