"""Typed records passed between the pipeline stages: fetch → decode → extract → index."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One successful HTTP exchange.

    Attributes:
        url: the URL requested first (normalized).
        final_url: the URL after redirects (normalized); the document id.
        status: HTTP status of the final response.
        headers: response headers, lower-cased names.
        body: decompressed body bytes (at most the configured size cap).
        fetched_at: UTC time as ISO 8601 (``2026-11-29T12:00:00Z``).
        depth: link distance from a seed.
    """

    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    body: bytes
    fetched_at: str
    depth: int = 0

    @property
    def content_type(self) -> str | None:
        """The raw ``Content-Type`` header value, or None."""
        return self.headers.get("content-type")


@dataclass(frozen=True, slots=True)
class DecodedText:
    """Text decoded from bytes and how the encoding was chosen.

    Attributes:
        text: the decoded text (no BOM).
        encoding: Python codec name (``cp932``, ``euc_jp``, ``iso2022_jp``, ``utf-8``,
            ``utf-16le``, ``utf-16be``, ``windows-1252``, …) or ``binary``.
        source: ``bom``, ``header``, ``meta``, ``xml``, ``sniff``, ``detected``, ``guess``
            (detected on thin evidence: unsure) or ``default``; ``""`` for binary formats.
        replacements: number of U+FFFD characters the decode produced.
        hints: declarations seen but not trusted, e.g. ``("header:iso-8859-1",)``.
    """

    text: str
    encoding: str
    source: str
    replacements: int = 0
    hints: tuple[str, ...] = ()


@dataclass(slots=True)
class ExtractedDoc:
    """What extraction finds in one page.

    Attributes:
        title: page title, a site-name part removed (:mod:`indexer.extract.titles`).
        text: main content, paragraphs separated by newlines.
        extractor: which chain step produced ``text`` (``rules``, ``semantic``, ``blocks``,
            ``dom``, ``fallback``).
        headings: heading texts inside the main content.
        description, author, lang, canonical_url: metadata or None.
        keywords: meta keywords.
        published, modified: ISO 8601 dates or None.
        outlinks: absolute URLs to follow (nofollow links excluded).
        links_found: distinct links on the page when ``outlinks`` was cut to
            ``crawl.max_links_per_page``, else 0.
        robots: meta robots directives, lower-case (``noindex``, ``nofollow``, …).
        format: the format id (:mod:`indexer.formats`), ``html`` for pages.
        created: ISO 8601 creation date of a document, or None.
        page_count: pages (PDF, slides, sheets) of a document, or None.
        note: what was left out (``text of the first 2000 of 3000 pages``), or ``""``.
        title_full: the whole ``<title>`` of a page, or ``""``.
    """

    title: str
    text: str
    extractor: str = "fallback"
    headings: list[str] = field(default_factory=list)
    description: str | None = None
    keywords: list[str] = field(default_factory=list)
    author: str | None = None
    published: str | None = None
    modified: str | None = None
    lang: str | None = None
    canonical_url: str | None = None
    outlinks: list[str] = field(default_factory=list)
    links_found: int = 0
    robots: frozenset[str] = frozenset()
    format: str = "html"
    created: str | None = None
    page_count: int | None = None
    note: str = ""
    title_full: str = ""
