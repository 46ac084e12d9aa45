"""One URL's visit: robots.txt, fetch, decode and extract off the loop, then the verdict.

1. robots.txt is asked (:mod:`.hostentry`); an unavailable one defers the URL, a
   disallowing one ends it; the host's sitemaps are read once per origin and run.
2. :mod:`indexer.crawl.fetch` downloads it (redirect hops by :mod:`indexer.crawl.hops`: on a
   shared frontier a hop to another host is queued; conditional GET with the stored
   validators unless the document left the index). A retryable failure is scheduled again
   (:func:`indexer.crawl.retry.decide`); a 410 deletes an indexed copy (a 404 waits its grace
   runs, :mod:`indexer.pipeline.grace`). A 304 queues the links of its last full fetch.
3. Its format is decided and it is parsed (:func:`~indexer.pipeline.documents.process_response`:
   pages in the process pool, documents in the document workers) and judged
   (:func:`indexer.pipeline.verdict.judge`): this module gathers the facts and carries it out.

A bug while visiting ends the URL as ``internal-error``; it never ends the crawl.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

from indexer.crawl.candidates import Candidates, link_rules
from indexer.crawl.fetch import Fetcher, Validators
from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.hops import RedirectHops, queued_outcome
from indexer.crawl.hostfail import HostFailures
from indexer.crawl.login import LoginRules
from indexer.crawl.membudget import MemoryBudget, Reservation
from indexer.crawl.politeness import HostSlot, Politeness
from indexer.crawl.retry import RetryPolicy
from indexer.crawl.robots import RobotsCache
from indexer.crawl.scope import Scope
from indexer.crawl.sitemaps import SitemapReader
from indexer.crawl.urls import SiteAliases, host_of, normalize_url
from indexer.errors import (
    FetchError,
    IndexerError,
    InvalidURLError,
    RedirectQueued,
    RetryableFetchError,
    StateError,
    StorageError,
)
from indexer.extract import SiteRule
from indexer.index.document import build_document, content_hash
from indexer.index.sink import DocumentSink
from indexer.models import FetchResult
from indexer.outcomes import Outcome
from indexer.pipeline.documents import NO_LEARNING, process_response
from indexer.pipeline.docworkers import DocumentWorkers
from indexer.pipeline.fetchfailure import FetchFailures
from indexer.pipeline.hostentry import HostEntry
from indexer.pipeline.inflight import InFlight, VisitsInFlight
from indexer.pipeline.learning import SiteLearning
from indexer.pipeline.ledger import Ledger
from indexer.pipeline.page import ProcessedPage
from indexer.pipeline.redirects import VisitRedirects
from indexer.pipeline.sitewide import SitewideDuplicates
from indexer.pipeline.verdict import Facts, ReindexPolicy, Verdict, judge
from indexer.settings import Settings

log = logging.getLogger(__name__)

Enqueue = Callable[[Iterable[str] | Candidates, int], None]


@dataclass(frozen=True)
class Clients:
    """The run's clients, built once the HTTP session and the process pools are open."""

    fetcher: Fetcher
    robots: RobotsCache
    sitemaps: SitemapReader
    pool: Executor
    documents: DocumentWorkers


@dataclass
class Visitor:
    """Visits claimed URLs (see the module docstring).

    Attributes:
        settings: the run's settings; ledger: where outcomes go; politeness: per-host
            slots, a visit leaves its host's once the response is in.
        scope: the crawl's scope (redirect hops, canonical URLs, sitemap URLs); aliases:
            the sites' preferred origins, redirects teach them; sink: where documents go.
        rules: site rules for extraction; retry: the retry limits; reindex: the reindex
            policy, or None in an ordinary crawl.
        enqueue: ``(urls, depth)`` queues discovered URLs; clients: the HTTP, robots.txt
            and sitemap clients and the process pool.
        login: the login-wall rules; sitewide: the site-wide duplicate judge (it may hold
            a document back); host_failures: the window of ``fetch.host_failure_limit``.
        on_fatal: called with a state or output file error (disk full, broken file, the
            shared frontier gone): the crawl stops, the URL in hand waits for ``--resume``.
        follow_links: queue the outlinks of fetched pages (False: the re-send path).
        learning: template learning and explanations (:mod:`.learning`), or None.
        budget: the process's memory budget (``crawl.memory_budget``): each visit counts
            its body on a reservation of it, given back when the visit ends.
    """

    settings: Settings
    ledger: Ledger
    politeness: Politeness
    scope: Scope
    aliases: SiteAliases
    sink: DocumentSink
    rules: Sequence[SiteRule]
    retry: RetryPolicy
    reindex: ReindexPolicy | None
    enqueue: Enqueue
    clients: Clients
    login: LoginRules
    sitewide: SitewideDuplicates
    host_failures: HostFailures = field(default_factory=lambda: HostFailures(0, 1))
    on_fatal: Callable[[IndexerError], None] | None = None
    follow_links: bool = True
    learning: SiteLearning | None = None
    in_flight: VisitsInFlight = field(default_factory=VisitsInFlight)
    budget: MemoryBudget = field(default_factory=lambda: MemoryBudget(512 << 20))

    @property
    def frontier(self) -> Frontier:
        """The run's frontier."""
        return self.ledger.frontier

    async def visit(self, claimed: Claimed) -> None:
        """Visit one claimed URL; its outcome is recorded, whatever happens.

        Cancellation releases the URL back to the queue (a stopped run resumes it); a slow
        parse holds no other URL of the host (its slot is left once the response is in).
        """
        slot, mine = HostSlot(self.politeness, claimed.host), None
        held = self.budget.reservation()
        try:
            if await self._redirects.taken_by_other(claimed.url):
                return
            mine = self.in_flight.enter(claimed.url)
            await self._visit(claimed, slot, mine, held)
        except asyncio.CancelledError:
            with contextlib.suppress(StateError, StorageError):  # stopping: --resume queues it
                self.frontier.release(claimed.url)
            raise
        except (StateError, StorageError) as exc:  # the disk, not the page: stop at once
            if self.on_fatal is None:
                raise
            self.on_fatal(exc)
        except Exception as exc:  # a bug must not end the crawl: record it against the URL
            log.exception("unexpected error on %s", claimed.url)
            reason = f"internal error: {exc!r}"[:300]
            self.ledger.finish(claimed.url, Outcome.INTERNAL_ERROR, reason)
        finally:
            slot.leave()
            held.release()  # the body is no longer needed
            if mine is not None:
                self.in_flight.leave(mine)

    def _in_index(self, claimed: Claimed) -> bool:
        """Whether the document is in the index as stored (not left it, not to be re-sent)."""
        present = self.reindex is None or self.reindex.in_index(claimed.url)
        return present and not claimed.resend

    def _validators(self, claimed: Claimed) -> Validators:
        """Stored validators for a conditional GET, unless the document left the index."""
        if not self._in_index(claimed):
            return Validators()
        return Validators(claimed.etag, claimed.last_modified)

    @functools.cached_property
    def _redirects(self) -> VisitRedirects:
        """The crawl's redirect hops (:mod:`indexer.crawl.hops`, :mod:`.redirects`)."""
        shared = self.frontier.shared is not None
        frontier = self.frontier
        known = lambda u: u in self.in_flight or frontier.known(u) or frontier.buried(u)  # noqa: E731
        robots = self.clients.robots
        hops = RedirectHops(self.login, self.scope, robots, self.politeness, shared, known)
        return VisitRedirects(hops, self.in_flight, self.ledger)

    @functools.cached_property
    def _failures(self) -> FetchFailures:
        """Failed fetches (:mod:`.fetchfailure`)."""
        parts = (self.settings, self.ledger, self.politeness, self.retry)
        return FetchFailures(*parts, self.host_failures, self.sink)

    @functools.cached_property
    def _entry(self) -> HostEntry:
        """robots.txt and sitemaps before a request (:mod:`.hostentry`)."""
        settings, ledger, clients = self.settings, self.ledger, self.clients
        robots, sitemaps = clients.robots, clients.sitemaps
        args = (settings, ledger, self.politeness, self.scope, robots, sitemaps, self.enqueue)
        return HostEntry(*args)

    async def _visit(
        self, claimed: Claimed, slot: HostSlot, mine: InFlight, held: Reservation
    ) -> None:
        url = claimed.url
        if self.host_failures.failing(claimed.host):
            self.ledger.finish(url, Outcome.HOST_FAILING, self.host_failures.reason(claimed.host))
            return
        if not await self._entry.allows(claimed):
            return
        try:
            fetched = await self.clients.fetcher.fetch(
                url,
                self._validators(claimed),
                check_hop=lambda target: self._redirects.check(url, target, mine),
                before_request=lambda u: self.politeness.turn(host_of(u)),
                reservation=held,
            )
        except RedirectQueued as exc:
            self._redirects.record_hops(claimed, mine, exc.target)
            self._queue_hop(claimed, exc)
            return
        except RetryableFetchError as exc:
            self._failures.observe(claimed.host, exc.unreachable)
            self._failures.retry(claimed, exc)
            return
        except FetchError as exc:  # permanent: the hops before the failing one redirected
            self._failures.observe(claimed.host, False)
            self._redirects.record_hops(claimed, mine, mine.urls[-1])
            self._failures.failed(claimed, exc)
            return
        self._failures.observe(claimed.host, False)
        slot.leave()
        await self._fetched(claimed, mine, dataclasses.replace(fetched, depth=claimed.depth))

    async def _fetched(self, claimed: Claimed, mine: InFlight, fetched: FetchResult) -> None:
        """The response is in: a 304 keeps its stored links, a login wall ends the URL,
        anything else is a page to judge."""
        url = claimed.url
        self._redirects.record_hops(claimed, mine, fetched.final_url)
        if fetched.status == 304:  # its links are those of its last full fetch
            self.enqueue(self.frontier.stored_outlinks(url), claimed.depth + 1)
            self.ledger.finish(url, Outcome.NOT_MODIFIED, "", reached=True)
            return
        if self._login_wall(claimed, fetched):
            return
        await self._page(claimed, fetched)

    def _login_wall(self, claimed: Claimed, fetched: FetchResult) -> bool:
        """End the URL at a login wall (:mod:`indexer.crawl.login`)."""
        verdict = self.login.judge(claimed.url, fetched.final_url, fetched.body)
        if verdict is None:
            return False
        if verdict[0] == Outcome.LOGIN_REQUIRED and self.login.index_login_pages:
            self.enqueue([fetched.final_url], claimed.depth)
        self.ledger.finish(claimed.url, *verdict)
        return True

    async def _page(self, claimed: Claimed, fetched: FetchResult) -> None:
        """Decide the format, parse off the loop, judge, carry the verdict out."""
        clients = self.clients
        learning = self.learning.page_args(claimed.host) if self.learning else NO_LEARNING
        links = link_rules(self.settings.crawl, self.scope) if self.follow_links else None
        page = await process_response(
            fetched, self.settings, clients.pool, clients.documents, self.rules, learning, links
        )
        with self.frontier.batch():  # the page's frontier writes: one commit
            facts = self._facts(claimed, fetched, page)
            skip = self.reindex is not None and self.reindex.skip_unchanged
            obey = self.settings.crawl.obey_noindex
            verdict = judge(facts, obey_noindex=obey, skip_unchanged=skip)
            self._apply(claimed, fetched, facts, verdict)

    def _queue_hop(self, claimed: Claimed, hop: RedirectQueued) -> None:
        """A hop left to the frontier (:mod:`indexer.crawl.hops`): the URL ends (not reached:
        nothing sent for it), its target is queued at its depth (a no-op once seen)."""
        self._failures.observe(claimed.host, False)
        self.aliases.learn(claimed.url, hop.target)
        self.enqueue([hop.target], claimed.depth)
        self.ledger.finish(claimed.url, *queued_outcome(self.login, hop))

    # -- the page's verdict ------------------------------------------------------------------

    def _facts(self, claimed: Claimed, fetched: FetchResult, page: ProcessedPage) -> Facts:
        """What :func:`judge` needs to know, asked of the frontier and the scope."""
        doc, url, final = page.extracted, claimed.url, fetched.final_url
        digest = twin = None
        sitewide = False
        if doc is not None and doc.text.strip() and not page.outcome:  # not links-only
            digest = content_hash(doc, fetched)
            sitewide = self.sitewide.is_duplicate(url, claimed.host, digest)
            twin = self.frontier.same_content(digest, claimed.host, url)
        return Facts(
            url=url,
            final_url=final,
            x_robots_tag=fetched.headers.get("x-robots-tag", ""),
            page=page,
            stored_hash=claimed.content_hash,
            in_index=self._in_index(claimed),
            canonical=None if doc is None else self._canonical(doc.canonical_url),
            digest=digest,
            twin=twin,
            final_reached=final != url and self.frontier.reached_now(final),
            sitewide=sitewide,
        )

    def _canonical(self, canonical: str | None) -> str | None:
        """The normalized ``rel=canonical`` URL when it is valid and in scope, else None."""
        if not canonical:
            return None
        try:
            target = normalize_url(canonical, self.settings.crawl.strip_params)
        except InvalidURLError:
            return None
        return target if self.scope.allows(target) else None

    def _apply(
        self, claimed: Claimed, fetched: FetchResult, facts: Facts, verdict: Verdict
    ) -> None:
        """Carry out a verdict: queue links, learn aliases, send or delete, record."""
        url, final, doc = claimed.url, fetched.final_url, facts.page.extracted
        if verdict.follow and doc is not None and self.follow_links:
            if doc.links_found > facts.page.links_kept:
                self.ledger.truncated(url, doc.links_found, facts.page.links_kept)
            self.enqueue(facts.page.outlinks, claimed.depth + 1)
        if verdict.queue is not None:
            self.enqueue([verdict.queue], claimed.depth)
        if verdict.alias:
            self.aliases.learn(url, final)
        if verdict.index and facts.digest is not None:  # held while the host's verdict waits
            # reached by a redirect: sent now, so that its queued copy is settled
            if final != url or not self.sitewide.holds(claimed.host):
                self._index(claimed, fetched, facts, verdict)
            else:  # a held document keeps no body: only a page's is read again (learning)
                page = doc is not None and doc.format == "html"
                kept = fetched if page else dataclasses.replace(fetched, body=b"")
                send = functools.partial(self._index, claimed, kept, facts, verdict)
                self.sitewide.admit(url, claimed.host, facts.digest, send)
            return
        if verdict.outcome is Outcome.UNCHANGED and doc is not None:
            self.frontier.save_outlinks(url, facts.page.stored_outlinks() if verdict.follow else [])
        self.ledger.finish(url, verdict.outcome, verdict.reason, reached=verdict.reached)
        if verdict.delete:
            self.sink.delete(final)

    def _index(
        self, claimed: Claimed, fetched: FetchResult, facts: Facts, verdict: Verdict
    ) -> None:
        """Send an indexed verdict's document: at once, on the frontier's answers of this
        moment (:meth:`_facts`), or, held by the site-wide check, once its release has judged
        it again (:meth:`.SitewideDuplicates.admit`)."""
        url, doc, digest = claimed.url, facts.page.extracted, facts.digest
        fields = self._send(claimed, fetched, facts)
        if self.learning is not None and digest is not None:
            self.learning.indexed(url, claimed.host, fetched, facts.page, digest, verdict.reason)
        if doc is not None:  # under the document's URL: a 304 to it later follows them
            links = facts.page.stored_outlinks() if verdict.follow else []
            self.frontier.save_outlinks(fetched.final_url, links)
        self.ledger.finish(url, verdict.outcome, verdict.reason, reached=verdict.reached, **fields)

    def _send(self, claimed: Claimed, fetched: FetchResult, facts: Facts) -> dict[str, str | None]:
        """Send the page's document to the sink; return the fields to store with the URL
        (none for a URL that redirected: they are stored with the document's own URL)."""
        url, final, doc, digest = claimed.url, fetched.final_url, facts.page.extracted, facts.digest
        if doc is None or digest is None:
            raise AssertionError("an indexed verdict without main content")
        if final != url:
            reason = f"reached by redirect from {url}"
            fields = (fetched.headers.get("etag"), fetched.headers.get("last-modified"), digest)
            if self.frontier.record_reached(final, host_of(final), claimed.depth, url, fields):
                self.ledger.stats.record(Outcome.INDEXED, reason)  # as the report counts it
        solr_doc = build_document(
            fetched, facts.page.decoded, doc, run=self.frontier.run, digest=digest
        )
        update = claimed.content_hash is not None and self._in_index(claimed)
        self.sink.add(solr_doc, doc.text, update=update)
        if final != url:  # the document's hash and validators are its own URL's (above)
            return {}
        return {
            "content_hash": digest,
            "etag": fetched.headers.get("etag"),
            "last_modified": fetched.headers.get("last-modified"),
        }
