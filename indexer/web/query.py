"""A search request of the web interface: parsed from the URL's parameters, turned into the
parameters of the ``/search`` handler.

The query goes through :func:`indexer.solr.query.prepare` as the CLI's does (length bound,
operators, fuzzy and wildcard syntax, ``search.*`` settings);
the facet filters (``host``, ``type``, ``lang``, ``year``) never do: each value becomes an
escaped phrase (:func:`indexer.solr.search.term_query`) in one filter query, so no Solr syntax
passes through them. A filter given more than once (``host=a&host=b``) keeps every value:
pages with any of them (each page has one host, type, language and year, so "all of them"
would find nothing), and different filters together (``host=a&lang=ja``) all apply.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from indexer.errors import QueryError
from indexer.solr.query import MAX_QUERY_CHARS, without_controls
from indexer.solr.search import term_query
from indexer.web.formats import media_types

PAGE_SIZE = 10
MAX_ROWS = 100
MAX_START = 10_000  # deep paging costs Solr (Ref Guide, "Pagination of Results")
FILTERS = ("host", "type", "lang", "year")
FIELDS = "id,url,title,host,format,content_type,modified,lang"
Sort = Literal["relevance", "modified"]


@dataclass(frozen=True)
class SearchRequest:
    """What the user asked for.

    Attributes:
        q: the query as typed (stripped, control characters made spaces), at most
            ``MAX_QUERY_CHARS`` characters.
        start: offset of the first hit (0-based).
        rows: hits per answer (1..``MAX_ROWS``).
        filters: active facet filters and their values, ``{"host": ("intra:8080",),
            "year": ("2023", "2024")}`` (a page matches one of the values of each filter).
        sort: ``relevance`` (score) or ``modified`` (newest first).
    """

    q: str
    start: int = 0
    rows: int = PAGE_SIZE
    filters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    sort: Sort = "relevance"

    @property
    def page(self) -> int:
        """1-based page number at ``rows`` hits a page."""
        return self.start // self.rows + 1

    def with_filter(self, name: str, value: str | None) -> SearchRequest:
        """This request with filter ``name`` set to ``value`` alone (None drops it), from
        hit 0."""
        filters = {k: v for k, v in self.filters.items() if k != name}
        if value is not None:
            filters[name] = (value,)
        return replace(self, filters=filters, start=0)

    def without_value(self, name: str, value: str) -> SearchRequest:
        """This request with ``value`` taken out of filter ``name``, from hit 0."""
        rest = tuple(v for v in self.filters.get(name, ()) if v != value)
        filters = {k: v for k, v in self.filters.items() if k != name}
        if rest:
            filters[name] = rest
        return replace(self, filters=filters, start=0)


def parse_request(
    params: Mapping[str, str], *, api: bool = False, max_chars: int = MAX_QUERY_CHARS
) -> SearchRequest:
    """Read ``q``, ``page`` (web) or ``start``/``rows`` (API), the filters and ``sort``.

    ``params`` is the URL's query; a multi-valued one (aiohttp's ``MultiDictProxy``, with
    ``getall``) gives every value of a repeated filter.

    Raises:
        QueryError: a parameter out of its bounds (``param`` names it; ``q`` when the query
            is longer than ``max_chars``, ``search.max_query_chars``).
    """
    q = without_controls(params.get("q", "")).strip()
    if len(q) > max_chars:
        raise QueryError(f"the query is longer than {max_chars} characters", "q")
    if api:
        rows = _int(params, "rows", PAGE_SIZE, 1, MAX_ROWS)
        start = _int(params, "start", 0, 0, MAX_START)
    else:  # a page link edited by hand falls back to the nearest page that exists
        rows = PAGE_SIZE
        start = (_page(params.get("page", "")) - 1) * PAGE_SIZE
    sort = params.get("sort") or "relevance"
    if sort not in ("relevance", "modified"):
        if api:
            raise QueryError("sort is relevance or modified", "sort")
        sort = "relevance"
    filters = {name: values for name in FILTERS if (values := _values(params, name))}
    for year in filters.get("year", ()):
        _int({"year": year}, "year", 0, 1, 9998)
    return SearchRequest(q, start, rows, filters, sort)  # type: ignore[arg-type]


def _values(params: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Every non-empty value of ``name``, first occurrence first, without repeats."""
    getall = getattr(params, "getall", None)
    raw = getall(name, []) if getall else [params.get(name, "")]
    return tuple(dict.fromkeys(v for v in raw if v))


def _page(raw: str) -> int:
    """The web page's ``page``: 1 when missing or not a number, else within 1..the last."""
    try:
        value = int(raw)
    except ValueError:
        return 1
    return min(max(value, 1), MAX_START // PAGE_SIZE)


def _int(params: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise QueryError(f"{name} is not a whole number", name) from None
    if not low <= value <= high:
        raise QueryError(f"{name} is outside {low}..{high}", name)
    return value


def filter_query(req: SearchRequest, type_field: str) -> str | None:
    """One filter query that requires every active filter (one of its values), or None.

    ``type_field`` is ``format`` when the index has it, else ``content_type``. A format id
    also matches, through its MIME types (:mod:`indexer.web.formats`), the documents that
    have no ``format`` yet (indexed before the field existed).
    """
    clauses = []
    for name, values in req.filters.items():
        alternatives = [_value_clause(name, v, type_field) for v in values]
        if len(alternatives) == 1 and name != "type":
            clauses.append(f"+{alternatives[0]}")
        elif len(alternatives) == 1:
            clauses.append(f"+({alternatives[0]})")
        else:
            clauses.append("+(" + " ".join(f"({a})" for a in alternatives) + ")")
    return " ".join(clauses) or None


def _value_clause(name: str, value: str, type_field: str) -> str:
    if name == "year":
        year = int(value)
        return f"modified:[{_jan1(year)} TO {_jan1(year + 1)}}}"
    if name == "type":
        return _type_clause(value, type_field)
    return term_query(name, value)


def _type_clause(format_id: str, type_field: str) -> str:
    by_media = " ".join(term_query("content_type", m) for m in media_types(format_id))
    if type_field == "content_type":
        return by_media
    return f"{term_query('format', format_id)} (+({by_media}) -format:[* TO *])"


def _jan1(year: int) -> str:
    return f"{year:04d}-01-01T00:00:00Z"


def json_facets(type_field: str) -> str:
    """The JSON Facet API request (Solr Ref Guide, "JSON Facet API"): terms of host, type and
    lang, and ``modified`` by calendar year."""
    terms = {"type": "terms", "limit": 20, "mincount": 1}
    facets = {
        "host": {**terms, "field": "host"},
        "type": {**terms, "field": type_field},
        "lang": {**terms, "field": "lang"},
        "year": {
            "type": "range",
            "field": "modified",
            "start": "1970-01-01T00:00:00Z",
            "end": "NOW/YEAR+1YEAR",
            "gap": "+1YEAR",
            "mincount": 1,
        },
    }
    return json.dumps(facets)


def solr_params(req: SearchRequest, type_field: str) -> dict[str, str | int]:
    """Parameters for :func:`indexer.solr.search.search_page` besides ``q``.

    Snippets come HTML-encoded with only the highlighter's ``<em>`` tags raw
    (``hl.encoder=html``), so a page's own markup can never pass for a highlight.
    """
    params: dict[str, str | int] = {
        "start": req.start,
        "rows": req.rows,
        "fl": FIELDS,
        "hl.encoder": "html",
        "hl.tag.pre": "<em>",
        "hl.tag.post": "</em>",
        "facet": "false",
        "json.facet": json_facets(type_field),
    }
    if fq := filter_query(req, type_field):
        params["fq"] = fq
    if req.sort == "modified":
        params["sort"] = "modified desc,score desc"
    return params
