"""Page metadata: titles (:mod:`indexer.extract.titles`), description, dates, lang, robots."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from lxml import etree

from indexer.extract.links import absolute_url, document_base
from indexer.extract.text import node_text
from indexer.extract.titles import clean_title
from indexer.models import ExtractedDoc

_ROBOTS_NAMES = frozenset({"robots"})
#: Robots directives that take a value after a colon (Google's robots meta tag spec).
_VALUED = frozenset({"max-snippet", "max-image-preview", "max-video-preview"})
_DATE_JA = re.compile(r"(\d{4})\s*[年/.\-]\s*(\d{1,2})\s*[月/.\-]\s*(\d{1,2})")


def _meta_map(root: etree._Element) -> dict[str, str]:
    """``<meta>`` name/property/itemprop/http-equiv (lower-cased) → first non-empty content."""
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        content = meta.get("content")
        if content is None or not content.strip():
            continue
        for attr in ("name", "property", "itemprop", "http-equiv"):
            key = meta.get(attr)
            if key:
                found.setdefault(key.strip().lower(), content.strip())
    return found


def _json_ld(root: etree._Element) -> list[dict[str, Any]]:
    """Objects of ``<script type=application/ld+json>`` blocks (``@graph`` flattened)."""
    objects: list[dict[str, Any]] = []
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = data if isinstance(data, list) else [data]
        for item in stack:
            if isinstance(item, dict):
                objects.append(item)
                graph = item.get("@graph")
                if isinstance(graph, list):
                    objects.extend(g for g in graph if isinstance(g, dict))
    return objects


def iso_date(value: str | None) -> str | None:
    """Normalise a date or date-time to ISO 8601 (``2024-05-01`` or ``2024-05-01T09:00:00+09:00``).

    Accepts ISO 8601 / RFC 3339 forms (``Z`` included) and ``YYYY年M月D日``,
    ``YYYY/MM/DD``, ``YYYY.MM.DD``; returns None for anything else.
    """
    if not value:
        return None
    value = value.strip()
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        match = _DATE_JA.search(value)
        if match is None:
            return None
        year, month, day = (int(g) for g in match.groups())
        try:
            return datetime(year, month, day).date().isoformat()
        except ValueError:
            return None
    if len(value) <= 10:
        return parsed.date().isoformat()
    return parsed.isoformat()


def _ld_value(objects: list[dict[str, Any]], key: str) -> str | None:
    for obj in objects:
        value = obj.get(key)
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, dict):
            value = value.get("name")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _first_h1(root: etree._Element) -> str | None:
    for h1 in root.iter("h1"):
        text = " ".join(node_text(h1).split())
        if text:
            return text
    return None


def _title(root: etree._Element, meta: dict[str, str]) -> tuple[str, str]:
    """``(title, title_full)``: the Open Graph title or ``<title>`` without an
    ``og:site_name`` part (:func:`indexer.extract.titles.clean_title`), and the whole
    ``<title>`` (the Open Graph title, else the first ``<h1>``, when there is none)."""
    og = meta.get("og:title") or meta.get("twitter:title")
    title_el = root.find(".//title")
    raw = (
        " ".join("".join(str(t) for t in title_el.itertext()).split())
        if title_el is not None
        else ""
    )
    full = raw or og or _first_h1(root) or ""
    source = og or raw
    if not source:
        return full, full
    return clean_title(source, meta.get("og:site_name")), full


def robots_directives(value: str) -> frozenset[str]:
    """The directives of a robots meta ``content`` or an ``X-Robots-Tag`` header value.

    Comma-separated, lower-cased; a ``user-agent:`` prefix (``googlebot: noindex``) is
    dropped, a directive with a value keeps it without spaces (``max-snippet:0``), and
    ``none`` adds ``noindex`` and ``nofollow`` (Google's robots meta tag and X-Robots-Tag
    specification, which both share). Example:
    ``robots_directives("NOINDEX, follow") == {"noindex", "follow"}``.
    """
    directives: set[str] = set()
    for token in value.lower().split(","):
        parts = [part.strip() for part in token.split(":")]
        directive = parts[-1]
        if len(parts) > 1 and parts[-2] in _VALUED:
            directive = f"{parts[-2]}:{parts[-1]}"
        if directive:
            directives.add(directive)
    if "none" in directives:
        directives.update({"noindex", "nofollow"})
    return frozenset(directives)


def snippet_forbidden(directives: frozenset[str]) -> bool:
    """Whether robots ``directives`` forbid showing a snippet of the page in a hit:
    ``nosnippet`` or ``max-snippet:0`` (Google's robots meta tag specification)."""
    return "nosnippet" in directives or "max-snippet:0" in directives


def _robots(meta_root: etree._Element) -> frozenset[str]:
    directives: frozenset[str] = frozenset()
    for meta in meta_root.iter("meta"):
        if (meta.get("name") or "").strip().lower() in _ROBOTS_NAMES:
            directives |= robots_directives(meta.get("content") or "")
    return directives


def _lang(root: etree._Element, meta: dict[str, str]) -> str | None:
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    if not lang:
        lang = meta.get("content-language") or meta.get("og:locale")
    return lang.strip().replace("_", "-") if lang and lang.strip() else None


def _canonical(root: etree._Element, url: str, encoding: str) -> str | None:
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            return absolute_url(link.get("href", ""), document_base(root, url), encoding)
    return None


def _keywords(meta: dict[str, str]) -> list[str]:
    raw = meta.get("keywords", "")
    words = (w.strip() for w in re.split(r"[,、，]", raw))
    return list(dict.fromkeys(w for w in words if w))


def _time_element(root: etree._Element) -> str | None:
    for time in root.iter("time"):
        value = time.get("datetime") or time.text
        if value:
            return value
    return None


def read_metadata(root: etree._Element, url: str, encoding: str) -> ExtractedDoc:
    """Read the page's metadata (call before the tree is modified).

    Returns the page's :class:`~indexer.models.ExtractedDoc` with its metadata fields set
    (titles, description, keywords, author, dates, lang, canonical URL, robots), text empty.

    Sources, first found wins: Open Graph / ``article:*`` properties, ``<meta name>``,
    schema.org JSON-LD, Dublin Core ``dc.*``, then the first ``<time>`` for dates.
    """
    meta = _meta_map(root)
    ld = _json_ld(root)
    published = (
        meta.get("article:published_time")
        or meta.get("datepublished")
        or _ld_value(ld, "datePublished")
        or meta.get("dc.date")
        or meta.get("date")
        or _time_element(root)
    )
    modified = (
        meta.get("article:modified_time")
        or meta.get("datemodified")
        or _ld_value(ld, "dateModified")
        or meta.get("last-modified")
    )
    author = meta.get("author") or meta.get("article:author") or _ld_value(ld, "author")
    title, title_full = _title(root, meta)
    return ExtractedDoc(
        title=title,
        title_full=title_full,
        text="",
        description=meta.get("description") or meta.get("og:description"),
        keywords=_keywords(meta),
        author=author,
        published=iso_date(published),
        modified=iso_date(modified),
        lang=_lang(root, meta),
        canonical_url=_canonical(root, url, encoding),
        robots=_robots(root),
    )
