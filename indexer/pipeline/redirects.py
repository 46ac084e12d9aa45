"""A visit's redirect hops, as this crawl process records them (issue #20: no page fetched
twice in a run).

A hop to a URL the frontier knows is left to that URL's own visit (:mod:`indexer.crawl.hops`);
a hop to a new URL is followed inline, and each URL it requested is this visit's
(:class:`~indexer.pipeline.inflight.VisitsInFlight`) until the visit ends:

- each intermediate hop (it answered a redirect itself) ends ``redirected`` in the frontier
  (:meth:`~indexer.crawl.frontier.Frontier.record_hops`) when the fetch is done, so a link
  to it later is not fetched again;
- the final URL ends ``indexed`` with the document (``record_reached``, at the send);
- a copy of one of them claimed meanwhile waits for this visit and then ends as it did
  (:meth:`VisitRedirects.taken_by_other`).
"""

from __future__ import annotations

from dataclasses import dataclass

from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.hops import RedirectHops
from indexer.crawl.urls import host_of
from indexer.outcomes import Outcome
from indexer.pipeline.inflight import InFlight, VisitsInFlight
from indexer.pipeline.ledger import Ledger


@dataclass
class VisitRedirects:
    """The redirect hops of this process's visits (see the module docstring).

    Attributes:
        hops: the crawl's hop rules; in_flight: the URLs its running visits requested;
        ledger: where outcomes go (and the frontier).
    """

    hops: RedirectHops
    in_flight: VisitsInFlight
    ledger: Ledger

    @property
    def frontier(self) -> Frontier:
        """The run's frontier."""
        return self.ledger.frontier

    async def check(self, first: str, target: str, mine: InFlight) -> None:
        """Check the hop of ``first``'s fetch to ``target`` (:meth:`RedirectHops.check`);
        a followed one is the visit ``mine``'s."""
        await self.hops.check(first, target)
        self.in_flight.reached(target, mine)

    async def taken_by_other(self, url: str) -> bool:
        """Whether another running visit of this process requested ``url`` through a
        redirect: wait for it to end; then ``url`` ends ``redirected`` here (it was a hop that
        answered a redirect) or was reached by it (its document sent). False: visit it."""
        other = await self.in_flight.wait_for_other(url)
        if other is None:
            return False
        reason = other.hops.get(url)
        if reason is not None:
            self.ledger.finish(url, Outcome.REDIRECTED, reason)
            return True
        return self.frontier.reached_now(url)

    def record_hops(self, claimed: Claimed, mine: InFlight, last: str) -> None:
        """The hops of ``claimed``'s fetch before ``last`` (its final URL, the target left
        to the frontier, or the hop whose answer failed for good) answered redirects: end
        them ``redirected`` in this run. (Not after a retryable failure: the retry follows
        the chain again, and a hop ended now would stop it short of its target.)"""
        chain, rows = mine.urls, []
        for url, after in zip(chain[1:], [*chain[2:], last], strict=False):  # afters: one longer
            if url == last:  # the final URL (or the failing hop): not a redirect
                break
            reason = f"redirected to {after}; a hop of {claimed.url}"
            mine.hops[url] = reason
            rows.append((url, host_of(url), claimed.depth, reason))
        ended = self.frontier.record_hops(rows, Outcome.REDIRECTED) if rows else []
        for (_url, _host, _depth, reason), here in zip(rows, ended, strict=True):
            if here:  # as the report counts it (a copy claimed meanwhile counts itself)
                self.ledger.stats.record(Outcome.REDIRECTED, reason)
