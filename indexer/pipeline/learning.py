"""Template learning during a crawl: what the extraction workers get, what they teach.

Each page of a host is extracted with the host's template as known at that moment
(:mod:`indexer.extract.template`) and its block keys are counted once it is indexed.
The first pages of a new host are extracted before anything is known; they are indexed
at once with the per-page chain's text (nothing waits, a crawl stopped early has them)
and the raw bodies of a host's first ``extract.template_settle_pages`` pages are kept in
a short-lived store bounded in bytes (``extract.raw_store_bytes``). At the end of the
run, when the statistics have seen every page of the run, they are extracted again with
the template and sent again when their text changed: the first pages are often the
site's front page and tables of contents, whose links only the later pages explain
(for that reason a page dense with links, :func:`link_dense`, is stored whenever it comes).
Chosen over holding the pages back because holding delays every small host's documents
to the end of the crawl and loses them on a kill, while the store costs only memory and
a second extraction of at most ``settle`` pages a host (measured by
``scripts/eval_site.py``: column ``no-reext`` is the same crawl without the store).
Statistics carried over from an earlier run (a reindex job) make the template known
from the first page: no page is stored then.

Pages caught as site-wide duplicates must not reach :meth:`SiteLearning.indexed` with
``sitewide_duplicate=False``: they teach nothing.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from dataclasses import dataclass

from indexer.crawl.frontier import Frontier
from indexer.extract.template import NO_TEMPLATE, SiteTemplate, TemplateLearner, TemplateParams
from indexer.index.document import build_document, content_hash
from indexer.index.sink import DocumentSink
from indexer.models import FetchResult
from indexer.outcomes import Outcome
from indexer.pipeline.page import ProcessedPage, process_page
from indexer.settings import Settings

log = logging.getLogger(__name__)


# A page with at least one outlink per this many characters of text (and this many
# outlinks) is a table of contents, an index or a sitemap.
_CHARS_PER_LINK = 80
_MIN_LINKS = 20


def link_dense(page: ProcessedPage) -> bool:
    """True for a page dense with links: a table of contents, an index, a sitemap.

    Its entries name pages crawled after it, which the template statistics learn only
    later, so it is re-extracted at the run's end like a host's first pages (a storage
    decision: a page taken for one in error is only extracted twice). Its links are the
    worker's judged ones when it judged them (``page.links``), else ``outlinks``.
    """
    doc = page.extracted
    if doc is None:
        return False
    # Links judged by the worker leave ``outlinks`` empty (pipeline/page.py).
    links = len(page.links.links) if page.links is not None else len(doc.outlinks)
    return links >= _MIN_LINKS and len(doc.text) <= _CHARS_PER_LINK * links


@dataclass(frozen=True, slots=True)
class StoredPage:
    """A raw page kept for re-extraction: what indexed it, and the hash it was indexed with."""

    url: str
    fetched: FetchResult
    digest: str
    reason: str


class RawPageStore:
    """Raw pages per host, at most ``limit`` body bytes in all (later pages are not kept).

    Args:
        limit: bytes of bodies held at most; 0 keeps nothing.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._pages: dict[str, list[StoredPage]] = {}

    def put(self, host: str, page: StoredPage) -> bool:
        """Keep ``page`` unless that would pass the limit; True when kept."""
        size = len(page.fetched.body)
        if self.size + size > self.limit:
            return False
        self._pages.setdefault(host, []).append(page)
        self.size += size
        return True

    def take(self, host: str) -> list[StoredPage]:
        """Remove and return the pages of ``host``."""
        pages = self._pages.pop(host, [])
        self.size -= sum(len(p.fetched.body) for p in pages)
        return pages

    def hosts(self) -> list[str]:
        """Hosts with pages stored."""
        return list(self._pages)


class SiteLearning:
    """The crawl's side of template learning and explanations.

    Args:
        settings: ``extract.templates`` (on/off), ``template_share``,
            ``template_min_pages``, ``template_settle_pages``, ``raw_store_bytes``,
            ``explain``.
        frontier: where statistics and explanations are kept (``frontier.extract_state``).
    """

    def __init__(self, settings: Settings, frontier: Frontier) -> None:
        extract = settings.extract
        self.enabled = extract.templates
        self.explain = extract.explain
        self.profile = extract.profile
        params = TemplateParams(share=extract.template_share, min_pages=extract.template_min_pages)
        self.learner = TemplateLearner(frontier.extract_state, params)
        self.settle = max(extract.template_settle_pages, extract.template_min_pages)
        self.raw = RawPageStore(extract.raw_store_bytes if self.enabled else 0)
        self.frontier = frontier
        self.rules = tuple(extract.rules)
        self.max_links = settings.crawl.max_links_per_page
        self.resent = 0
        self._pool: Executor | None = None
        self._sink: DocumentSink | None = None

    def start(self, pool: Executor, sink: DocumentSink) -> None:
        """Use ``pool`` for re-extractions and ``sink`` for the documents they change."""
        self._pool, self._sink = pool, sink

    def page_args(self, host: str) -> tuple[SiteTemplate, bool, bool]:
        """``(template, learn, explain)`` arguments of :func:`process_page` for ``host``."""
        if not self.enabled:
            return NO_TEMPLATE, False, self.explain
        return self.learner.template(host), True, self.explain

    def indexed(
        self,
        url: str,
        host: str,
        fetched: FetchResult,
        page: ProcessedPage,
        digest: str,
        reason: str,
        *,
        sitewide_duplicate: bool = False,
    ) -> None:
        """An indexed page: keep its explanation, count its blocks, store it raw if the
        host's template was not settled when it was extracted, or if it is dense with
        links (:func:`link_dense`: a table of contents that later pages explain)."""
        if page.explanation:
            state = self.frontier.extract_state
            state.save_packed_explanation(url, self.frontier.run, page.explanation)
        if not self.enabled or sitewide_duplicate:
            return
        before = self.learner.pages(host)
        self.learner.observe(host, page.keys)
        is_page = page.extracted is not None and page.extracted.format == "html"
        if is_page and (before < self.settle or link_dense(page)):  # documents: not re-read
            self.raw.put(host, StoredPage(url, fetched, digest, reason))

    async def finish(self, stopping: bool) -> None:
        """End of the run: re-extract the stored pages of hosts whose template is known
        (unless ``stopping``), then write the statistics."""
        if not stopping:
            for host in self.raw.hosts():
                await self._reextract(host)
        self.learner.flush()

    async def _reextract(self, host: str) -> None:
        pages = self.raw.take(host)
        template = self.learner.template(host)
        if not template.known or self._pool is None:
            return
        loop = asyncio.get_running_loop()
        for stored in pages:
            fetched = stored.fetched
            try:
                page = await loop.run_in_executor(
                    self._pool,
                    process_page,
                    fetched.body,
                    fetched.content_type,
                    fetched.final_url,
                    self.rules,
                    self.max_links,
                    template,
                    False,
                    self.explain,
                    self.profile,
                )
            except Exception:  # a re-extraction failure leaves the first text indexed
                log.exception("re-extraction of %s failed", stored.url)
                continue
            self._resend(stored, page)

    def _resend(self, stored: StoredPage, page: ProcessedPage) -> None:
        doc = page.extracted
        if doc is None or not doc.text.strip() or self._sink is None:
            return
        digest = content_hash(doc, stored.fetched)
        if page.explanation:
            self.frontier.extract_state.save_packed_explanation(
                stored.url, self.frontier.run, page.explanation
            )
        if digest == stored.digest:
            return
        solr_doc = build_document(
            stored.fetched, page.decoded, doc, run=self.frontier.run, digest=digest
        )
        self._sink.add(solr_doc, doc.text, update=True)
        self.frontier.finish(
            stored.url, Outcome.INDEXED, stored.reason, reached=True, content_hash=digest
        )
        self.resent += 1
