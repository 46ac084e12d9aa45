"""What the search page template shows, built from a request and its result: facet links,
pagination, sort links and the no-results hints. Every link is ``/search?…`` with its
values URL-encoded here; the template escapes them once more as attribute values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from indexer.web.hints import spelling_variants
from indexer.web.query import FILTERS, SearchRequest
from indexer.web.results import SearchResult

MAX_PAGE_LINKS = 9
VALUE_NAMES = {
    "ja": {"ja": "日本語", "en": "英語", "text": "テキスト"},
    "en": {"ja": "Japanese", "en": "English", "text": "Text"},
}
FORMAT_NAMES = {
    "html": "HTML",
    "pdf": "PDF",
    "docx": "Word",
    "xlsx": "Excel",
    "pptx": "PowerPoint",
    "csv": "CSV",
    "doc": "Word 97–2003",
    "xls": "Excel 97–2003",
    "ppt": "PowerPoint 97–2003",
    "rtf": "RTF",
    "odt": "ODF Text",
    "ods": "ODF Spreadsheet",
    "odp": "ODF Presentation",
}


@dataclass(frozen=True)
class Link:
    """A link of the page: its text, target, and whether it is the current choice."""

    text: str
    href: str
    current: bool = False
    count: int | None = None


def search_url(req: SearchRequest, page: int = 1) -> str:
    """``/search?q=…&host=…&sort=modified&page=N`` for ``req`` at ``page``."""
    params: list[tuple[str, str]] = [("q", req.q)]
    params += [(name, v) for name in FILTERS for v in req.filters.get(name, ())]
    if req.sort != "relevance":
        params.append(("sort", req.sort))
    if page > 1:
        params.append(("page", str(page)))
    return "/search?" + urlencode(params)


def value_name(facet: str, value: str, lang: str) -> str:
    """How a facet value reads: format and language names; hosts and years as they are."""
    if facet == "type":
        return VALUE_NAMES[lang].get(value) or FORMAT_NAMES.get(value, value)
    if facet == "lang":
        return VALUE_NAMES[lang].get(value, value)
    return value


def facet_links(
    req: SearchRequest, result: SearchResult, lang: str
) -> dict[str, tuple[Link, list[Link]]]:
    """Per facet: an "all" link that drops its filter, and a link per value that sets it."""
    out: dict[str, tuple[Link, list[Link]]] = {}
    for facet in FILTERS:
        active = req.filters.get(facet, ())
        values = [
            Link(
                value_name(facet, value, lang),
                search_url(req.with_filter(facet, value)),
                current=value in active,
                count=count,
            )
            for value, count in result.facets.get(facet, [])
        ]
        if values or active:
            reset = Link("", search_url(req.with_filter(facet, None)), current=not active)
            out[facet] = (reset, values)
    return out


def page_links(req: SearchRequest, num_found: int) -> list[Link]:
    """Numbered links around the current page, at most :data:`MAX_PAGE_LINKS`."""
    last = max(1, -(-num_found // req.rows))
    first = max(1, min(req.page - MAX_PAGE_LINKS // 2, last - MAX_PAGE_LINKS + 1))
    pages = range(first, min(last, first + MAX_PAGE_LINKS - 1) + 1)
    return [Link(str(n), search_url(req, n), current=n == req.page) for n in pages]


def sort_links(req: SearchRequest, labels: dict[str, str]) -> list[Link]:
    """Relevance and newest-first, from the first page."""
    return [
        Link(labels[s], search_url(_sorted(req, s)), current=req.sort == s)
        for s in ("relevance", "modified")
    ]


def _sorted(req: SearchRequest, sort: str) -> SearchRequest:
    return SearchRequest(req.q, 0, req.rows, req.filters, sort)  # type: ignore[arg-type]


def hints(req: SearchRequest, lang: str) -> dict[str, list[Link]]:
    """No-results suggestions: other spellings (at most two) and each filter to drop."""
    variants = [
        Link(v, search_url(SearchRequest(v, 0, req.rows, req.filters, req.sort)))
        for v in spelling_variants(req.q)[:2]
    ]
    drops = [
        Link(value_name(name, value, lang), search_url(req.without_value(name, value)))
        for name, values in req.filters.items()
        for value in values
    ]
    return {"variants": variants, "drops": drops}


def result_context(req: SearchRequest, result: SearchResult, lang: str) -> dict[str, Any]:
    """Template variables of a page of hits."""
    last = max(1, -(-result.num_found // req.rows))
    return {
        "result": result,
        "first": req.start + 1,
        "last": min(req.start + req.rows, result.num_found),
        "facets": facet_links(req, result, lang),
        "pages": page_links(req, result.num_found),
        "prev": search_url(req, req.page - 1) if req.page > 1 else None,
        "next": search_url(req, req.page + 1) if req.page < last else None,
        "hints": hints(req, lang) if not result.num_found else None,
    }
