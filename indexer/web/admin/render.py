"""Rendering of the admin pages: their Jinja2 environment (autoescaping on, as in part 1)
and the filters the templates share (times, durations)."""

from __future__ import annotations

import time
from typing import Any

import jinja2
from aiohttp import web

from indexer.web.admin.auth import SESSIONS, current


def environment() -> jinja2.Environment:
    """The admin templates (``indexer/web/templates/admin/``), HTML-escaped."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("indexer.web", "templates/admin"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    env.filters["ago"] = ago
    return env


def when(epoch: float | None) -> str:
    """Local time ``YYYY-MM-DD HH:MM:SS`` of epoch seconds ('' for None)."""
    return "" if epoch is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(epoch))


def ago(epoch: float | None) -> str:
    """Seconds since ``epoch``, e.g. ``3 s ago`` ('' for None)."""
    return "" if epoch is None else f"{max(0, int(time.time() - epoch))} s ago"


def render(
    env: jinja2.Environment, request: web.Request, name: str, status: int = 200, **context: Any
) -> web.Response:
    """The page ``name`` as HTML; every page gets ``css``, ``csrf`` (the session's token,
    '' before login) and ``path``."""
    css = request.app.router["static"].url_for(filename="style.css")
    session = current(request) if SESSIONS in request.app else None
    csrf = session.csrf if session is not None else ""
    text = env.get_template(name).render(css=str(css), csrf=csrf, path=request.path, **context)
    response = web.Response(text=text, content_type="text/html", charset="utf-8", status=status)
    response.headers["Cache-Control"] = "no-store"
    return response
