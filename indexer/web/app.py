"""The aiohttp application of ``indexer serve``: the search page, its JSON API, static files.

Routes: ``GET /`` (the search form), ``GET /search`` (hits, facets, pages), ``GET
/api/search`` (the same as JSON), ``/static/…``, and the admin views ``/admin/…``
(:mod:`indexer.web.admin`). Templates are Jinja2 with autoescaping on,
package data of :mod:`indexer.web`. Solr is asked through :mod:`indexer.solr.search` in a
worker thread; its errors are logged, and the page says only that search is unavailable.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from indexer.errors import QueryError, SolrError, SolrRejectedError
from indexer.settings import LoadedSettings, SolrSettings
from indexer.solr.connection import SolrConnection
from indexer.solr.query import MAX_QUERY_CHARS, QueryOptions, without_controls
from indexer.solr.search import search_page
from indexer.web.admin import AdminContext, setup_admin
from indexer.web.i18n import LABELS, choose_language
from indexer.web.query import SearchRequest, parse_request, solr_params
from indexer.web.results import SearchResult, parse_answer
from indexer.web.security import add_headers
from indexer.web.settings import ServeSettings
from indexer.web.views import result_context, sort_links, value_name

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent


@dataclass
class WebConfig:
    """What the handlers need: Solr settings; the admin password and the crawl data dir
    for the admin views (:mod:`indexer.web.admin`), with the effective settings and the
    ``--config`` file they came from (the settings page, reindex jobs), and the ``serve.*``
    settings (the login's limits, trusted proxies)."""

    solr: SolrSettings
    admin_password: str = field(repr=False, default="")
    data_dir: Path | None = None
    frontier: str | None = None
    type_field: str | None = None  # ``format`` or ``content_type``, found on first use
    query: QueryOptions = field(default_factory=QueryOptions)  # the ``search.*`` settings
    loaded: LoadedSettings | None = None
    config_file: Path | None = None
    serve: ServeSettings = field(default_factory=ServeSettings)


# A query at the bound, percent-encoded (up to 9 bytes a character), several times over: an
# over-long query must reach the handler to get its message (aiohttp's default is 8,190).
MAX_REQUEST_LINE = 4 * 9 * MAX_QUERY_CHARS
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CONFIG = web.AppKey("config", WebConfig)
TEMPLATES = web.AppKey("templates", jinja2.Environment)


def make_app(config: WebConfig) -> web.Application:
    """The application, ready for :func:`aiohttp.web.run_app` or a test runner."""
    app = web.Application(middlewares=[error_pages])
    app[CONFIG] = config
    app[TEMPLATES] = jinja2.Environment(
        loader=jinja2.PackageLoader("indexer.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    app.on_response_prepare.append(add_headers)
    app.router.add_get("/", index)
    app.router.add_get("/search", search)
    app.router.add_get("/api/search", api_search)
    app.router.add_static("/static/", HERE / "static", name="static", append_version=True)
    admin = AdminContext(
        config.solr,
        config.data_dir,
        config.admin_password,
        config.loaded,
        config.config_file,
        config.frontier or "",
        config.serve,
    )
    setup_admin(app, admin)
    return app


def _render(request: web.Request, name: str, status: int = 200, **context: Any) -> web.Response:
    lang = choose_language(request.headers.get("Accept-Language"))
    template = request.app[TEMPLATES].get_template(name)
    css = request.app.router["static"].url_for(filename="style.css")
    text = template.render(lang=lang, L=LABELS[lang], css=str(css), **context)
    response = web.Response(text=text, content_type="text/html", charset="utf-8", status=status)
    response.headers["Vary"] = "Accept-Language"
    return response


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Our own page for 404, for 403 (a directory under ``/static/``) and for any unexpected
    failure (logged with its traceback here, never shown); other HTTP errors pass as aiohttp
    makes them."""
    try:
        return await handler(request)
    except (web.HTTPNotFound, web.HTTPForbidden) as exc:
        message = LABELS[choose_language(request.headers.get("Accept-Language"))]["not_found"]
        return _render(request, "search.html", exc.status, q="", message=message)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("%s %s failed", request.method, request.path)
        message = LABELS[choose_language(request.headers.get("Accept-Language"))]["error"]
        return _render(request, "search.html", 500, q="", message=message)


async def index(request: web.Request) -> web.Response:
    """``GET /``: the search form, focused."""
    return _render(request, "index.html", q="")


async def search(request: web.Request) -> web.Response:
    """``GET /search``: a page of hits with facets, or a message (never an error page)."""
    lang = choose_language(request.headers.get("Accept-Language"))
    labels = LABELS[lang]
    typed = without_controls(request.query.get("q", ""))
    bound = request.app[CONFIG].query.max_chars
    q = typed[:bound]
    try:
        req = parse_request(request.query, max_chars=bound)
        if not req.q:
            return _render(request, "search.html", q="", message=labels["empty"])
        result = await run_search(request.app[CONFIG], req)
    except QueryError as exc:
        status = 200 if exc.param == "q" else 400  # a query out of bounds is no error page
        message = query_message(exc, typed, labels, bound)
        return _render(request, "search.html", status, q=q, message=message)
    except SolrError:
        return _render(request, "search.html", 503, q=q, message=labels["unavailable"])
    return _render(
        request,
        "search.html",
        q=req.q,
        sorts=sort_links(req, labels),
        format_name=functools.partial(value_name, "type", lang=lang),
        **result_context(req, result, lang),
    )


def query_message(
    exc: QueryError, typed: str, labels: dict[str, str], bound: int = MAX_QUERY_CHARS
) -> str:
    """The user's message for a request that was not searched (``typed``: its ``q``;
    ``bound``: ``search.max_query_chars``)."""
    if exc.param != "q":
        return labels["bad_param"]
    if len(typed.strip()) > bound:
        return labels["too_long"].format(max=bound)
    return labels["not_searchable"]


async def api_search(request: web.Request) -> web.Response:
    """``GET /api/search``: ``{"numFound", "start", "hits": [...], "facets": {...},
    "notes": [{"kind", "value", "message"}]}`` (notes: :class:`indexer.solr.query.Note`);
    400 ``{"error", "param"}`` for a request that is not searched (empty or too long query,
    a parameter out of bounds), 503 ``{"error"}`` when Solr cannot answer."""
    try:
        req = parse_request(request.query, api=True, max_chars=request.app[CONFIG].query.max_chars)
        if not req.q:
            raise QueryError("q is required", "q")
        result = await run_search(request.app[CONFIG], req)
    except QueryError as exc:
        return web.json_response({"error": str(exc), "param": exc.param}, status=400)
    except SolrError:
        return web.json_response({"error": "search is unavailable"}, status=503)
    body = {
        "numFound": result.num_found,
        "start": result.start,
        "hits": [hit.as_json() for hit in result.hits],
        "facets": {name: [list(pair) for pair in pairs] for name, pairs in result.facets.items()},
        "notes": [{"kind": n.kind, "value": n.value, "message": n.message()} for n in result.notes],
    }
    return web.json_response(body, dumps=functools.partial(json.dumps, ensure_ascii=False))


async def run_search(config: WebConfig, req: SearchRequest) -> SearchResult:
    """Ask ``/search`` off the event loop.

    Raises:
        SolrError: Solr is unavailable or rejected the request (logged here with its text,
            which never reaches a page).
    """
    try:
        if config.type_field is None:
            config.type_field = await asyncio.to_thread(_type_field, config.solr)
        params = solr_params(req, config.type_field)
        data, notes = await asyncio.to_thread(search_page, config.solr, req.q, params, config.query)
    except SolrError as exc:
        log.warning("search failed: %s", exc)
        raise
    return parse_answer(data, config.type_field, notes)


def _type_field(cfg: SolrSettings) -> str:
    """``format`` when the schema has it with docValues (facetable), else ``content_type``
    (Solr Ref Guide, "Schema API": ``GET /schema/fields/NAME``)."""
    conn = SolrConnection.from_settings(cfg)
    try:
        data = conn.get(f"/{cfg.target}/schema/fields/format", {"showDefaults": "true"})
    except SolrRejectedError:
        return "content_type"
    return "format" if data.get("field", {}).get("docValues") else "content_type"
