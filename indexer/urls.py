"""URL normalization, site identity and crawl scope.

Normalization (used for frontier keys and document ids): lowercase scheme and host, IDNA
hosts, default ports dropped, fragment removed, percent-encoding normalized and query
parameters sorted (w3lib ``canonicalize_url``), configured parameters such as session ids
stripped. Only ``http`` and ``https`` URLs are crawlable (RFC 9110 §4.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from w3lib.url import canonicalize_url, url_query_cleaner
from yarl import URL

from indexer.errors import InvalidURLError

_SCHEMES = frozenset({"http", "https"})
_REPEATED_SEGMENTS = 3


def normalize_url(url: str, strip_params: Iterable[str] = (), max_length: int = 2048) -> str:
    """Return the normalized form of an absolute http(s) URL.

    Args:
        url: absolute URL (may contain non-ASCII; it is percent-encoded as UTF-8).
        strip_params: query parameter names to remove (case-insensitive).
        max_length: longest accepted result, in characters.

    Raises:
        InvalidURLError: not http(s), no host, bad port, or longer than ``max_length``.
    """
    try:
        parsed = URL(url.strip())
    except (ValueError, TypeError) as exc:
        raise InvalidURLError(f"unparseable URL {url!r}: {exc}") from None
    if parsed.scheme.lower() not in _SCHEMES:
        raise InvalidURLError(f"not an http(s) URL: {url[:200]!r}")
    if not parsed.host:
        raise InvalidURLError(f"URL without a host: {url[:200]!r}")
    try:
        text = canonicalize_url(str(parsed), keep_fragments=False)
        if strip_params:
            text = _strip_params(text, strip_params)
        text = str(URL(text))  # drops default ports, lowercases the host
    except (ValueError, UnicodeError) as exc:
        raise InvalidURLError(f"cannot normalize {url[:200]!r}: {exc}") from None
    if len(text) > max_length:
        raise InvalidURLError(f"URL longer than {max_length} characters")
    return text


def _strip_params(url: str, names: Iterable[str]) -> str:
    lowered = {n.lower() for n in names}
    parsed = URL(url)
    keep = [k for k in parsed.query if k.lower() not in lowered]
    if len(keep) == len(parsed.query):
        return url
    return url_query_cleaner(url, keep, keep_fragments=False)


def host_of(url: str) -> str:
    """The host (with a non-default port) of an absolute URL, e.g. ``intra.example:8080``."""
    parsed = URL(url)
    host = parsed.host or ""
    if parsed.explicit_port and not parsed.is_default_port():
        return f"{host}:{parsed.port}"
    return host


def site_of(host: str) -> str:
    """The site a host belongs to: ``www.`` removed, so ``www.a.jp`` and ``a.jp`` are one."""
    return host[4:] if host.startswith("www.") else host


def looks_like_trap(url: str) -> bool:
    """True when a path repeats one segment three or more times (calendar and link traps)."""
    segments = [s for s in URL(url).path.split("/") if s]
    counts: dict[str, int] = {}
    for segment in segments:
        counts[segment] = counts.get(segment, 0) + 1
        if counts[segment] >= _REPEATED_SEGMENTS:
            return True
    return False


@dataclass
class Scope:
    """Which URLs the crawl may fetch.

    A URL is in scope when its site (host without ``www.``, any scheme) is one of the seeds'
    or ``allow_hosts``, it matches one of ``include`` (if any) and none of ``exclude``.

    Args:
        sites: allowed sites (see :func:`site_of`).
        include: compiled regexes; when non-empty a URL must match one.
        exclude: compiled regexes; a URL matching one is out of scope.
    """

    sites: set[str]
    include: list[re.Pattern[str]] = field(default_factory=list)
    exclude: list[re.Pattern[str]] = field(default_factory=list)

    def allows(self, url: str) -> bool:
        """Whether a normalized URL is in scope."""
        if site_of(host_of(url)) not in self.sites:
            return False
        if self.include and not any(p.search(url) for p in self.include):
            return False
        return not any(p.search(url) for p in self.exclude)
