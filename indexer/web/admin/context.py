"""What the admin handlers share: their context on the application and page rendering."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from indexer.settings import LoadedSettings, SolrSettings
from indexer.web.admin.render import render
from indexer.web.settings import ServeSettings


@dataclass
class AdminContext:
    """What the admin handlers need.

    Attributes:
        solr: the Solr settings (state, documents).
        data_dir: the crawl's data directory (``crawl.data_dir``), None: none configured.
        password: the admin password ('' refuses every login).
        loaded: the effective settings and their sources (``/admin/settings``, the
            reindex child), None in tests that need neither.
        config_file: the ``--config`` file the server was started with.
        frontier_url: the shared PostgreSQL frontier (``frontier.url``), read instead of
            ``data_dir``'s frontier; '' for SQLite.
        serve: the ``serve.*`` settings (login limits, trusted proxies, Secure cookies).
    """

    solr: SolrSettings
    data_dir: Path | None
    password: str
    loaded: LoadedSettings | None = None
    config_file: Path | None = None
    frontier_url: str = ""
    serve: ServeSettings = field(default_factory=ServeSettings)


ADMIN = web.AppKey("admin", AdminContext)
ENV = web.AppKey("admin_templates", jinja2.Environment)


def page(request: web.Request, name: str, status: int = 200, **context: Any) -> web.Response:
    """Render an admin page (see :func:`.render.render`)."""
    return render(request.app[ENV], request, name, status, **context)
