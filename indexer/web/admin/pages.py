"""The admin pages: dashboard, outcome table (and its CSV), document, settings.

Routes (each but the login needs a session, :mod:`.auth`): ``/admin/login`` (GET form,
POST password; :mod:`.login`), ``POST /admin/logout``, ``/admin`` (runs, live progress,
Solr, the last reindex), ``/admin/urls`` (``outcome``, ``host``, ``q``, ``page``;
:data:`PAGE_SIZE` rows), ``/admin/urls.csv`` (the whole filtered list), ``/admin/doc?id=``
(stored fields, encoding provenance, outcome history, explanation), ``/admin/settings``;
the reindex routes are in :mod:`.reindex_page`.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from indexer.crawl.frontier.browse import UrlFilter
from indexer.errors import SolrError, SolrRejectedError, StateError
from indexer.settings import describe
from indexer.web.admin import auth, reindex_page
from indexer.web.admin.context import ADMIN, ENV, AdminContext, page
from indexer.web.admin.job_store import JobStore
from indexer.web.admin.jobs import Jobs, reindex_command
from indexer.web.admin.login import setup_login
from indexer.web.admin.render import environment, printable
from indexer.web.admin.solr_state import solr_state, stored_document
from indexer.web.admin.state import doc_state, location, overview, url_batch, url_page

#: Rows of the outcome table per page.
PAGE_SIZE = 50
FILTER_KEYS = ("outcome", "host", "q")
#: Rows the CSV download reads from the crawl state at a time.
CSV_BATCH = 2000
#: Characters of a document's ``content`` shown on its page.
CONTENT_SHOWN = 3000
#: Decisions of an explanation shown on a document's page.
DECISIONS_SHOWN = 500
#: Characters of an over-long id echoed on its page.
ID_SHOWN = 200
#: The longest id without the server's settings (``crawl.max_url_length``'s default).
DEFAULT_ID_LIMIT = 2048


def setup_admin(app: web.Application, ctx: AdminContext) -> None:
    """Add the admin routes, their guard and the reindex jobs to ``app`` (after its
    ``static`` route)."""
    app[ADMIN] = ctx
    app[ENV] = environment()
    app[auth.SESSIONS] = auth.Sessions()
    app[auth.PASSWORD] = ctx.password
    app.middlewares.append(auth.admin_guard)
    setup_login(app, ctx.serve)
    if ctx.loaded is not None and ctx.data_dir is not None:
        store = JobStore(ctx.data_dir)
        argv, env = reindex_command(ctx.loaded, ctx.config_file)
        app[reindex_page.JOBS] = Jobs(argv, env, store.load(), store.save)
        app.on_cleanup.append(reindex_page.stop_jobs)
    r = app.router
    r.add_post("/admin/logout", logout)
    r.add_get("/admin", dashboard)
    r.add_get("/admin/urls", urls)
    r.add_get("/admin/urls.csv", urls_csv)
    r.add_get("/admin/doc", doc)
    r.add_get("/admin/settings", settings_page)
    reindex_page.add_routes(r)


async def logout(request: web.Request) -> web.StreamResponse:
    """``POST /admin/logout`` (CSRF-checked by the guard)."""
    return auth.end_session(request)


async def dashboard(request: web.Request) -> web.Response:
    """``GET /admin``: runs, a running crawl's live progress, Solr, the last reindex."""
    ctx = request.app[ADMIN]
    state, solr = await asyncio.gather(
        asyncio.to_thread(overview, ctx.data_dir, ctx.frontier_url),
        asyncio.to_thread(solr_state, ctx.solr),
    )
    live = next((r for r in state.runs if r.running), None)
    where = location(ctx.data_dir, ctx.frontier_url)
    return page(request, "home.html", state=state, solr=solr, live=live, data_dir=where)


def url_filter(request: web.Request) -> UrlFilter:
    """The outcome table's filter from the query string (each bounded to 1,000 chars, C0
    controls left out as on the search page)."""
    outcome, host, text = (
        printable(request.query.get(k, "")[:1000]).strip() for k in ("outcome", "host", "q")
    )
    return UrlFilter(outcome, host, text)


def _page_number(raw: str | None) -> int:
    try:
        return max(1, min(int(raw or "1"), 1_000_000))
    except ValueError:
        return 1


async def urls(request: web.Request) -> web.Response:
    """``GET /admin/urls``: the outcome table, filtered, :data:`PAGE_SIZE` rows a page."""
    ctx = request.app[ADMIN]
    flt = url_filter(request)
    number = _page_number(request.query.get("page"))
    if ctx.data_dir is None and not ctx.frontier_url:
        return page(request, "urls.html", flt=flt, problem="no data directory configured")
    offset = (number - 1) * PAGE_SIZE
    try:
        listing = await asyncio.to_thread(
            url_page, ctx.data_dir, flt, offset, PAGE_SIZE, ctx.frontier_url
        )
    except StateError as exc:
        return page(request, "urls.html", flt=flt, problem=str(exc))
    pages = max(1, -(-listing.total // PAGE_SIZE))
    query = {k: v for k, v in (("outcome", flt.outcome), ("host", flt.host), ("q", flt.q)) if v}
    return page(
        request,
        "urls.html",
        flt=flt,
        listing=listing,
        number=number,
        pages=pages,
        query=query,
        problem="",
    )


async def urls_csv(request: web.Request) -> web.StreamResponse:
    """``GET /admin/urls.csv``: every URL of the filtered list (RFC 4180, UTF-8 with BOM
    so that spreadsheet programs read the Japanese right), streamed in batches of
    :data:`CSV_BATCH` rows."""
    ctx = request.app[ADMIN]
    if ctx.data_dir is None and not ctx.frontier_url:
        raise web.HTTPNotFound()
    flt = url_filter(request)
    shared = ctx.frontier_url
    try:
        batch = await asyncio.to_thread(url_batch, ctx.data_dir, flt, "", CSV_BATCH, shared)
    except StateError as exc:
        raise web.HTTPNotFound(text=str(exc)) from None
    response = web.StreamResponse(
        headers={"Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store"}
    )
    response.headers["Content-Disposition"] = 'attachment; filename="outcomes.csv"'
    await response.prepare(request)
    await response.write(
        ("\ufeff" + _csv([["url", "host", "outcome", "reason", "last_fetched"]])).encode()
    )
    while batch:
        lines = [
            [_cell(r.url), _cell(r.host), r.outcome, _cell(r.reason), _time(r.updated)]
            for r in batch
        ]
        await response.write(_csv(lines).encode("utf-8"))
        if len(batch) < CSV_BATCH:
            break
        last = batch[-1].url
        batch = await asyncio.to_thread(url_batch, ctx.data_dir, flt, last, CSV_BATCH, shared)
    await response.write_eof()
    return response


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def _time(epoch: float | None) -> str:
    """ISO 8601 in UTC, to the second ('' for None)."""
    return "" if epoch is None else datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


def _cell(value: str) -> str:
    """A CSV cell that no spreadsheet runs as a formula (OWASP "CSV Injection")."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


async def doc(request: web.Request) -> web.Response:
    """``GET /admin/doc?id=``: a document's stored fields, encoding and where it came from,
    its outcome history and the extraction explanation stored by the crawl."""
    ctx = request.app[ADMIN]
    doc_id = request.query.get("id", "")
    too_long = _id_too_long(ctx, doc_id)
    if not doc_id or too_long:
        shown_id = doc_id[:ID_SHOWN] + (" …" if len(doc_id) > ID_SHOWN else "")
        problem = too_long or "no id"
        return page(
            request, "doc.html", 400, doc_id=shown_id, fields=None, state=None, problem=problem
        )
    state = await asyncio.to_thread(doc_state, ctx.data_dir, doc_id, ctx.frontier_url)
    problem = ""
    try:
        fields = await asyncio.to_thread(stored_document, ctx.solr, doc_id)
    except SolrRejectedError as exc:
        fields, problem = None, f"Solr refused the request (HTTP {exc.status})"
    except SolrError:
        fields, problem = None, "Solr did not answer"
    shown = {k: _cut(k, v) for k, v in sorted((fields or {}).items())}
    known = bool(fields) or bool(state.history) or bool(problem)
    return page(
        request,
        "doc.html",
        200 if known else 404,
        doc_id=doc_id,
        fields=shown if fields else None,
        state=state,
        decisions=state.explanation[:DECISIONS_SHOWN],
        problem=problem,
    )


def _id_too_long(ctx: AdminContext, doc_id: str) -> str:
    """Why ``doc_id`` cannot name a document ('' when it can): ids are normalized URLs, none
    longer than ``crawl.max_url_length`` (longer ones are traps, never indexed)."""
    limit = ctx.loaded.settings.crawl.max_url_length if ctx.loaded else DEFAULT_ID_LIMIT
    if len(doc_id) <= limit:
        return ""
    return (
        f"This id is {len(doc_id)} characters long; no document id is longer than "
        f"crawl.max_url_length ({limit} characters), so no document has it."
    )


def _cut(name: str, value: Any) -> Any:
    """``content`` cut to :data:`CONTENT_SHOWN` characters; other fields as stored."""
    if name == "content" and isinstance(value, str) and len(value) > CONTENT_SHOWN:
        return value[:CONTENT_SHOWN] + " …"
    return value


async def settings_page(request: web.Request) -> web.Response:
    """``GET /admin/settings``: every effective setting, its source and variable, secrets
    masked (:func:`indexer.settings.describe`)."""
    loaded = request.app[ADMIN].loaded
    rows = describe(loaded) if loaded is not None else []
    for row in rows:
        row["text"] = json.dumps(row["value"], ensure_ascii=False)
    return page(request, "settings.html", rows=rows)
