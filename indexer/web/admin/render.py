"""Rendering of the admin pages: their Jinja2 environment (autoescaping on, as in part 1)
and the filters the templates share (times, durations), and ``drain_command`` (the command
that finishes a dead process's part, :func:`indexer.crawl.frontier.members.drain_command`)."""

from __future__ import annotations

import re
import time
from typing import Any

import jinja2
import markupsafe
from aiohttp import web

from indexer.crawl.frontier.members import drain_command
from indexer.solr.snippets import without_bidi
from indexer.web.admin.auth import SESSIONS, current


def environment() -> jinja2.Environment:
    """The admin templates (``indexer/web/templates/admin/``), HTML-escaped."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("indexer.web", "templates/admin"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=printable,
    )
    env.filters["when"] = when
    env.filters["ago"] = ago
    env.globals["drain_command"] = drain_command  # one wording with report and the CLI
    return env


#: C0 controls other than tab and line breaks, and DEL (not allowed in HTML text).
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def printable(value: Any) -> Any:
    """Every value a template prints: crawled text without bidirectional controls (as the
    search page shows it, :func:`indexer.solr.snippets.without_bidi`) or C0 controls;
    markup the code built passes as it is."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return _CONTROLS.sub("", without_bidi(value))
    return value


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
