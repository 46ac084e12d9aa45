"""The crawl: stages joined together; the only place that builds real clients.

1. Seeds are normalized (:mod:`indexer.crawl.urls`) and queued in the :class:`Frontier`.
2. The dispatcher claims a URL of a host whose politeness slot is free
   (:mod:`indexer.crawl.politeness`), within ``fetch.concurrency`` and the page limits.
3. robots.txt is checked (:mod:`indexer.crawl.robots`), then :mod:`indexer.crawl.fetch` downloads
   (redirect hops re-checked against scope and robots.txt; conditional GET).
4. Decode and extract run in a process pool (:func:`indexer.pipeline.page.process_page`), off the
   event loop.
5. Outlinks in scope are queued; the document goes to the durable outbox and/or the
   ``--out`` JSON-lines file; the URL's outcome goes to the frontier.
6. The index stage (:mod:`indexer.index.stage`) drains the outbox into Solr; while Solr is
   down, dispatching pauses (back-pressure).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.fetch import Fetcher, Validators, build_session
from indexer.crawl.frontier import Claimed, Frontier
from indexer.crawl.politeness import Politeness
from indexer.crawl.retry import RetryPolicy, decide
from indexer.crawl.robots import NETWORK_FAILURES, RobotsCache
from indexer.crawl.sitemaps import SitemapReader
from indexer.crawl.urls import (
    Scope,
    SiteAliases,
    host_of,
    looks_like_trap,
    normalize_url,
    origin_of,
    site_of,
)
from indexer.errors import (
    ConfigError,
    FetchError,
    InvalidURLError,
    PermanentFetchError,
    RetryableFetchError,
)
from indexer.extract import SiteRule
from indexer.index.document import build_document, content_hash
from indexer.index.sink import DocumentSink
from indexer.models import FetchResult
from indexer.pipeline.learning import SiteLearning
from indexer.pipeline.page import ProcessedPage, process_page
from indexer.pipeline.workers import page_pool, warm_up
from indexer.report import RunStats
from indexer.settings import Settings
from indexer.solr.search import check_target

log = logging.getLogger(__name__)

_GONE = frozenset({"http-404", "http-410"})


@dataclass
class CrawlOptions:
    """Per-run choices that are not settings.

    Attributes:
        out: JSON-lines file written anew with every indexed document, or None.
        use_solr: send documents to Solr through the outbox.
        on_progress: called about once a second with the running stats.
        skip_unchanged: a page whose main-content hash equals the stored one is not sent
            again (outcome ``unchanged``); reindex jobs use it.
        defer_deletes: deletes are collected in :attr:`Crawler.deferred_deletes` instead of
            being sent, so that a guard can review them (reindex).
        present: ids known to be in the index, or None (unknown: assume all are). A page
            not in it is fetched without validators and sent even when unchanged, so a
            document lost from the index comes back.
        on_change: called as ``(action, doc_id)`` for each planned index change, action
            ``add`` (new), ``update`` (indexed before) or ``delete``.
    """

    out: Path | None = None
    use_solr: bool = True
    on_progress: Callable[[RunStats, int], None] | None = None
    skip_unchanged: bool = False
    present: frozenset[str] | None = None
    defer_deletes: bool = False
    on_change: Callable[[str, str], None] | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)


def build_scope(settings: Settings) -> Scope:
    """The crawl scope from seeds, ``crawl.allow_hosts``, ``include`` and ``exclude``.

    Raises:
        ConfigError: an invalid regex or seed URL (names the setting).
    """
    crawl = settings.crawl
    sites: set[str] = set()
    for seed in crawl.seeds:
        try:
            sites.add(site_of(host_of(normalize_url(seed))))
        except InvalidURLError as exc:
            raise ConfigError("crawl.seeds", str(exc)) from None
    sites.update(site_of(h.lower()) for h in crawl.allow_hosts)
    return Scope(
        sites, _patterns("crawl.include", crawl.include), _patterns("crawl.exclude", crawl.exclude)
    )


def _patterns(setting: str, values: Iterable[str]) -> list[re.Pattern[str]]:
    try:
        return [re.compile(v) for v in values]
    except re.error as exc:
        raise ConfigError(setting, f"invalid regular expression: {exc}") from None


def site_rules(settings: Settings) -> tuple[SiteRule, ...]:
    """Site rules from ``extract.rules``.

    Raises:
        ConfigError: a malformed rule.
    """
    return tuple(SiteRule.from_mapping(rule) for rule in settings.extract.rules)


class Crawler:
    """Runs one crawl over a frontier.

    Args:
        settings: validated settings.
        frontier: opened (and locked) frontier; the crawler starts a run on it.
        options: output choices.
    """

    def __init__(self, settings: Settings, frontier: Frontier, options: CrawlOptions) -> None:
        if settings.crawl.resume and not settings.crawl.seeds:  # scope comes from the seeds
            crawl = settings.crawl.model_copy(update={"seeds": frontier.stored_seeds()})
            settings = settings.model_copy(update={"crawl": crawl})
        self.settings = settings
        self.frontier = frontier
        self.options = options
        self.stats = RunStats()
        self.scope = build_scope(settings)
        self.rules = site_rules(settings)
        self.politeness = Politeness(
            settings.fetch.delay, settings.fetch.per_host, settings.fetch.crawl_delay_cap
        )
        self.policy = RetryPolicy(
            settings.fetch.max_attempts,
            settings.fetch.backoff_base,
            settings.fetch.backoff_max,
            settings.fetch.retry_after_cap,
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._hosts: set[str] = set()
        self._per_host: dict[str, int] = {}
        self._fetched = 0
        self.sink = DocumentSink(
            settings,
            out=options.out,
            use_solr=options.use_solr,
            append=settings.crawl.resume,
            on_rejected=self._rejected,
            on_indexed=self._acknowledged,
            on_change=options.on_change,
            defer_deletes=options.defer_deletes,
        )
        self.aliases = SiteAliases()
        self.learning = SiteLearning(settings, frontier, self.rules)
        self._sitemap_origins: set[str] = set()
        self._sitemap_reader: SitemapReader | None = None

    # -- top level -------------------------------------------------------------------------

    async def run(self) -> RunStats:
        """Crawl until the frontier has nothing due or a limit is reached; return the stats."""
        crawl = self.settings.crawl
        if self.options.use_solr:  # fail fast on a wrong URL, core or password
            await asyncio.to_thread(check_target, self.settings.solr)
        self.frontier.start_run(crawl.resume)
        if crawl.seeds:  # normalized: no user:password@ from a seed reaches the disk
            self.frontier.save_seeds(self._normalized(crawl.seeds))
        self._fetched = self.frontier.fetched_in_run()
        self._per_host = self.frontier.fetched_in_run_by_host()
        self._prefer_seed_origins()
        self._enqueue(crawl.seeds, 0, from_seed=True)
        self._hosts = set(self.frontier.hosts_with_queued())
        workers = self.settings.extract.workers or os.cpu_count() or 1
        self.sink.open()
        try:
            with page_pool(workers) as pool:
                warm_up(pool, workers)
                self.learning.start(pool, self.sink)
                async with build_session(self.settings.fetch, self.politeness.sent) as session:
                    fetcher = Fetcher(session, self.settings.fetch, crawl.strip_params)
                    fetch = self.settings.fetch
                    robots = RobotsCache(
                        fetcher,
                        fetch.user_agent,
                        fetch.robots_retry,
                        network_retry=min(fetch.robots_retry, 4 * fetch.backoff_base),
                    )
                    self._sitemap_reader = SitemapReader(
                        fetcher, self.settings.fetch.max_body_bytes
                    )
                    await self._dispatch(fetcher, robots, pool)
                await self.learning.finish(stopping=self.options.stop.is_set())
            if not self.options.stop.is_set():
                self._finish_left_over()
                self.frontier.finish_run()
        finally:
            await self.sink.close(stopping=self.options.stop.is_set())
            self.stats.pending = self.sink.pending
            self.stats.indexed -= self.learning.resent  # documents sent again count once
        return self.stats

    def _in_index(self, url: str) -> bool:
        return self.options.present is None or url in self.options.present

    def _validators(self, claimed: Claimed) -> Validators:
        """Stored validators for a conditional GET, unless the document left the index."""
        if not self._in_index(claimed.url):
            return Validators()
        return Validators(claimed.etag, claimed.last_modified)

    def _normalized(self, urls: Iterable[str]) -> list[str]:
        result = []
        for url in urls:
            with contextlib.suppress(InvalidURLError):
                result.append(normalize_url(url, self.settings.crawl.strip_params))
        return result

    def _prefer_seed_origins(self) -> None:
        for seed in self.settings.crawl.seeds:
            with contextlib.suppress(InvalidURLError):
                self.aliases.prefer(normalize_url(seed, self.settings.crawl.strip_params))

    def _finish_left_over(self) -> None:
        """URLs still queued when a page limit ended the run get outcome ``max-pages``."""
        crawl = self.settings.crawl
        for host, count in self._per_host.items():
            if crawl.max_pages_per_host is not None and count >= crawl.max_pages_per_host:
                reason = f"crawl.max_pages_per_host={crawl.max_pages_per_host} reached"
                self.stats.record_many(
                    "max-pages", reason, self.frontier.finish_queued("max-pages", reason, host)
                )
        reason = f"crawl.max_pages={crawl.max_pages} reached"
        self.stats.record_many(
            "max-pages", reason, self.frontier.finish_queued("max-pages", reason)
        )

    def _acknowledged(self, count: int) -> None:
        self.stats.indexed += count

    def _rejected(self, doc_id: str, message: str) -> None:
        self.frontier.finish(doc_id, "index-rejected", message[:300])
        if self.stats.outcomes["indexed"] > 0:  # it may come from an earlier run's outbox
            self.stats.outcomes["indexed"] -= 1
        self.stats.record("index-rejected", message[:200])

    # -- dispatching -----------------------------------------------------------------------

    async def _dispatch(
        self, fetcher: Fetcher, robots: RobotsCache, pool: ProcessPoolExecutor
    ) -> None:
        last_progress = 0.0
        while not self.options.stop.is_set():
            await self.sink.wait_ready(self.options.stop)
            wait = self._launch(fetcher, robots, pool)
            if not self._tasks and wait is None:
                break
            if time.monotonic() - last_progress >= 1.0 and self.options.on_progress:
                self.options.on_progress(self.stats, self.frontier.queued_count())
                last_progress = time.monotonic()
            timeout = 1.0 if wait is None else min(max(wait, 0.005), 1.0)
            if self._tasks:
                await asyncio.wait(
                    self._tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
            else:
                await asyncio.sleep(timeout)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _launch(
        self, fetcher: Fetcher, robots: RobotsCache, pool: ProcessPoolExecutor
    ) -> float | None:
        """Start every URL whose host is ready; return seconds until the next may be, or None
        when nothing is queued at all."""
        fetch = self.settings.fetch
        now_m, now = time.monotonic(), time.time()
        soonest: float | None = None
        for host in sorted(self._hosts):
            if len(self._tasks) >= fetch.concurrency or self._limit_reached():
                return 1.0 if self._tasks else None
            if self._host_limit_reached(host):
                self._hosts.discard(host)
                continue
            ready = self.politeness.ready_at(host)
            if ready is None or ready > now_m:
                if not self._tasks and self.frontier.next_due(host) is None:
                    self._hosts.discard(host)  # nothing left: do not wait for its next slot
                    continue
                soonest = _min(soonest, 0.05 if ready is None else ready - now_m)
                continue
            claimed = self.frontier.claim(host, now)
            if claimed is None:
                due = self.frontier.next_due(host)
                if due is None:
                    self._hosts.discard(host)
                else:
                    soonest = _min(soonest, due - now)
                continue
            self._start(claimed, fetcher, robots, pool)
            soonest = 0.0
        if soonest is None and self._tasks:
            soonest = 1.0
        return soonest

    def _limit_reached(self) -> bool:
        limit = self.settings.crawl.max_pages
        return limit is not None and self._fetched >= limit

    def _host_limit_reached(self, host: str) -> bool:
        limit = self.settings.crawl.max_pages_per_host
        return limit is not None and self._per_host.get(host, 0) >= limit

    def _start(
        self, claimed: Claimed, fetcher: Fetcher, robots: RobotsCache, pool: ProcessPoolExecutor
    ) -> None:
        if claimed.attempts == 0:
            self._fetched += 1
            self._per_host[claimed.host] = self._per_host.get(claimed.host, 0) + 1
        self.politeness.enter(claimed.host)
        task = asyncio.create_task(self._visit(claimed, fetcher, robots, pool))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- one URL -----------------------------------------------------------------------------

    async def _visit(
        self, claimed: Claimed, fetcher: Fetcher, robots: RobotsCache, pool: ProcessPoolExecutor
    ) -> None:
        try:
            await self._visit_inner(claimed, fetcher, robots, pool)
        except asyncio.CancelledError:
            self.frontier.release(claimed.url)
            raise
        except Exception as exc:  # a bug must not end the crawl: record it against the URL
            log.exception("unexpected error on %s", claimed.url)
            self._finish(claimed.url, "extract-error", f"internal error: {exc!r}"[:300])
        finally:
            self.politeness.leave(claimed.host)

    async def _visit_inner(
        self, claimed: Claimed, fetcher: Fetcher, robots: RobotsCache, pool: ProcessPoolExecutor
    ) -> None:
        url, host = claimed.url, claimed.host
        if not await self._robots_allow(claimed, robots):
            return
        try:
            fetched = await fetcher.fetch(
                url,
                self._validators(claimed),
                check_hop=lambda target: self._check_hop(url, target, robots),
                before_request=lambda u: self.politeness.turn(host_of(u)),
            )
        except RetryableFetchError as exc:
            self.stats.fetched += 1
            self._retry(claimed, exc)
            return
        except FetchError as exc:
            self.stats.fetched += 1
            self._failed(claimed, exc)
            return
        self.stats.fetched += 1
        fetched = dataclasses.replace(fetched, depth=claimed.depth)
        if fetched.status == 304:
            self._finish(url, "not-modified", "", reached=True)
            return
        loop = asyncio.get_running_loop()
        page: ProcessedPage = await loop.run_in_executor(
            pool,
            process_page,
            fetched.body,
            fetched.content_type,
            fetched.final_url,
            self.rules,
            *self.learning.page_args(host),
        )
        self._handle_page(claimed, fetched, page, host)

    async def _robots_allow(self, claimed: Claimed, robots: RobotsCache) -> bool:
        """Whether robots.txt allows the URL; an unavailable robots.txt defers it."""
        url, host = claimed.url, claimed.host
        if not robots.is_cached(url):
            await self.politeness.turn(host)
        allowed, reason = await robots.allowed(url)
        self.politeness.set_crawl_delay(host, await robots.crawl_delay(url))
        retry_at = robots.unavailable_until(url)
        if retry_at is not None and claimed.attempts + 1 < self.settings.fetch.max_attempts:
            self.stats.retries["robots-unavailable"] += 1
            self.frontier.retry_later(url, retry_at, reason)
            return False
        if not allowed:
            failure = robots.failure(url)
            if failure in NETWORK_FAILURES:
                self._finish(url, failure, f"host unreachable: {reason}")
            else:
                self._finish(url, "robots-disallowed", reason)
            return False
        await self._discover_sitemaps(url, robots)
        return True

    async def _discover_sitemaps(self, url: str, robots: RobotsCache) -> None:
        """Queue the URLs of the host's sitemaps, once per origin and run (depth 1)."""
        origin = origin_of(url)
        if self._sitemap_reader is None or not self.settings.crawl.sitemaps:
            return
        if origin in self._sitemap_origins:
            return
        self._sitemap_origins.add(origin)
        listed = await robots.sitemaps(url)
        pages = self._sitemap_reader.page_urls(
            origin, listed, self.scope.allows, lambda u: self.politeness.turn(host_of(u))
        )
        async for batch in pages:
            self._enqueue(batch, 1)

    async def _check_hop(self, first: str, target: str, robots: RobotsCache) -> None:
        if not self.scope.allows(target):
            raise PermanentFetchError(first, "out-of-scope", f"redirect to {target}")
        allowed, reason = await robots.allowed(target)
        if robots.unavailable_until(target) is not None:  # its host is down: try again later
            raise RetryableFetchError(
                first, "robots-unavailable", f"redirect to {target}: {reason}"
            )
        if not allowed:
            raise PermanentFetchError(first, "robots-disallowed", f"redirect to {target}: {reason}")

    def _retry(self, claimed: Claimed, exc: RetryableFetchError) -> None:
        if exc.retry_after is not None:
            self.politeness.slow_down(
                claimed.host, min(exc.retry_after, self.settings.fetch.retry_after_cap)
            )
        decision = decide(claimed.attempts + 1, exc.retry_after, self.policy)
        if decision.delay is None:
            outcome = decision.outcome or exc.outcome  # no retry allowed: the failure itself
            self._finish(claimed.url, outcome, f"{exc.outcome}: {exc.reason}")
            return
        self.stats.retries[exc.outcome] += 1
        self.frontier.retry_later(claimed.url, time.time() + decision.delay, exc.reason)

    def _failed(self, claimed: Claimed, exc: FetchError) -> None:
        self._finish(claimed.url, exc.outcome, exc.reason)
        if exc.outcome in _GONE and claimed.content_hash is not None:
            self.sink.delete(claimed.url)

    def _handle_page(
        self, claimed: Claimed, fetched: FetchResult, page: ProcessedPage, host: str
    ) -> None:
        url = claimed.url
        if page.extracted is None:
            outcome = "wrong-type" if page.decoded.encoding == "binary" else "extract-error"
            self._finish(url, outcome, page.error)
            return
        doc = page.extracted
        if "nofollow" not in doc.robots and not _robots_header(fetched, "nofollow"):
            self._enqueue(doc.outlinks[: self.settings.crawl.max_links_per_page], claimed.depth + 1)
        noindex = "noindex" in doc.robots or _robots_header(fetched, "noindex")
        if noindex and self.settings.crawl.obey_noindex:
            self._finish(url, "noindex", "meta robots or X-Robots-Tag noindex")
            if claimed.content_hash is not None:
                self.sink.delete(fetched.final_url)
            return
        if self._canonical_elsewhere(fetched, doc.canonical_url, claimed.depth):
            return
        if not doc.text.strip():  # a frameset or an empty page: its links were followed
            self._finish(url, "no-content", "no main text (a frameset or an empty page)")
            if claimed.content_hash is not None:
                self.sink.delete(fetched.final_url)
            return
        digest = content_hash(doc)
        if (
            self.options.skip_unchanged
            and digest == claimed.content_hash
            and fetched.final_url == url
            and self._in_index(url)
        ):
            self._finish(url, "unchanged", "main content hash unchanged", reached=True)
            return
        twin = self.frontier.same_content(digest, claimed.host, url)
        if twin is not None:  # e.g. / and /index.html: one document, not two
            self._finish(url, "duplicate", f"same main content as {twin}")
            return
        validators = {
            "etag": fetched.headers.get("etag"),
            "last_modified": fetched.headers.get("last-modified"),
        }
        if fetched.final_url != url:
            self.aliases.learn(url, fetched.final_url)
            if self.frontier.reached_now(fetched.final_url):
                reason = f"redirects to {fetched.final_url}, already indexed in this run"
                self._finish(url, "duplicate", reason)
                return
            self.frontier.record_reached(
                fetched.final_url,
                host_of(fetched.final_url),
                claimed.depth,
                f"reached by redirect from {url}",
            )
        solr_doc = build_document(fetched, page.decoded, doc, run=self.frontier.run, digest=digest)
        self.sink.add(
            solr_doc, doc.text, update=claimed.content_hash is not None and self._in_index(url)
        )
        reason = "" if fetched.final_url == url else f"redirected to {fetched.final_url}"
        self.learning.indexed(url, claimed.host, fetched, page, digest, reason)
        self._finish(
            url,
            "indexed",
            reason,
            reached=True,
            content_hash=digest,
            **validators,
        )

    def _canonical_elsewhere(self, fetched: FetchResult, canonical: str | None, depth: int) -> bool:
        if not canonical:
            return False
        try:
            target = normalize_url(canonical, self.settings.crawl.strip_params)
        except InvalidURLError:
            return False
        if target == fetched.final_url or not self.scope.allows(target):
            return False
        self._enqueue([target], depth)
        self._finish(fetched.url, "canonical-elsewhere", f"canonical is {target}")
        return True

    def _finish(
        self, url: str, outcome: str, reason: str, *, reached: bool = False, **fields: str | None
    ) -> None:
        self.frontier.finish(url, outcome, reason, reached=reached, **fields)
        self.stats.record(outcome, reason)

    # -- queueing --------------------------------------------------------------------------

    def _enqueue(self, urls: Iterable[str], depth: int, from_seed: bool = False) -> None:
        crawl = self.settings.crawl
        entries: list[tuple[str, str, int]] = []
        for raw in urls:
            try:
                url = normalize_url(raw, crawl.strip_params, crawl.max_url_length)
                url = self.aliases.canonical(url)
            except InvalidURLError as exc:
                outcome = "trap" if "longer than" in str(exc) else "invalid-url"
                self._record(_printable(raw), "", depth, outcome, str(exc)[:300])
                continue
            host = host_of(url)
            reason = self._out_of_scope(url, depth, from_seed)
            if reason:
                outcome = "trap" if reason.startswith("trap") else "out-of-scope"
                self._record(url, host, depth, outcome, reason)
                continue
            entries.append((url, host, depth))
        if entries and self.frontier.add(entries):
            self._hosts.update(host for _, host, _ in entries)

    def _record(self, url: str, host: str, depth: int, outcome: str, reason: str) -> None:
        if self.frontier.record(url, host, depth, outcome, reason):
            self.stats.record(outcome, reason)

    def _out_of_scope(self, url: str, depth: int, from_seed: bool) -> str:
        max_depth = self.settings.crawl.max_depth
        if max_depth is not None and depth > max_depth:
            return f"deeper than crawl.max_depth={max_depth}"
        if looks_like_trap(url):
            return "trap: a path segment repeats"
        limit = self.settings.crawl.max_query_variants
        if "?" in url and self.frontier.query_variants(url, limit) >= limit:
            return f"trap: crawl.max_query_variants={limit} URLs of this path"
        if not from_seed and not self.scope.allows(url):
            return "outside the crawl's hosts or patterns"
        return ""


def _robots_header(fetched: FetchResult, directive: str) -> bool:
    value = fetched.headers.get("x-robots-tag", "").lower()
    return directive in value or (directive == "noindex" and "none" in value)


def _printable(raw: str) -> str:
    """A bad URL as it can be stored and reported: at most 2048 characters, valid UTF-8."""
    return raw[:2048].encode("utf-8", "replace").decode("utf-8")


def _min(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)
