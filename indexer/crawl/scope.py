"""Crawl scope: which URLs a crawl may queue and fetch, and why the others are refused.

A URL is admitted when it is no deeper than ``crawl.max_depth``, does not look like a trap
(a path segment repeating, or more than ``crawl.max_query_variants`` query strings of one
path), and is in :class:`Scope` (its site is a seed's or in ``crawl.allow_hosts``, it
matches ``crawl.include`` if any and no ``crawl.exclude``). Seeds skip the scope test but
not the depth and trap tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from yarl import URL

from indexer.crawl.urls import host_of, normalize_url, site_of
from indexer.errors import ConfigError, InvalidURLError
from indexer.outcomes import Outcome
from indexer.settings import CrawlSettings

_REPEATED_SEGMENTS = 3


@dataclass
class Scope:
    """Which URLs the crawl may fetch.

    A URL is in scope when its site (host without ``www.``, any scheme) is one of the seeds'
    or ``allow_hosts``, it matches one of ``include`` (if any), one of ``require`` (if any)
    and none of ``exclude``.

    Args:
        sites: allowed sites (see :func:`~indexer.crawl.urls.site_of`).
        include: compiled regexes; when non-empty a URL must match one.
        exclude: compiled regexes; a URL matching one is out of scope.
        require: compiled regexes; when non-empty a URL must match one of them too (a
            reindex job's ``--include``, added to the stored ``include``).
    """

    sites: set[str]
    include: list[re.Pattern[str]] = field(default_factory=list)
    exclude: list[re.Pattern[str]] = field(default_factory=list)
    require: list[re.Pattern[str]] = field(default_factory=list)

    def allows(self, url: str) -> bool:
        """Whether a normalized URL is in scope."""
        if site_of(host_of(url)) not in self.sites:
            return False
        if self.include and not any(p.search(url) for p in self.include):
            return False
        if self.require and not any(p.search(url) for p in self.require):
            return False
        return not any(p.search(url) for p in self.exclude)


def build_scope(
    crawl: CrawlSettings, narrow_include: Iterable[str] = (), narrow_exclude: Iterable[str] = ()
) -> Scope:
    """The crawl scope from ``crawl.seeds``, ``allow_hosts``, ``include`` and ``exclude``;
    ``narrow_include`` must hold too and ``narrow_exclude`` excludes more (a reindex job's
    ``--include`` / ``--exclude``).

    Raises:
        ConfigError: an invalid seed URL (names ``crawl.seeds``) or narrowing regex (names
            the flag).
    """
    sites: set[str] = set()
    for seed in crawl.seeds:
        try:
            sites.add(site_of(host_of(normalize_url(seed))))
        except InvalidURLError as exc:
            raise ConfigError("crawl.seeds", str(exc)) from None
    sites.update(site_of(h.lower()) for h in crawl.allow_hosts)
    include = [re.compile(p) for p in crawl.include]  # validated when settings load
    exclude = [re.compile(p) for p in crawl.exclude] + _flag_patterns("--exclude", narrow_exclude)
    return Scope(sites, include, exclude, _flag_patterns("--include", narrow_include))


def _flag_patterns(flag: str, values: Iterable[str]) -> list[re.Pattern[str]]:
    try:
        return [re.compile(v) for v in values]
    except re.error as exc:
        raise ConfigError(flag, f"invalid regular expression: {exc}") from None


def looks_like_trap(url: str) -> bool:
    """True when a path repeats one segment three or more times (calendar and link traps)."""
    segments = [s for s in URL(url).path.split("/") if s]
    counts: dict[str, int] = {}
    for segment in segments:
        counts[segment] = counts.get(segment, 0) + 1
        if counts[segment] >= _REPEATED_SEGMENTS:
            return True
    return False


def refusal(
    url: str,
    depth: int,
    crawl: CrawlSettings,
    scope: Scope,
    query_variants: Callable[[str, int], int],
    *,
    from_seed: bool = False,
) -> tuple[Outcome, str] | None:
    """Why a normalized URL may not be queued, or None when it may.

    Args:
        url: normalized URL.
        depth: its link distance from a seed.
        crawl: the ``crawl.*`` settings (``max_depth``, ``max_query_variants``).
        scope: the crawl's scope.
        query_variants: ``(url, limit) -> n``, the stored URLs of the same path with a
            query string, counted up to ``limit`` (the frontier answers it).
        from_seed: a seed is in scope by definition.

    Returns:
        ``(outcome, reason)``: ``out-of-scope`` (depth, hosts, patterns) or ``trap``.
    """
    trap = looks_like_trap(url)
    outside = not from_seed and not scope.allows(url)
    return judged_refusal(url, depth, crawl, query_variants, trap=trap, outside=outside)


def judged_refusal(
    url: str,
    depth: int,
    crawl: CrawlSettings,
    query_variants: Callable[[str, int], int],
    *,
    trap: bool,
    outside: bool,
) -> tuple[Outcome, str] | None:
    """:func:`refusal` with the URL's own tests made elsewhere (a page worker,
    :mod:`indexer.crawl.candidates`): ``trap`` (:func:`looks_like_trap`) and ``outside``
    (not in the scope). The rules apply in one order: depth, trap, query variants, scope.
    """
    if crawl.max_depth is not None and depth > crawl.max_depth:
        return Outcome.OUT_OF_SCOPE, f"deeper than crawl.max_depth={crawl.max_depth}"
    if trap:
        return Outcome.TRAP, "trap: a path segment repeats"
    limit = crawl.max_query_variants
    if "?" in url and query_variants(url, limit) >= limit:
        return Outcome.TRAP, f"trap: crawl.max_query_variants={limit} URLs of this path"
    if outside:
        return Outcome.OUT_OF_SCOPE, "outside the crawl's hosts or patterns"
    return None
