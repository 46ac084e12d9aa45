"""``/admin/reindex``: the dry-run plan of the next reindex, and a button that runs it.

``GET /admin/reindex`` shows the job running now (with the progress its run writes into
the crawl state, the page refreshing itself every 2 s while it runs), the last plan (adds,
updates, deletes, what the guard would refuse, the summary line) and the last run with its
exit code. ``POST /admin/reindex/plan`` starts ``indexer reindex --dry-run``,
``POST /admin/reindex/run`` starts ``indexer reindex``; both need the session's CSRF token
(checked by :func:`.auth.admin_guard`) and answer 303 back to the page (409 while a job
runs).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from aiohttp import web

from indexer.web.admin.auth import see_other
from indexer.web.admin.context import ADMIN, page
from indexer.web.admin.jobs import PLAN_SHOWN, Jobs
from indexer.web.admin.state import Overview, RunRow, overview

JOBS = web.AppKey("admin_jobs", Jobs)
#: What exit 3 means, and who should look (README, "Nightly jobs").
GUARD_NOTE = (
    "exit 3: the mass-delete guard refused; nothing was deleted. The owner of the host "
    "named should check whether its pages are really gone (a broken deploy, a login wall, "
    "a moved site) before anyone runs `indexer reindex --force`."
)


def add_routes(router: web.UrlDispatcher) -> None:
    """The reindex routes."""
    router.add_get("/admin/reindex", reindex_view)
    router.add_post("/admin/reindex/plan", start_plan)
    router.add_post("/admin/reindex/run", start_run)


async def stop_jobs(app: web.Application) -> None:
    """``on_cleanup``: stop a running reindex child by its pid."""
    await app[JOBS].stop()


async def reindex_view(request: web.Request) -> web.Response:
    """``GET /admin/reindex``: the running job with its progress, the last plan and run."""
    jobs = request.app.get(JOBS)
    running = jobs.running if jobs is not None else None
    state = await _overview(request)
    live = _live_reindex(state.runs)
    last = jobs.last if jobs is not None else {}
    return page(
        request,
        "reindex.html",
        available=jobs is not None,
        running=running,
        live=live,
        plan=last.get("plan"),
        run=last.get("run"),
        shown=PLAN_SHOWN,
        guard_note=GUARD_NOTE,
        last_reindex=state.last_reindex,
    )


async def _overview(request: web.Request) -> Overview:
    """The dashboard's runs, read off the loop from the server's frontier."""
    ctx = request.app[ADMIN]
    return await asyncio.to_thread(overview, ctx.data_dir, ctx.frontier_url)


def _live_reindex(runs: Sequence[RunRow]) -> RunRow | None:
    """A reindex running now with fresh progress, whoever started it (this page, the
    nightly timer, a shell)."""
    return next((r for r in runs if r.live and r.kind == "reindex"), None)


async def _start(request: web.Request, kind: str) -> web.StreamResponse:
    jobs = request.app.get(JOBS)
    if jobs is None:
        raise web.HTTPNotFound(text="no data directory: nothing to reindex")
    state = await _overview(request)
    if _live_reindex(state.runs) is not None or await jobs.start(kind) is None:
        raise web.HTTPConflict(text="a reindex job is running already")
    return see_other("/admin/reindex")


async def start_plan(request: web.Request) -> web.StreamResponse:
    """``POST /admin/reindex/plan``: start ``indexer reindex --dry-run``."""
    return await _start(request, "plan")


async def start_run(request: web.Request) -> web.StreamResponse:
    """``POST /admin/reindex/run``: start ``indexer reindex``."""
    return await _start(request, "run")
