"""Before a URL's request: its host's robots.txt (RFC 9309) and, once per origin and run, its
sitemaps.

robots.txt is asked as a redirect hop's is (:func:`indexer.crawl.hops.ask_robots`: read at
the host's politeness turn when not cached, its Crawl-delay applied); an unavailable one
defers the URL while attempts remain, a disallowing one ends it (``robots-disallowed``, or
the network failure that made it unreachable). Then the host's sitemaps are read once per
origin and run, across processes and resumes too (:class:`~indexer.crawl.sitemaps.SitemapsRead`),
their URLs queued at depth 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.hops import ask_robots
from indexer.crawl.politeness import Politeness
from indexer.crawl.robots import NETWORK_FAILURES, RobotsCache
from indexer.crawl.scope import Scope
from indexer.crawl.sitemaps import SitemapReader, SitemapsRead, fetchable
from indexer.crawl.urls import host_of, origin_of
from indexer.outcomes import Outcome
from indexer.pipeline.ledger import Ledger
from indexer.settings import Settings


@dataclass
class HostEntry:
    """robots.txt and sitemaps before a visit's request (see the module docstring).

    Attributes:
        settings: the run's settings (``fetch.max_attempts``, ``crawl.sitemaps``).
        ledger: where outcomes go; politeness: this process's per-host slots.
        scope: which sitemap URLs may be queued; robots, sitemaps: the clients.
        enqueue: ``(urls, depth)`` queues discovered URLs.
    """

    settings: Settings
    ledger: Ledger
    politeness: Politeness
    scope: Scope
    robots: RobotsCache
    sitemaps: SitemapReader
    enqueue: Callable[[Iterable[str], int], None]
    _read: SitemapsRead = field(default_factory=SitemapsRead)

    @property
    def frontier(self) -> Frontier:
        """The run's frontier."""
        return self.ledger.frontier

    async def allows(self, claimed: Claimed) -> bool:
        """Whether robots.txt allows the URL (the host's sitemaps are then read when due);
        False when the URL was deferred or ended here."""
        url, robots = claimed.url, self.robots
        allowed, reason, retry_at = await ask_robots(robots, self.politeness, url)
        if retry_at is not None and claimed.attempts + 1 < self.settings.fetch.max_attempts:
            self.ledger.stats.retries[Outcome.ROBOTS_UNAVAILABLE] += 1
            self.frontier.retry_later(url, retry_at, reason)
            return False
        if not allowed:
            failure = robots.failure(url)
            if failure in NETWORK_FAILURES:
                self.ledger.finish(url, failure, f"host unreachable: {reason}")
            else:
                self.ledger.finish(url, Outcome.ROBOTS_DISALLOWED, reason)
            return False
        await self._discover_sitemaps(url)
        return True

    async def _discover_sitemaps(self, url: str) -> None:
        """Queue the URLs of the host's sitemaps, once per origin and run (depth 1)."""
        origin = origin_of(url)
        if not self.settings.crawl.sitemaps or not self._read.due(origin, self.frontier):
            return
        listed = await self.robots.sitemaps(url)
        allows = fetchable(origin, self.scope.allows, self.frontier.shared is not None)
        pages = self.sitemaps.page_urls(
            origin, listed, allows, lambda u: self.politeness.turn(host_of(u))
        )
        async for batch in pages:
            self.enqueue(batch, 1)
        self._read.done(origin, self.frontier)
