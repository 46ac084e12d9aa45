"""Outgoing links: resolved against ``<base>``, query encoded in the page's encoding, filtered."""

from __future__ import annotations

import functools
import re
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree

from indexer.extract.urlencoding import encode_for_url, output_encoding

# URL code points that need no percent-encoding (RFC 3986 unreserved, reserved, valid %XX):
# a URL is clean when it has no other character and no "%" without two hex digits.
_UNCLEAN = re.compile(r"[^A-Za-z0-9\-._~:/?@!$&'()*+,;=\[\]%]|%(?![0-9A-Fa-f]{2})")
_HTTP_WITH_HOST = re.compile(r"https?://[^/?#]", re.IGNORECASE)
_ORIGIN = re.compile(r"https?://[^/?#]+", re.IGNORECASE)
_FOLLOW_SCHEMES = frozenset({"http", "https"})
_STRIP = " \t\n\r\f"  # ASCII white space, stripped from URL attributes (HTML §2.3.2)


def _fast_join(base: str, href: str) -> str:
    """``urljoin`` for the two commonest shapes, absolute and root-relative, else urljoin."""
    if _HTTP_WITH_HOST.match(href):
        if "/." not in href:
            return href
    elif href[0] == "/" and href[1:2] != "/" and "/." not in href:
        origin = _ORIGIN.match(base)
        if origin:
            return origin.group(0) + href
    return urljoin(base, href)


@functools.lru_cache(maxsize=64)
def _is_clean(url: str) -> bool:
    """True when ``url`` needs no percent-encoding (a page's base, the same for its links)."""
    return _UNCLEAN.search(url) is None


def absolute_url(href: str, base: str, encoding: str) -> str | None:
    """Resolve ``href`` against ``base`` and encode it as a browser would send it.

    The path is UTF-8 percent-encoded, the query in ``encoding``
    (:func:`~indexer.extract.urlencoding.encode_for_url`, WHATWG URL "query state"), the
    host IDNA-encoded, and the fragment dropped.

    Returns:
        the absolute URL, or None for non-HTTP(S) schemes (``javascript:``, ``mailto:``,
        ``data:``, …) and for hrefs that cannot be parsed.
    """
    href = href.strip(_STRIP).split("#", 1)[0]
    if not href:
        return None
    if _is_clean(base) and not _UNCLEAN.search(href):
        # Already-safe ASCII on both sides: the join is all there is to do.
        joined = _fast_join(base, href)
        return joined if _HTTP_WITH_HOST.match(joined) else None
    try:
        joined = urljoin(base, href)
        parts = urlsplit(joined)
    except ValueError:
        return None
    if parts.scheme.lower() not in _FOLLOW_SCHEMES or not parts.netloc:
        return None
    url = urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))
    try:
        return encode_for_url(url, encoding)
    except (UnicodeError, ValueError):
        return None


def document_base(root: etree._Element, url: str) -> str:
    """Return the document base URL: the first ``<base href>`` resolved against ``url``.

    HTML §2.4.1 "document base URL"; a missing or empty ``<base>`` means ``url``.
    """
    for base in root.iter("base"):
        href = base.get("href")
        if href and href.strip(_STRIP):
            try:
                return urljoin(url, href.strip(_STRIP))
            except ValueError:
                return url
    return url


# Elements whose URL attribute leads to another document to crawl: hyperlinks (HTML
# §4.6.1) and the documents shown in frames (§4.8.5 iframe, obsolete §16.2 frame).
_LINK_ATTRS = {"a": "href", "area": "href", "frame": "src", "iframe": "src"}
# <meta http-equiv=refresh> content: a delay, then ";" or ",", then the URL, optionally
# after "url=" and in quotes (HTML §4.2.5.3 "shared declarative refresh steps").
_WS = "[ \\t\\n\\r\\f]*"
_REFRESH = re.compile(
    rf"{_WS}(?:[0-9]+[0-9.]*|\.[0-9.]*){_WS}[;,]?{_WS}(?:url{_WS}={_WS})?(.*)",
    re.IGNORECASE | re.DOTALL,
)


def refresh_target(content: str) -> str | None:
    """Return the URL of a ``<meta http-equiv=refresh>`` ``content`` value, unresolved.

    ``"0; url='next.html'"`` → ``"next.html"``; a value with no URL (a plain reload,
    ``"30"``) or without a leading delay gives None (HTML §4.2.5.3).
    """
    match = _REFRESH.match(content)
    if match is None:
        return None
    url = match.group(1)
    if url[:1] in ("'", '"'):
        url = url[1:].split(url[0], 1)[0]
    url = url.strip(_STRIP)
    return url or None


def _refresh_hrefs(root: etree._Element) -> list[str]:
    hrefs = []
    for meta in root.iter("meta"):
        if (meta.get("http-equiv") or "").strip(_STRIP).lower() != "refresh":
            continue
        target = refresh_target(meta.get("content") or "")
        if target is not None:
            hrefs.append(target)
    return hrefs


def _element_hrefs(root: etree._Element) -> list[str]:
    hrefs = []
    for element in root.iter(*_LINK_ATTRS):
        href = element.get(_LINK_ATTRS[str(element.tag)])
        if href is None:
            continue
        rel = element.get("rel")
        if rel and "nofollow" in rel.lower().split():
            continue
        hrefs.append(href)
    return hrefs


def count_links(root: etree._Element) -> int:
    """Distinct link targets (``href``/``src`` values, refresh included) on the page.

    Walked only when :func:`outlinks` hit its cap, to say how many links were left out.
    """
    return len({*_refresh_hrefs(root), *_element_hrefs(root)})


def outlinks(root: etree._Element, url: str, encoding: str, max_links: int) -> list[str]:
    """Return the page's followable links, absolute, deduplicated, in document order.

    The target of ``<meta http-equiv=refresh>`` comes first, then ``<a href>``,
    ``<area href>``, ``<frame src>`` and ``<iframe src>`` in document order; links with
    ``rel=nofollow`` (HTML §4.6.7.13) are left out; at most ``max_links`` are returned.
    """
    base = document_base(root, url)
    encoding = output_encoding(encoding)
    seen: dict[str, None] = {}
    hrefs: set[str] = set()
    for href in (*_refresh_hrefs(root), *_element_hrefs(root)):
        if href in hrefs:
            continue
        hrefs.add(href)
        link = absolute_url(href, base, encoding)
        if link is not None and link not in seen:
            seen[link] = None
            if len(seen) >= max_links:
                break
    return list(seen)
