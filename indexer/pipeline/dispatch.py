"""Scheduling: which queued URL starts next, within politeness and the crawl's limits.

The dispatcher keeps the set of hosts with queued URLs and, in a loop, claims a URL of
every host whose politeness slot is free (:mod:`indexer.crawl.politeness`), within
``fetch.concurrency`` in flight and the ``crawl.max_pages`` / ``max_pages_per_host``
limits; each claimed URL is visited in its own task. It also admits new URLs: normalized,
rewritten to the site's preferred origin, checked against the scope (:mod:`indexer.crawl.scope`).
On a frontier other processes share (``Frontier.shared``) it also looks every
:data:`REWATCH` seconds for hosts they queued (outlinks to hosts this process never saw).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from indexer.crawl.candidates import OUTSIDE, TRAP, Candidates, printable
from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.politeness import Politeness
from indexer.crawl.scope import Scope, judged_refusal, refusal
from indexer.crawl.urls import SiteAliases, host_of, normalize_url
from indexer.errors import InvalidURLError
from indexer.outcomes import Outcome
from indexer.pipeline.ledger import Ledger
from indexer.pipeline.phases import settle_in_flight
from indexer.report import RunStats
from indexer.settings import Settings

Visit = Callable[[Claimed], Coroutine[Any, Any, None]]
#: Seconds between two looks at the hosts other processes queued (a shared frontier).
REWATCH = 2.0
#: Seconds before a host's politeness slot that its next URL is claimed: the visit waits
#: for the slot itself (:meth:`Politeness.turn`), so the request starts at the slot, not a
#: dispatcher turn and the claims of the hosts ready with it (a round trip each on a shared
#: frontier) later; a gap it never shortens.
CLAIM_AHEAD = 0.05


class Dispatcher:
    """Claims URLs when their host is ready and starts their visits.

    Args:
        settings: the run's settings (``crawl.*`` limits, ``fetch.concurrency``).
        ledger: where refused URLs are recorded.
        politeness: per-host slots; a claimed URL enters its host's slot here.
        scope: the crawl's scope.
        aliases: the sites' preferred origins.
    """

    def __init__(
        self,
        settings: Settings,
        ledger: Ledger,
        politeness: Politeness,
        scope: Scope,
        aliases: SiteAliases,
    ) -> None:
        self.settings = settings
        self.ledger = ledger
        self.frontier: Frontier = ledger.frontier
        self.politeness = politeness
        self.scope = scope
        self.aliases = aliases
        self.per_host: dict[str, int] = {}
        self.seed_urls: set[str] = set()
        self._fetched = 0
        self._hosts: set[str] = set()
        self._watched = time.monotonic()
        #: Seconds between two looks at the hosts others queued (:meth:`watch_others`).
        self.rewatch = REWATCH
        self._tasks: set[asyncio.Task[None]] = set()

    def resume_counts(self) -> None:
        """Count the pages this run fetched before (a resumed run keeps its limits)."""
        self._fetched = self.frontier.fetched_in_run()
        self.per_host = self.frontier.fetched_in_run_by_host()

    def watch_queued_hosts(self) -> None:
        """Take every host with queued URLs in the frontier as a candidate."""
        self._hosts = set(self.frontier.hosts_with_queued())
        self._watched = time.monotonic()

    def watch_others(self) -> None:
        """On a shared frontier, take up the hosts with queued URLs that other processes
        queued, every :attr:`rewatch` seconds (one query; nothing for SQLite)."""
        if self.frontier.shared is not None and time.monotonic() - self._watched >= self.rewatch:
            self._hosts.update(self.frontier.hosts_with_queued())
            self._watched = time.monotonic()

    # -- admission -------------------------------------------------------------------------

    def enqueue(
        self, urls: Iterable[str] | Candidates, depth: int, from_seed: bool = False
    ) -> None:
        """Queue the URLs that are valid and admitted; record the others with their outcome.
        A page's judged outlinks go to :meth:`admit`."""
        if isinstance(urls, Candidates):
            self.admit(urls, depth)
            return
        crawl = self.settings.crawl
        entries: list[tuple[str, str, int]] = []
        for raw in urls:
            try:
                url = normalize_url(raw, crawl.strip_params, crawl.max_url_length)
                url = self.aliases.canonical(url)
            except InvalidURLError as exc:
                self.ledger.refuse(printable(raw), "", depth, exc.outcome, str(exc)[:300])
                continue
            host = host_of(url)
            refused = refusal(
                url, depth, crawl, self.scope, self.frontier.query_variants, from_seed=from_seed
            )
            if refused is not None:
                self.ledger.refuse(url, host, depth, *refused)
                continue
            entries.append((url, host, depth))
        self._queue(entries)

    def admit(self, candidates: Candidates, depth: int) -> None:
        """Queue a page's outlinks judged by its worker (:mod:`indexer.crawl.candidates`) as
        :meth:`enqueue` would; the refused ones are recorded in one write."""
        crawl, variants = self.settings.crawl, self.frontier.query_variants
        refused = [(url, "", depth, outcome, why) for url, outcome, why in candidates.invalid]
        entries: list[tuple[str, str, int]] = []
        for link in candidates.links:
            url = self.aliases.canonical_of(link.url, link.host)
            if url != link.url:  # another origin of the site is preferred: judged anew
                self.enqueue([url], depth)
                continue
            trap, outside = link.finding == TRAP, link.finding == OUTSIDE
            why = judged_refusal(url, depth, crawl, variants, trap=trap, outside=outside)
            if why is None:
                entries.append((url, link.host, depth))
            else:
                refused.append((url, link.host, depth, *why))
        self.ledger.refuse_many(refused)
        self._queue(entries)

    def _queue(self, entries: list[tuple[str, str, int]]) -> None:
        if entries and self.frontier.add(entries):
            self._hosts.update(host for _, host, _ in entries)

    # -- the loop --------------------------------------------------------------------------

    async def run(
        self,
        visit: Visit,
        ready: Callable[[], Awaitable[None]],
        stop: asyncio.Event,
        on_progress: Callable[[RunStats, int], None] | None,
    ) -> None:
        """Start visits until nothing is queued or due, or ``stop`` is set; then wait for
        the visits in flight (once stopped, within the stop budget: the rest are cancelled
        and their URLs queued again, :func:`indexer.pipeline.phases.settle_in_flight`).

        Args:
            visit: runs one claimed URL (its host's politeness slot is left by it).
            ready: returns when the index accepts documents again (back-pressure).
            stop: set to end the run after the pages in flight.
            on_progress: called about once a second with the stats and the queue length.
        """
        last_progress = 0.0
        while not stop.is_set():
            self.frontier.commit_due()  # the grouped writes of pages done by now
            await ready()
            self.watch_others()
            wait = self._launch(visit)
            if not self._tasks and wait is None:
                break
            if time.monotonic() - last_progress >= 1.0 and on_progress:
                self.ledger.stats.waiting = self.politeness.held()
                on_progress(self.ledger.stats, self.frontier.queued_count())
                last_progress = time.monotonic()
            timeout = 1.0 if wait is None else min(max(wait, 0.005), 1.0)
            if self._tasks:
                await asyncio.wait(
                    self._tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
            else:
                await asyncio.sleep(timeout)
        await settle_in_flight(self._tasks, stop)

    @property
    def in_flight(self) -> set[asyncio.Task[None]]:
        """The visits running now."""
        return self._tasks

    def _launch(self, visit: Visit) -> float | None:
        """Start every URL whose host is ready, the host whose politeness slot came first
        first (in name order a host late in it would wait behind the others' claims at each
        turn, its gaps longer every time); return seconds until the next may be, or None
        when nothing is queued at all."""
        now_m, now = time.monotonic(), time.time()
        soonest: float | None = None
        for host in sorted(self._hosts, key=self._slot):
            if len(self._tasks) >= self.settings.fetch.concurrency or self.limit_reached():
                return 1.0 if self._tasks else None
            if self._host_limit_reached(host):
                self._hosts.discard(host)
                continue
            ready = self.politeness.ready_at(host)
            if ready is None or ready > now_m + CLAIM_AHEAD:
                if not self._tasks and self.frontier.next_due(host) is None:
                    self._hosts.discard(host)  # nothing left: do not wait for its next slot
                    continue
                soonest = _min(soonest, 0.05 if ready is None else ready - CLAIM_AHEAD - now_m)
                continue
            claimed = self.frontier.claim(host, now)
            if claimed is None:
                due = self.frontier.next_due(host)
                if due is None:
                    self._hosts.discard(host)
                else:
                    soonest = _min(soonest, due - now)
                continue
            self._start(claimed, visit)
            soonest = 0.0
        if soonest is None and self._tasks:
            soonest = 1.0
        return soonest

    def _slot(self, host: str) -> float:
        """When ``host``'s politeness slot comes (monotonic; a full host last)."""
        ready = self.politeness.ready_at(host)
        return math.inf if ready is None else ready

    def limit_reached(self) -> bool:
        """Whether this process has claimed ``crawl.max_pages`` URLs (its run's limit)."""
        limit = self.settings.crawl.max_pages
        return limit is not None and self._fetched >= limit

    def _host_limit_reached(self, host: str) -> bool:
        limit = self.settings.crawl.max_pages_per_host
        if limit is None:
            return False
        cap = self.frontier.shared.host_cap if self.frontier.shared is not None else None
        if cap is not None:  # the run's count across processes, as last seen
            self.per_host[host] = max(self.per_host.get(host, 0), cap.known(host))
        return self.per_host.get(host, 0) >= limit

    def _start(self, claimed: Claimed, visit: Visit) -> None:
        if claimed.url not in self.seed_urls and not self.scope.allows(claimed.url):
            # known from an earlier run, outside this run's scope (a narrowed reindex)
            self.ledger.finish(claimed.url, Outcome.OUT_OF_SCOPE, "outside this run's scope")
            return
        if claimed.attempts == 0:
            self._fetched += 1
            self.per_host[claimed.host] = self.per_host.get(claimed.host, 0) + 1
        self.politeness.enter(claimed.host)
        task = asyncio.create_task(visit(claimed))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _min(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)
