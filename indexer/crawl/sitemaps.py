"""Sitemaps (sitemaps.org protocol 0.9): page URLs from a host's sitemaps, for discovery.

A host's sitemaps are those named by ``Sitemap:`` lines in its robots.txt (RFC 9309 §2.2.4
leaves them to other records; protego reads them), or ``/sitemap.xml`` when robots.txt names
none. Both ``<urlset>`` and ``<sitemapindex>`` documents are read (an index's children are
fetched in turn), gzip-compressed files too (``.xml.gz`` served as-is), and plain-text
sitemaps (one URL per line). Limits from the protocol: 50,000 URLs per file; we also stop
after ``max_files`` files per host and never read more than ``max_bytes`` (decompressed) of
one file. XML is parsed without entities, DTDs or network access (no XXE).

A crawl reads an origin's sitemaps once per run (:class:`SitemapsRead`), also across the
processes of a shared frontier and across a resume: the frontier's ``meta`` keeps the run
that read them, so a process taking a host over (lease expiry or the share rebalancing) does
not fetch and queue them again.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from lxml import etree

from indexer.crawl.fetch import Fetcher
from indexer.crawl.hops import holder_may_fetch
from indexer.errors import FetchError, PermanentFetchError
from indexer.outcomes import Outcome

log = logging.getLogger(__name__)

MAX_URLS_PER_FILE = 50_000  # sitemaps.org: "no more than 50,000 URLs"
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class Sitemap:
    """One parsed sitemap file.

    Attributes:
        is_index: a ``<sitemapindex>``: ``locs`` are further sitemaps, else pages.
        locs: the ``<loc>`` URLs in document order, at most :data:`MAX_URLS_PER_FILE`.
    """

    is_index: bool
    locs: list[str]


def parse_sitemap(body: bytes, max_bytes: int) -> Sitemap:
    """Parse a sitemap file (XML, gzip-compressed XML, or plain text).

    Args:
        body: the file as fetched (Content-Encoding already removed).
        max_bytes: cap on the decompressed size of a ``.gz`` file; the rest is ignored.

    Returns:
        the sitemap; an unparseable file gives an empty one.
    """
    if body.startswith(_GZIP_MAGIC):
        body = _gunzip(body, max_bytes)
    stripped = body.lstrip()
    if not stripped.startswith(b"<"):
        lines = stripped.decode("utf-8", errors="replace").splitlines()
        urls = [u.strip() for u in lines if u.strip().startswith(("http://", "https://"))]
        return Sitemap(False, urls[:MAX_URLS_PER_FILE])
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=True
    )
    try:
        root = etree.fromstring(stripped, parser)
    except etree.XMLSyntaxError:
        return Sitemap(False, [])
    if root is None:
        return Sitemap(False, [])
    is_index = etree.QName(root).localname == "sitemapindex"
    locs: list[str] = []
    for elem in root.iter("{*}loc"):
        if elem.text and elem.text.strip():
            locs.append(elem.text.strip())
            if len(locs) >= MAX_URLS_PER_FILE:
                break
    return Sitemap(is_index, locs)


def fetchable(origin: str, allows: Callable[[str], bool], shared: bool) -> Callable[[str], bool]:
    """Which sitemap URLs the reading of ``origin``'s sitemaps may fetch: those ``allows``
    (the crawl's scope) lets in; on a frontier shared by several crawl processes only those
    on the origin's own host, whose lease the reader holds (another host's files are its
    holder's to fetch: every request to a host comes from its holder, ARCHITECTURE.md)."""
    if not shared:
        return allows
    return lambda url: allows(url) and holder_may_fetch(url, origin, shared)


class MetaStore(Protocol):
    """The frontier's ``meta`` table and current run (:class:`~indexer.crawl.frontier.Frontier`)."""

    run: int

    def meta(self, key: str) -> str | None:
        """The value under ``key``, or None."""
        ...

    def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""
        ...


@dataclass
class SitemapsRead:
    """Which origins' sitemaps this run has read: known here, else asked once per origin of
    the frontier's ``meta`` (key ``sitemaps:ORIGIN``, value the run's number), written when
    every file was read and queued. A process killed while reading leaves no mark, so the
    process taking the host over reads them in full (its lease keeps the reads one at a
    time: only the holder visits the host's URLs)."""

    _asked: set[str] = field(default_factory=set)

    def due(self, origin: str, frontier: MetaStore) -> bool:
        """Whether ``origin``'s sitemaps are still to be read in ``frontier``'s run (True
        once per origin in this process at most)."""
        if origin in self._asked:
            return False
        self._asked.add(origin)
        return frontier.meta(f"sitemaps:{origin}") != str(frontier.run)

    @staticmethod
    def done(origin: str, frontier: MetaStore) -> None:
        """``origin``'s sitemaps were read and their URLs queued in ``frontier``'s run."""
        frontier.set_meta(f"sitemaps:{origin}", str(frontier.run))


def _gunzip(data: bytes, max_bytes: int) -> bytes:
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        return inflater.decompress(data, max_bytes)
    except zlib.error:
        return b""


class SitemapReader:
    """Fetches and reads a host's sitemaps.

    Args:
        fetcher: used to GET the files.
        max_bytes: cap on one file, decompressed (bytes).
        max_files: files read per host, indexes included.
    """

    def __init__(self, fetcher: Fetcher, max_bytes: int, max_files: int = 100) -> None:
        self._fetcher = fetcher
        self._max_bytes = max_bytes
        self._max_files = max_files

    async def page_urls(
        self,
        origin: str,
        listed: Sequence[str],
        may_fetch: Callable[[str], bool],
        before_request: Callable[[str], Awaitable[None]],
    ) -> AsyncIterator[list[str]]:
        """Yield page URLs, one list per sitemap file, for the host at ``origin``.

        Args:
            origin: ``scheme://host[:port]``.
            listed: ``Sitemap:`` URLs from its robots.txt; empty means ``/sitemap.xml``.
            may_fetch: whether a sitemap URL, or a redirect target of one, may be fetched
                (the crawl's scope; :func:`fetchable`).
            before_request: awaited before each GET and redirect hop (the politeness
                turn of the URL's host).
        """
        pending = list(listed) or [f"{origin}/sitemap.xml"]
        seen: set[str] = set()
        while pending and len(seen) < self._max_files:
            url = pending.pop(0)
            if url in seen or not may_fetch(url):
                continue
            seen.add(url)
            sitemap = await self._read(url, may_fetch, before_request)
            if sitemap.is_index:
                pending.extend(sitemap.locs)
            elif sitemap.locs:
                yield sitemap.locs

    async def _read(
        self,
        url: str,
        may_fetch: Callable[[str], bool],
        before_request: Callable[[str], Awaitable[None]],
    ) -> Sitemap:
        """One sitemap file; a redirect to a URL ``may_fetch`` refuses ends it empty, one it
        allows is followed at its host's turn (``before_request``)."""

        async def hop(target: str) -> None:
            if not may_fetch(target):
                raise PermanentFetchError(url, Outcome.OUT_OF_SCOPE, f"redirect to {target}")
            await before_request(target)

        await before_request(url)
        try:
            status, body = await self._fetcher.get_text(
                url, self._max_bytes, truncate=True, before_hop=hop
            )
        except FetchError as exc:
            log.info("sitemap %s not read: %s", url, exc.reason)
            return Sitemap(False, [])
        if status != 200:
            return Sitemap(False, [])
        return parse_sitemap(body, self._max_bytes)
