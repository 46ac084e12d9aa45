"""The ``/search`` handler's answer as the web interface shows it: hits with safe snippets
and facet counts.

Snippets arrive HTML-encoded with the highlighter's ``<em>`` raw (``hl.encoder=html``, see
:mod:`indexer.web.query`); :func:`marked_snippet` turns each ``<em>`` into ``<mark>`` and
re-escapes everything else, so a snippet holds no markup but ``<mark>``. Crawled text is shown
without bidirectional embedding, override and isolate controls (U+202A–U+202E,
U+2066–U+2069; Unicode UAX #9): a page's ``U+202E`` would otherwise turn the rest of a title
or snippet around (the "Trojan Source" trick). A title longer than :data:`TITLE_CHARS` is
shown cut, with ``…``; the page gives the whole one as the link's ``title`` attribute.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape

from indexer.solr import snippets
from indexer.solr.query import Note
from indexer.solr.snippets import without_bidi
from indexer.web.formats import format_of

_EM = re.compile(r"(</?em>)")
_SPACE = re.compile(r"\s+")
SNIPPET_JOIN = " … "
TITLE_CHARS = 120


@dataclass(frozen=True)
class Hit:
    """One hit. ``title`` is the whole title without bidi controls; ``snippet`` is safe HTML
    (only ``<mark>``); ``href`` is the URL when its
    scheme is http or https, else None (never a ``javascript:`` link); ``modified`` is
    ISO 8601 (``2024-02-01T00:00:00Z``) or None."""

    id: str
    url: str
    title: str
    snippet: Markup
    host: str | None
    format: str | None
    content_type: str | None
    modified: str | None
    href: str | None

    @property
    def display_url(self) -> str:
        """The URL as a person reads it: percent-escapes decoded (Japanese paths legible),
        bidi controls left out."""
        return without_bidi(unquote(self.url, errors="replace"))

    @property
    def short_title(self) -> str:
        """The title as shown: at most :data:`TITLE_CHARS` characters, ``…`` where cut."""
        if len(self.title) <= TITLE_CHARS:
            return self.title
        return self.title[: TITLE_CHARS - 1].rstrip() + "…"

    def as_json(self) -> dict[str, Any]:
        """The hit in the JSON API's shape."""
        keys = ("id", "url", "title", "host", "format", "content_type", "modified")
        return {**{k: getattr(self, k) for k in keys}, "snippet": str(self.snippet)}


@dataclass(frozen=True)
class SearchResult:
    """Hits of one page and the facets: ``{"host": [(value, count), …], "type": …,
    "lang": …, "year": …}`` (years newest first); ``notes``: what of the query was searched
    otherwise than typed."""

    num_found: int
    start: int
    hits: list[Hit]
    facets: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    notes: tuple[Note, ...] = ()


def marked_snippet(fragment: str) -> Markup:
    """An ``hl.encoder=html`` fragment as HTML whose only elements are ``<mark>``.

    Unbalanced tags are closed or dropped, adjacent marks merge (``<em>有給</em><em>休暇</em>``
    reads as one term); whitespace runs become one space.
    """
    out: list[str] = []
    inside = False
    for part in _EM.split(fragment):
        if part == "<em>":
            if not inside:
                out.append("<mark>")
            inside = True
        elif part == "</em>":
            if inside:
                out.append("</mark>")
            inside = False
        else:
            out.append(str(escape(_SPACE.sub(" ", without_bidi(html.unescape(part))))))
    if inside:
        out.append("</mark>")
    return Markup("".join(out).replace("</mark><mark>", "").strip())


def parse_answer(
    data: dict[str, Any], type_field: str, notes: tuple[Note, ...] = ()
) -> SearchResult:
    """A :class:`SearchResult` from Solr's JSON answer to :func:`solr_params` parameters
    and the query's notes."""
    response = data.get("response", {})
    highlighting = data.get("highlighting", {})
    hits = [_hit(doc, highlighting.get(doc.get("id"), {})) for doc in response.get("docs", [])]
    return SearchResult(
        int(response.get("numFound", 0)),
        int(response.get("start", 0)),
        hits,
        _facets(data.get("facets", {}), type_field),
        notes,
    )


def _hit(doc: dict[str, Any], highlight: dict[str, list[str]]) -> Hit:
    url = str(_first(doc.get("url")) or doc["id"])
    # the marked field's passages, each bounded around its first mark (one long sentence
    # or a word of thousands of characters must not fill the page)
    fragments = [marked_snippet(f) for f in snippets.pick(highlight)]
    content_type = _first(doc.get("content_type"))
    return Hit(
        id=str(doc["id"]),
        url=url,
        title=without_bidi(str(_first(doc.get("title")) or "")),
        snippet=Markup(SNIPPET_JOIN).join(f for f in fragments if f),
        host=_first(doc.get("host")),
        format=_first(doc.get("format")) or format_of(content_type),
        content_type=content_type,
        modified=_first(doc.get("modified")),
        href=url if urlsplit(url).scheme.lower() in ("http", "https") else None,
    )


def _first(value: Any) -> Any:
    """A stored field's value: the first of a multi-valued one."""
    return value[0] if isinstance(value, list) and value else value or None


def _facets(raw: dict[str, Any], type_field: str) -> dict[str, list[tuple[str, int]]]:
    facets: dict[str, list[tuple[str, int]]] = {}
    for name in ("host", "type", "lang", "year"):
        buckets = raw.get(name, {}).get("buckets", []) if isinstance(raw.get(name), dict) else []
        facets[name] = [(str(b["val"]), int(b["count"])) for b in buckets]
    facets["year"] = sorted(((v[:4], c) for v, c in facets["year"]), reverse=True)
    if type_field == "content_type":
        facets["type"] = _as_formats(facets["type"])
    return facets


def _as_formats(buckets: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """``content_type`` buckets merged into format ids (a type no id covers stays as is)."""
    counts: dict[str, int] = {}
    for media, count in buckets:
        fid = format_of(media) or media
        counts[fid] = counts.get(fid, 0) + count
    return sorted(counts.items(), key=lambda item: -item[1])
