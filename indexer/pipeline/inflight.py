"""The URLs this crawl process's visits are fetching now, so that no page is fetched twice.

A visit of ``/r`` that redirects to ``/a`` fetches ``/a``'s body under ``/r``'s visit, and the
frontier learns that ``/a`` was reached only when that visit ends (its document sent,
:meth:`~indexer.crawl.frontier.Frontier.record_reached`). Until then the frontier cannot
tell that ``/a`` is taken, in either order:

- ``/a``'s own visit is running (fetched, extracting) when ``/r``'s redirect names it: the
  hop is not followed (:mod:`indexer.crawl.hops`: ``left to its own visit``);
- ``/r``'s visit fetched ``/a`` and is extracting when ``/a``'s queued copy is claimed:
  ``/a``'s visit waits for ``/r``'s to end and sends nothing when it reached ``/a`` (or
  ends ``redirected`` when ``/a`` was a hop that answered a redirect itself).

Only this process's visits are kept (a host's URLs are visited by one process at a time:
on a shared frontier a hop to another host is queued for that host's lease holder), and
only while they run: the set is as large as the visits in flight.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass(eq=False)
class InFlight:
    """One running visit: the URLs it requested, in order (its own, then each redirect hop
    it followed); ``hops``: the reason of each intermediate hop that answered a redirect
    (``redirected to NEXT; a hop of URL``); ``ended`` is set when the visit ends."""

    urls: list[str] = field(default_factory=list)
    hops: dict[str, str] = field(default_factory=dict)
    ended: asyncio.Event = field(default_factory=asyncio.Event)


class VisitsInFlight:
    """The URLs requested by the visits running in this process: each visit's own URL and
    each redirect hop it followed, up to its final URL.

    Not thread-safe: used from the event loop only.
    """

    def __init__(self) -> None:
        self._visits: dict[str, InFlight] = {}

    def __contains__(self, url: object) -> bool:
        return url in self._visits

    def enter(self, url: str) -> InFlight:
        """Register a visit of ``url``; returns its token for :meth:`reached`, :meth:`leave`."""
        visit = InFlight()
        self.reached(url, visit)
        return visit

    def reached(self, url: str, visit: InFlight) -> None:
        """``visit`` requested ``url`` too (its final URL after redirects); a URL another
        running visit requested stays that visit's."""
        if url not in self._visits:
            self._visits[url] = visit
            visit.urls.append(url)

    def leave(self, visit: InFlight) -> None:
        """``visit`` ended: its URLs are free, waiters wake."""
        for url in visit.urls:
            del self._visits[url]
        visit.ended.set()

    async def wait_for_other(self, url: str) -> InFlight | None:
        """Wait until no other running visit holds ``url``; the one that did, or None."""
        visit = self._visits.get(url)
        if visit is None:
            return None
        await visit.ended.wait()
        return visit
