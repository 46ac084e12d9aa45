"""``indexer delete`` while a shared crawl runs: what the running processes do about it.

A process reads the tombstones again every :data:`~..tombstones.TOMBSTONES_EVERY` seconds
(:class:`~indexer.crawl.frontier.tombstones.Tombstones`), so for up to that long after a
delete it may still admit a rediscovered URL of the buried host, claim one queued before
the delete, or record a page it fetched meanwhile as ``indexed`` (its document never
reaches Solr: the outbox drops it). :class:`LateDeletes` closes that window for the frontier's
rows: when a read brings new tombstones, their URLs are forgotten once more (rows written
since the delete); a claimed URL that is buried is forgotten instead of fetched, and a
finished one instead of recorded. So a deleted host or URL is not crawled again in the run
once the process has read the delete, and ``indexer report`` never counts it as indexed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from indexer.crawl.frontier.tombstones import Tombstones


class LateDeletes:
    """The tombstones of a running process, with what it forgets when they change.

    Args:
        tombstones: the process's (re-read every second on the shared frontier).
        forget: removes URLs from the frontier (:meth:`Frontier.forget`).
        forget_host: removes every URL of a host (:meth:`Frontier.forget_host`).
    """

    def __init__(
        self,
        tombstones: Tombstones,
        forget: Callable[[Iterable[str]], int],
        forget_host: Callable[[str], int],
    ) -> None:
        self._tombstones = tombstones
        self._forget = forget
        self._forget_host = forget_host
        #: the sets as last seen here (another caller, the outbox's look before it sends,
        #: may read the table again first: a change is judged against these, not the call's)
        self._hosts, self._urls = tombstones.hosts, tombstones.urls

    def buries(self, url: str) -> bool:
        """Whether ``url`` (or its host) is buried; when this read brought new tombstones,
        the URLs they bury are forgotten first (rows this or another process wrote before it
        knew of the delete)."""
        t = self._tombstones
        buried = t.buries(url)
        hosts, urls = self._hosts, self._urls
        if t.hosts is not hosts or t.urls is not urls:  # read again since the last look
            self._hosts, self._urls = t.hosts, t.urls
            for host in sorted(t.hosts - hosts):
                self._forget_host(host)
            if t.urls - urls:
                self._forget(sorted(t.urls - urls))
        return buried

    def forget_if_buried(self, url: str) -> bool:
        """Forget ``url`` when it is buried (claimed or finished after its delete); True
        when it was."""
        if not self.buries(url):
            return False
        self._forget([url])
        return True
