"""The crawl: the composition root, the only place that builds real clients.

1. Seeds are normalized (:mod:`indexer.crawl.urls`) and queued in the :class:`Frontier`.
2. The dispatcher (:mod:`indexer.pipeline.dispatch`) claims a URL of a host whose politeness
   slot is free, within ``fetch.concurrency`` and the page limits.
3. Each claimed URL is visited (:mod:`indexer.pipeline.visit`): robots.txt, fetch, decode
   and extract in the process pool, the verdict (:mod:`indexer.pipeline.verdict`).
4. Outlinks in scope are queued; the document goes to the durable outbox and/or the
   ``--out`` JSON-lines file (:mod:`indexer.index.sink`); the URL's outcome goes to the
   frontier.
5. The index stage (:mod:`indexer.index.stage`) drains the outbox into Solr; while Solr is
   down, dispatching pauses (back-pressure).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.fetch import Fetcher, build_session
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.frontier.progress import ProgressWriter
from indexer.crawl.hostfail import HostFailures
from indexer.crawl.login import LoginRules
from indexer.crawl.membudget import MemoryBudget
from indexer.crawl.politeness import Politeness
from indexer.crawl.retry import RetryPolicy
from indexer.crawl.robots import RobotsCache, robots_network_retry
from indexer.crawl.scope import build_scope
from indexer.crawl.sitemaps import SitemapReader
from indexer.crawl.urls import SiteAliases, host_of, normalize_url
from indexer.errors import FrontierLostError, IndexerError, InvalidURLError
from indexer.index.client import SolrClient
from indexer.index.outbox import OUTBOX, claim_outbox
from indexer.index.sink import DocumentSink
from indexer.outcomes import Outcome
from indexer.pipeline.dispatch import Dispatcher
from indexer.pipeline.documents import document_workers
from indexer.pipeline.learning import SiteLearning
from indexer.pipeline.ledger import Ledger
from indexer.pipeline.phases import (
    DRAIN_SHARE,
    EXIT_CODES,
    Phase,
    RunEnd,
    RunPhases,
    StopEvent,
    settle_in_flight,
    stop_remaining,
)
from indexer.pipeline.reconcile import MISSED
from indexer.pipeline.sitewide import SitewideDuplicates
from indexer.pipeline.verdict import ReindexPolicy
from indexer.pipeline.visit import Clients, Visitor
from indexer.pipeline.workers import page_pool, page_workers, warm_up
from indexer.report import RUN_NOTES, RunStats, run_notes
from indexer.settings import Settings
from indexer.solr.search import check_target


@dataclass
class CrawlOptions:
    """Per-run choices that are not settings.

    Attributes:
        out: JSON-lines file written anew with every indexed document, or None.
        use_solr: send documents to Solr through the outbox.
        on_progress: called about once a second with the running stats.
        reindex: the reindex policy (unchanged pages skipped, deletes deferred, the ids in
            the index), or None for an ordinary crawl.
        on_change: called as ``(action, doc_id)`` for each planned index change, action
            ``add`` (new), ``update`` (indexed before) or ``delete``.
        follow_links: queue the outlinks of fetched pages (False: only what is queued
            already is fetched, as the re-send path of ``reindex --repair`` wants).
        stop: set to stop the run (a :class:`StopEvent` times the stop budget).
        client: the Solr client for the index stage (default: the real one).
        keep_open: a run that completes is left open for the caller to end (reindex
            reconciles first); interrupted and failed runs are ended all the same.
        recheck: URLs (ids the index holds) queued after the seeds, so that their answer
            decides whether their documents stay (reindex reconciliation).
        narrow_include, narrow_exclude: regexes added to the scope as conditions that must
            hold too (a reindex job's ``--include`` / ``--exclude``).
        lift: seeds a user named on the command line: their tombstones (and their
            hosts') left by ``indexer delete`` are lifted (:mod:`indexer.crawl.frontier.
            tombstones`); stored seeds never lift one.
    """

    out: Path | None = None
    use_solr: bool = True
    on_progress: Callable[[RunStats, int], None] | None = None
    reindex: ReindexPolicy | None = None
    on_change: Callable[[str, str], None] | None = None
    follow_links: bool = True
    stop: asyncio.Event = field(default_factory=StopEvent)
    client: SolrClient | None = None
    keep_open: bool = False
    recheck: tuple[str, ...] = ()
    narrow_include: tuple[str, ...] = ()
    narrow_exclude: tuple[str, ...] = ()
    lift: tuple[str, ...] = ()


class Crawler:
    """Runs one crawl over a frontier.

    Args:
        settings: validated settings.
        frontier: opened (and locked) frontier; the crawler starts a run on it.
        options: output choices.

    Attributes:
        end: how the run ended, once :meth:`run` returned (or raised).

    Raises:
        ConfigError: an invalid seed URL.
    """

    end: RunEnd | None = None
    _error = ""

    def __init__(self, settings: Settings, frontier: Frontier, options: CrawlOptions) -> None:
        if settings.crawl.resume and not settings.crawl.seeds:  # scope comes from the seeds
            crawl = settings.crawl.model_copy(update={"seeds": frontier.stored_seeds()})
            settings = settings.model_copy(update={"crawl": crawl})
        self.settings = settings
        self.frontier = frontier
        self.options = options
        self.stats = RunStats()
        self.scope = build_scope(settings.crawl, options.narrow_include, options.narrow_exclude)
        fetch = settings.fetch
        shared = frontier.shared.politeness if frontier.shared else None  # the lease rows
        self.politeness = Politeness(fetch.delay, fetch.per_host, fetch.crawl_delay_cap, shared)
        self.retry = RetryPolicy.from_settings(fetch)
        self.ledger = Ledger(frontier, self.stats)
        self.phases = RunPhases(frontier, options.stop)
        self.sink = DocumentSink(
            settings,
            out=options.out,
            use_solr=options.use_solr,
            append=settings.crawl.resume,
            on_rejected=self._rejected,
            on_indexed=self._acknowledged,
            on_change=options.on_change,
            defer_deletes=options.reindex is not None and options.reindex.defer_deletes,
            client=options.client,
            on_commit=lambda: self.phases.enter(Phase.COMMITTING),
            buried=frontier.tombstones.buries,
            buried_among=frontier.tombstones.buried_among,
        )
        self.aliases = SiteAliases()
        self.login = LoginRules(settings.crawl)
        self.sitewide = SitewideDuplicates(settings.crawl, frontier, self.stats, self.sink.delete)
        self.dispatcher = Dispatcher(
            settings, self.ledger, self.politeness, self.scope, self.aliases
        )
        self.host_failures = HostFailures(fetch.host_failure_limit, fetch.host_failure_window)
        self.learning = SiteLearning(settings, frontier)
        self.budget = MemoryBudget(settings.crawl.memory_budget)
        self.progress = ProgressWriter(frontier.progress, "reindex" if options.reindex else "crawl")
        self._fatal: IndexerError | None = None

    async def run(self) -> RunStats:
        """Crawl until the frontier has nothing due or a limit is reached; return the stats."""
        crawl = self.settings.crawl
        if self.options.use_solr:  # fail fast on a wrong URL, core or password
            await asyncio.to_thread(check_target, self.settings.solr)
        self.frontier.start_run(crawl.resume)
        self.phases.enter(Phase.CRAWLING)
        if crawl.seeds:  # normalized: no user:password@ from a seed reaches the disk
            self.frontier.save_seeds(self._normalized(crawl.seeds))
        self.dispatcher.resume_counts()
        self.frontier.tombstones.lift(self._normalized(self.options.lift))
        for seed in self._normalized(crawl.seeds):
            self.aliases.prefer(seed)
        self.dispatcher.seed_urls = set(self._normalized(crawl.seeds))
        self.dispatcher.enqueue(crawl.seeds, 0, from_seed=True)
        recheck = [u for u in self.options.recheck if self.scope.allows(u)]
        self.dispatcher.enqueue(recheck, crawl.max_depth or 0)
        self.dispatcher.watch_queued_hosts()
        self.sink.open()
        try:
            await self._crawl()
            if not self.options.stop.is_set():
                self._finish_left_over()
        except FrontierLostError as exc:  # the shared frontier went away: stop, say so
            self._stop_on(exc)
        except OSError as exc:  # a full disk, an --out that cannot be written: run failed
            self._error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a bug: the run is failed, the traceback goes to main()
            self._error = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            await self._close_run()
        if self._fatal is not None:  # a state or --out file could not be written
            raise self._fatal
        return self.stats

    async def _close_run(self) -> None:
        """Drain and commit (within the stop budget once stopped), then end the run."""
        stop = self.options.stop
        share = min(DRAIN_SHARE, self.settings.solr.stop_drain_timeout)
        with contextlib.suppress(FrontierLostError):  # said by _conclude
            self.phases.enter(Phase.DRAINING)
        await self.sink.close(stop, lambda: stop_remaining(stop, share))
        self.stats.pending = self.sink.pending
        with contextlib.suppress(FrontierLostError):  # said by _conclude
            self.frontier.outbox_left(self.sink.pending)  # a shared run ends when all are empty
        self.stats.indexed -= self.learning.resent  # documents sent again count once
        self.stats.removed_chars = self.sink.removed_chars
        self.end = self._conclude(stop.is_set())
        self.stats.ended(self.end.phase, self.end.stopped_in, self.end.reason)
        if self._fatal is None:  # for `indexer report`: what the outcomes do not say
            self._progress(self.stats, self.frontier.queued_count(), final=True)
            self.frontier.set_meta(RUN_NOTES, run_notes(self.stats.summary()))

    def _conclude(self, stopped: bool) -> RunEnd:
        """End the run (:meth:`RunPhases.conclude`); when the shared frontier went away its
        run record stays open for ``--resume`` and the run ends ``failed`` here only."""
        fatal = str(self._fatal) if self._fatal is not None else ""
        failure = self.sink.failure or self._error or fatal
        try:
            return self.phases.conclude(
                stopped=stopped,
                failure=failure,
                pending=self.sink.pending,
                keep_open=self.options.keep_open,
            )
        except FrontierLostError as exc:
            self._stop_on(exc)
            reason = "the PostgreSQL of the shared frontier went away"
            return RunEnd(Phase.FAILED, EXIT_CODES[Phase.FAILED], reason, self.phases.stopped_in())

    def _stop_on(self, exc: IndexerError) -> None:
        """A state or ``--out`` file failed: stop dispatching; :meth:`run` raises it. When
        the shared frontier went away the visits in flight are cancelled at once: none of
        their outcomes could be stored, so their documents must not be written either."""
        self._fatal = self._fatal or exc
        self.options.stop.set()
        if isinstance(exc, FrontierLostError):
            for task in self.dispatcher.in_flight:
                task.cancel()

    async def _crawl(self) -> None:
        """Open the process pool and the HTTP session, then dispatch until done."""
        fetch = self.settings.fetch
        workers = page_workers(self.settings.extract.workers)
        documents = document_workers(self.settings, max(1, workers))
        with page_pool(workers, self.settings.extract.worker_feed) as pool, documents:
            warm_up(pool, workers)
            self.learning.start(pool, self.sink)
            async with build_session(fetch, self.politeness.sent) as session:
                fetcher = Fetcher(session, fetch, self.settings.crawl.strip_params)
                robots = RobotsCache(
                    fetcher,
                    fetch.user_agent,
                    fetch.robots_retry,
                    robots_network_retry(fetch),
                    lambda u: self.politeness.turn(host_of(u)),  # a redirect's host
                    self.frontier.shared.robots if self.frontier.shared else None,
                )
                sitemaps = SitemapReader(
                    fetcher, fetch.max_body_bytes, self.settings.crawl.sitemap_max_files
                )
                visitor = self._visitor(Clients(fetcher, robots, sitemaps, pool, documents))
                stop = self.options.stop
                with self.frontier.grouped(*self.sink.state_connections()):  # see .groups
                    await self._dispatch(visitor, stop)
                self.budget.log_summary()
                if stop.is_set():  # the held pages are fetched again on resume
                    self.sitewide.requeue_held()
                else:
                    self.sitewide.release_all()
            await self.learning.finish(stopping=self.options.stop.is_set())

    async def _dispatch(self, visitor: Visitor, stop: asyncio.Event) -> None:
        """Dispatch until done; when the shared frontier goes away, stop as a signal would
        (the visits in flight get the stop budget, the rest are cancelled)."""
        ready = lambda: self.sink.wait_ready(stop)  # noqa: E731
        try:
            await self.dispatcher.run(visitor.visit, ready, stop, self._progress)
        except FrontierLostError as exc:
            self._stop_on(exc)
            await settle_in_flight(self.dispatcher.in_flight, stop)

    def _visitor(self, clients: Clients) -> Visitor:
        return Visitor(
            settings=self.settings,
            ledger=self.ledger,
            politeness=self.politeness,
            scope=self.scope,
            aliases=self.aliases,
            sink=self.sink,
            rules=self.settings.extract.rules,
            retry=self.retry,
            reindex=self.options.reindex,
            enqueue=self.dispatcher.enqueue,
            clients=clients,
            host_failures=self.host_failures,
            on_fatal=self._stop_on,
            follow_links=self.options.follow_links,
            login=self.login,
            sitewide=self.sitewide,
            learning=self.learning,
            budget=self.budget,
        )

    def _progress(self, stats: RunStats, queued: int, final: bool = False) -> None:
        """Pass the stats on (``options.on_progress``) and write them into the crawl state
        every 2 s, and at the run's end (:mod:`indexer.crawl.frontier.progress`)."""
        if self.options.on_progress is not None and not final:
            self.options.on_progress(stats, queued)
        counts = {"fetched": stats.fetched, "indexed": stats.indexed, "queued": queued}
        counts["outbox"] = self.sink.backlog()
        write = self.progress.finish if final else self.progress.update
        write(self.frontier.run, counts, stats.waiting, stats.outcomes)

    def _normalized(self, urls: Iterable[str]) -> list[str]:
        result = []
        for url in urls:
            with contextlib.suppress(InvalidURLError):
                result.append(normalize_url(url, self.settings.crawl.strip_params))
        return result

    def _finish_left_over(self) -> None:
        """URLs still queued when a page limit ended the run get outcome ``max-pages``."""
        crawl = self.settings.crawl
        for host, count in self.dispatcher.per_host.items():
            if crawl.max_pages_per_host is not None and count >= crawl.max_pages_per_host:
                reason = f"crawl.max_pages_per_host={crawl.max_pages_per_host} reached"
                self.ledger.finish_queued(Outcome.MAX_PAGES, reason, host)
        if not self.dispatcher.limit_reached():  # it ran out of URLs it may claim: on a
            return  # shared frontier those left are other processes' (held elsewhere, late)
        reason = f"crawl.max_pages={crawl.max_pages} reached"
        self.ledger.finish_queued(Outcome.MAX_PAGES, reason)

    def _acknowledged(self, count: int) -> None:
        self.stats.indexed += count

    def _rejected(self, doc_id: str, message: str) -> None:
        self.frontier.finish(doc_id, Outcome.INDEX_REJECTED, message[:300])
        if self.stats.outcomes[Outcome.INDEXED] > 0:  # it may come from an earlier run's outbox
            self.stats.outcomes[Outcome.INDEXED] -= 1
        self.stats.record(Outcome.INDEX_REJECTED, message[:200])


async def run_crawl(
    settings: Settings,
    *,
    out: Path | None = None,
    use_solr: bool = True,
    on_progress: Callable[[RunStats, int], None] | None = None,
    stop: asyncio.Event | None = None,
) -> RunStats:
    """Run one crawl over ``settings.crawl.data_dir`` (the library form of ``indexer crawl``).

    Args:
        settings: validated settings (``load_settings(...).settings``); ``crawl.seeds`` or
            ``crawl.resume`` says where to start.
        out: JSON-lines file to write every indexed document to, or None.
        use_solr: send documents to Solr (``solr.*``) through the durable outbox.
        on_progress: called about once a second with the stats and the queue length.
        stop: set it to end the crawl after the pages in flight (resumable).

    Returns:
        the run's counters (:class:`~indexer.report.RunStats`).

    Raises:
        ConfigError: bad seeds or settings. CrawlLockedError: another crawl holds the data
        directory. StateError: a state file is broken, or missing for ``crawl.resume``.
        StorageError: a state or ``--out`` file cannot be written (disk full).
        SolrError: Solr cannot be reached or refuses the credentials.
    """
    options = CrawlOptions(out=out, use_solr=use_solr, on_progress=on_progress)
    if stop is not None:
        options.stop = stop
    with open_frontier(settings, create=not settings.crawl.resume) as frontier:
        frontier.data_dir.verify((OUTBOX, MISSED))
        if use_solr:
            claim_outbox(frontier)
        return await Crawler(settings, frontier, options).run()
