"""URL normalization and site identity (the crawl scope is :mod:`indexer.crawl.scope`).

Normalization (used for frontier keys and document ids): lowercase scheme and host, IDNA
hosts, default ports dropped, fragment removed, percent-encoding normalized and query
parameters sorted (w3lib ``canonicalize_url``), configured parameters such as session ids
stripped (from the query and from ``;name=value`` path parameters), user information removed
(credentials come from ``fetch.auth``, never from URLs, so they never reach the frontier or a
report). Only ``http`` and ``https`` URLs on ports 1-65535 are crawlable (RFC 9110 §4.2).

Host aliases: ``www.a.jp`` and ``a.jp``, ``http`` and ``https`` are one site
(:func:`site_of`); :class:`SiteAliases` rewrites every URL of a site to one preferred origin
so that a page is queued, fetched and indexed once.
"""

from __future__ import annotations

from collections.abc import Iterable

from w3lib.url import canonicalize_url, url_query_cleaner
from yarl import URL

from indexer.errors import InvalidURLError
from indexer.outcomes import Outcome

_SCHEMES = frozenset({"http", "https"})


def normalize_url(url: str, strip_params: Iterable[str] = (), max_length: int = 2048) -> str:
    """Return the normalized form of an absolute http(s) URL.

    Args:
        url: absolute URL (may contain non-ASCII; it is percent-encoded as UTF-8).
        strip_params: query parameter names to remove (case-insensitive).
        max_length: longest accepted result, in characters.

    Raises:
        InvalidURLError: not http(s), no host or bad port (outcome ``invalid-url``), or
            longer than ``max_length`` (outcome ``trap``).
    """
    try:
        parsed = URL(url.strip())
    except (ValueError, TypeError) as exc:
        raise InvalidURLError(f"unparseable URL {url!r}: {exc}") from None
    if parsed.scheme.lower() not in _SCHEMES:
        raise InvalidURLError(f"not an http(s) URL: {url[:200]!r}")
    if not parsed.host:
        raise InvalidURLError(f"URL without a host: {url[:200]!r}")
    if parsed.port == 0:
        raise InvalidURLError(f"port 0 in {url[:200]!r}")
    try:
        if parsed.user is not None or parsed.password is not None:
            parsed = parsed.with_user(None)
        text = canonicalize_url(str(parsed), keep_fragments=False)
        if strip_params:
            text = _strip_params(text, strip_params)
        text = str(URL(text))  # drops default ports, lowercases the host
    except (ValueError, UnicodeError) as exc:
        raise InvalidURLError(f"cannot normalize {url[:200]!r}: {exc}") from None
    if len(text) > max_length:
        raise InvalidURLError(f"URL longer than {max_length} characters", Outcome.TRAP)
    return text


def _strip_params(url: str, names: Iterable[str]) -> str:
    lowered = {n.lower() for n in names}
    if ";" in url:
        url = _strip_path_params(url, lowered)
    parsed = URL(url)
    keep = [k for k in parsed.query if k.lower() not in lowered]
    if len(keep) == len(parsed.query):
        return url
    return url_query_cleaner(url, keep, keep_fragments=False)


def _strip_path_params(url: str, lowered: set[str]) -> str:
    """Remove ``;name=value`` path parameters named in ``lowered`` (``;jsessionid=…``)."""
    parsed = URL(url)
    segments = []
    for segment in parsed.raw_path.split("/"):
        head, *params = segment.split(";")
        kept = [p for p in params if p.split("=", 1)[0].lower() not in lowered]
        segments.append(";".join([head, *kept]))
    return str(parsed.with_path("/".join(segments), encoded=True, keep_query=True))


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


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an absolute URL (default port omitted)."""
    return str(URL(url).origin())


class SiteAliases:
    """One preferred origin per site, so that aliases of a page are one URL.

    The first origin seen for a site is preferred (seeds are seen first); a redirect that
    changes only the origin (``http://a.jp/x`` → ``https://www.a.jp/x``) makes its target's
    origin preferred from then on, so that later links need no redirect hop. Memory: one
    entry per site.
    """

    def __init__(self) -> None:
        self._preferred: dict[str, str] = {}

    def prefer(self, url: str) -> None:
        """Make the origin of ``url`` its site's preferred one unless the site has one."""
        self._preferred.setdefault(site_of(host_of(url)), origin_of(url))

    def learn(self, source: str, target: str) -> None:
        """Prefer ``target``'s origin when ``source`` redirected to the same path there."""
        src, dst = URL(source), URL(target)
        if src.raw_path_qs != dst.raw_path_qs or src.origin() == dst.origin():
            return
        site = site_of(host_of(source))
        if site == site_of(host_of(target)):
            self._preferred[site] = origin_of(target)

    def canonical(self, url: str) -> str:
        """``url`` with its origin replaced by its site's preferred origin, if any."""
        preferred = self._preferred.get(site_of(host_of(url)))
        if preferred is None:
            return url
        parsed = URL(url)
        if str(parsed.origin()) == preferred:
            return url
        return preferred + parsed.raw_path_qs

    def canonical_of(self, url: str, host: str) -> str:
        """:meth:`canonical` of a normalized ``url`` whose ``host`` is known: without parsing
        it when it is at its site's preferred origin already (the common case)."""
        preferred = self._preferred.get(site_of(host))
        if preferred is None or url.startswith(preferred + "/"):
            return url
        return self.canonical(url)
