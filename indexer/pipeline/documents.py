"""The format path every response takes: decide its format, then parse it where it belongs.

:func:`indexer.extract.formats.sniff.decide` names the format from the bytes and the
declared type. HTML goes to the page pool (:func:`indexer.pipeline.page.process_page`),
other documents to the document workers (:mod:`indexer.pipeline.docworkers`), whose limits
contain hostile files, or to the Tika service (:mod:`indexer.pipeline.tikadocs`); a format
not indexed ends here with its outcome.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from concurrent.futures import Executor

from indexer.crawl.candidates import LinkRules
from indexer.errors import DocumentError
from indexer.extract import SiteRule
from indexer.extract.formats import NOT_TEXT, Limits
from indexer.extract.formats.sniff import decide
from indexer.extract.template import NO_TEMPLATE, SiteTemplate
from indexer.models import FetchResult
from indexer.pipeline.docworkers import DocumentWorkers, Job
from indexer.pipeline.page import ProcessedPage, process_page
from indexer.pipeline.tikadocs import DocumentParsers
from indexer.settings import Settings

# (template, learn, explain) of an HTML page's extraction (:mod:`indexer.pipeline.learning`).
Learning = tuple[SiteTemplate, bool, bool]
NO_LEARNING: Learning = (NO_TEMPLATE, False, False)


def document_workers(settings: Settings, count: int) -> DocumentWorkers:
    """The document worker pool with the limits of ``extract.*``, the Tika formats sent
    to the Tika service (:class:`~indexer.pipeline.tikadocs.DocumentParsers`)."""
    extract = settings.extract
    limits = Limits(extract.max_unpacked_bytes, extract.max_pdf_pages)
    return DocumentParsers(count, limits, extract)


async def process_response(
    fetched: FetchResult,
    settings: Settings,
    pool: Executor,
    documents: DocumentWorkers,
    rules: Sequence[SiteRule] = (),
    learning: Learning = NO_LEARNING,
    links: LinkRules | None = None,
) -> ProcessedPage:
    """Decide the format of ``fetched`` and parse it; never raises for bad input.

    ``learning``: ``(template, learn, explain)`` of an HTML page (``SiteLearning.page_args``);
    with ``links`` its outlinks are judged in its worker (:mod:`indexer.crawl.candidates`).

    Returns:
        The processed page; when ``extracted`` is None, ``outcome`` (if set) and
        ``error`` say how the URL ends (``wrong-type``, ``unsupported-format``,
        ``too-large`` for HTML over ``fetch.max_body_bytes`` or a document over
        ``fetch.max_document_bytes``, or a document's outcome); ``links-only`` beside
        ``extracted`` is HTML read for its links only (``html`` not in ``crawl.formats``).
    """
    body = fetched.body
    verdict = decide(body, fetched.content_type, fetched.final_url, settings.crawl.formats)
    if verdict.format is None:
        return ProcessedPage(NOT_TEXT, None, verdict.reason, verdict.outcome)
    if verdict.format == "html":
        if verdict.outcome:  # links-only: parsed for its links, not indexed, not learnt
            page = await _page(fetched, settings, pool, rules, (*NO_LEARNING, links))
            if page.extracted is None:  # too large or not parsed: that is its outcome
                return page
            return dataclasses.replace(page, outcome=verdict.outcome, error=verdict.reason)
        return await _page(fetched, settings, pool, rules, (*learning, links))
    cap = settings.fetch.max_document_bytes
    if len(body) > cap:
        return ProcessedPage(NOT_TEXT, None, f"document body over {cap} bytes", "too-large")
    job = Job(verdict.format, body, fetched.final_url, fetched.content_type)
    answer = await documents.parse(job)
    if isinstance(answer, DocumentError):
        return ProcessedPage(NOT_TEXT, None, answer.reason, answer.outcome)
    return ProcessedPage(answer.decoded, answer.extracted)


async def _page(
    fetched: FetchResult,
    settings: Settings,
    pool: Executor,
    rules: Sequence[SiteRule],
    learning: tuple[SiteTemplate, bool, bool, LinkRules | None],
) -> ProcessedPage:
    """An HTML page in the page pool, unless it is over ``fetch.max_body_bytes``."""
    cap = settings.fetch.max_body_bytes
    if len(fetched.body) > cap:
        return ProcessedPage(NOT_TEXT, None, f"HTML body over {cap} bytes", "too-large")
    return await asyncio.get_running_loop().run_in_executor(
        pool,
        process_page,
        fetched.body,
        fetched.content_type,
        fetched.final_url,
        rules,
        settings.crawl.max_links_per_page,
        *learning[:3],
        settings.extract.profile,
        learning[3],
    )
