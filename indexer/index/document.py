"""Builds the Solr document for a page: the field names of the bundled configset."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from yarl import URL

from indexer.crawl.urls import host_of, site_of
from indexer.extract.metadata import robots_directives, snippet_forbidden
from indexer.formats import MEDIA_TYPES
from indexer.index.versions import stamps
from indexer.models import DecodedText, ExtractedDoc, FetchResult


def no_snippet(fetched: FetchResult, doc: ExtractedDoc) -> bool:
    """Whether the page's robots meta tag or its ``X-Robots-Tag`` header forbids a snippet
    (:func:`indexer.extract.metadata.snippet_forbidden`): its hits are listed without one."""
    header = fetched.headers.get("x-robots-tag", "")
    return snippet_forbidden(doc.robots | robots_directives(header))


def content_hash(doc: ExtractedDoc, fetched: FetchResult) -> str:
    """SHA-1 (hex) of the title and main text, and of the ``nosnippet`` mark when the page
    has it (a page that gains or loses it is sent again): what decides "changed"."""
    mark = "\nnosnippet" if no_snippet(fetched, doc) else ""
    return hashlib.sha1(f"{doc.title}\n{doc.text}{mark}".encode()).hexdigest()


def path_segments(url: str) -> list[str]:
    """Cumulative path prefixes for drill-down: ``/a/b/c.html`` → ``["/a", "/a/b"]``."""
    parts = [p for p in URL(url).path.split("/") if p][:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def solr_date(value: str | None) -> str | None:
    """An ISO 8601 date or date-time as Solr's UTC form ``YYYY-MM-DDThh:mm:ssZ``.

    Offsets are converted to UTC; a date alone is midnight UTC. Returns None for a value
    that is not ISO 8601 (the field is then left out rather than failing the document).
    """
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("z", "Z"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _format_fields(fetched: FetchResult, extracted: ExtractedDoc) -> dict[str, Any]:
    """``format``, ``content_type`` (what the bytes are, not what the server claimed, for
    documents; the header's media type for HTML), ``created`` and ``page_count``."""
    media = (fetched.content_type or "text/html").split(";", 1)[0].strip().lower()
    if extracted.format != "html":
        media = MEDIA_TYPES[extracted.format]
    return {
        "content_type": media,
        "format": extracted.format,
        "created": solr_date(extracted.created),
        "page_count": extracted.page_count,
    }


def build_document(
    fetched: FetchResult,
    decoded: DecodedText,
    extracted: ExtractedDoc,
    *,
    run: int,
    digest: str,
) -> dict[str, Any]:
    """The Solr document (JSON-ready dict) of a page: id = its final URL, empty values (and a
    false ``nosnippet``) omitted, dates ISO 8601, stamped (:mod:`indexer.index.versions`)."""
    url, host = fetched.final_url, host_of(fetched.final_url)
    doc: dict[str, Any] = {
        "id": url,
        "url": url,
        "canonical_url": extracted.canonical_url,
        "host": host,
        "site": site_of(host),
        "path_segments": path_segments(url),
        "title": extracted.title,
        "title_full": extracted.title_full,
        "content": extracted.text,
        "headings": extracted.headings,
        "description": extracted.description,
        "keywords": extracted.keywords,
        "author": extracted.author,
        "lang": extracted.lang,
        "published": solr_date(extracted.published),
        "modified": solr_date(extracted.modified),
        **_format_fields(fetched, extracted),
        "encoding": decoded.encoding,
        "encoding_source": decoded.source,
        "encoding_replacements": decoded.replacements,
        "fetched_at": fetched.fetched_at,
        "content_hash": digest,
        "nosnippet": no_snippet(fetched, extracted) or None,
        "depth": fetched.depth,
        "crawl_run": run,
        **stamps(),
    }
    return {k: v for k, v in doc.items() if v not in (None, "", [])}
