"""A page's outlinks made into frontier candidates where the page was parsed (a worker).

The work that costs per link — URL normalization (:func:`~indexer.crawl.urls.normalize_url`),
the host, the trap test and the scope test (:mod:`indexer.crawl.scope`) — runs in the
worker process that extracted the page, with duplicates within the page removed there. The
crawl process gets :class:`Candidates` and does only what needs its own state: the
site's preferred origin (:class:`~indexer.crawl.urls.SiteAliases`), the depth limit and the
frontier's query-variant count (:func:`~indexer.crawl.scope.judged_refusal`, the same order
of rules as :func:`~indexer.crawl.scope.refusal`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from indexer.crawl.scope import Scope, looks_like_trap
from indexer.crawl.urls import host_of, normalize_url
from indexer.errors import InvalidURLError
from indexer.settings import CrawlSettings

#: What the worker found out about a link: admitted, a trap, outside the scope.
ADMITTED, TRAP, OUTSIDE = "", "trap", "outside"


@dataclass(frozen=True, slots=True)
class LinkRules:
    """What a worker needs to judge a page's links (picklable; sent with each page).

    Attributes:
        strip_params: ``crawl.strip_params`` (query parameters removed).
        max_url_length: ``crawl.max_url_length`` in characters (longer: a trap).
        scope: the crawl's scope (:func:`~indexer.crawl.scope.build_scope`).
    """

    strip_params: tuple[str, ...]
    max_url_length: int
    scope: Scope


@dataclass(frozen=True, slots=True)
class Link:
    """One normalized outlink: its URL, its host and the worker's finding
    (:data:`ADMITTED`, :data:`TRAP` or :data:`OUTSIDE`)."""

    url: str
    host: str
    finding: str = ADMITTED


@dataclass(frozen=True, slots=True)
class Candidates:
    """A page's outlinks, judged by the worker.

    Attributes:
        links: normalized and unique, in page order.
        invalid: ``(url, outcome, reason)`` for links that cannot be normalized (the URL
            cut to 2,048 characters of valid UTF-8; outcome ``invalid-url`` or ``trap``).
        seen: the links the page gave (before normalization and de-duplication).
    """

    links: tuple[Link, ...] = ()
    invalid: tuple[tuple[str, str, str], ...] = ()
    seen: int = 0

    def stored(self) -> list[str]:
        """Every URL to remember as the page's outlinks (followed again on a 304)."""
        return [link.url for link in self.links] + [url for url, _, _ in self.invalid]


def link_rules(crawl: CrawlSettings, scope: Scope) -> LinkRules:
    """The :class:`LinkRules` of a crawl: its ``crawl.*`` settings and its scope."""
    return LinkRules(tuple(crawl.strip_params), crawl.max_url_length, scope)


def judge_links(raw: Iterable[str], rules: LinkRules) -> Candidates:
    """Normalize ``raw`` absolute URLs, drop the page's duplicates, find traps and links
    outside the scope; never raises for a bad URL (it goes to ``invalid``)."""
    links: list[Link] = []
    invalid: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    count = 0
    for url in raw:
        count += 1
        try:
            norm = normalize_url(url, rules.strip_params, rules.max_url_length)
        except InvalidURLError as exc:
            invalid.append((printable(url), exc.outcome, str(exc)[:300]))
            continue
        if norm in seen:
            continue
        seen.add(norm)
        links.append(Link(norm, host_of(norm), _finding(norm, rules.scope)))
    return Candidates(tuple(links), tuple(invalid), count)


def _finding(url: str, scope: Scope) -> str:
    if looks_like_trap(url):
        return TRAP
    return ADMITTED if scope.allows(url) else OUTSIDE


def printable(raw: str) -> str:
    """A bad URL as it can be stored and reported: at most 2048 characters, valid UTF-8."""
    return raw[:2048].encode("utf-8", "replace").decode("utf-8")
