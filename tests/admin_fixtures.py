"""Helpers of the admin-view tests: a frontier written through the real Frontier API and
the application over it, in-process, with Solr at a dead loopback port unless given."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from aiohttp.test_utils import TestClient

from indexer.crawl.frontier import Frontier
from indexer.settings import SolrSettings, load_settings
from indexer.web.app import WebConfig, make_app
from indexer.web.settings import ServeSettings

PASSWORD = "admin-test-password-1234"
HOSTILE = '<script>alert("x")</script>'


def write_frontier(
    data_dir: Path,
    pages: int = 3,
    host: str = "127.0.0.1:9",
    opener: Callable[[Path], Frontier] = Frontier,
) -> None:
    """A frontier of one finished run: ``pages`` indexed URLs, a 404 with a hostile
    reason, a URL whose path holds markup, and one ``=cmd`` URL (CSV injection).
    ``opener`` opens the frontier (SQLite in ``data_dir`` unless told otherwise)."""
    with opener(data_dir) as frontier:
        frontier.start_run(False)
        urls = [f"http://{host}/p{i:03d}.html" for i in range(pages)]
        urls += [
            f"http://{host}/gone.html",
            f"http://{host}/%22%3E{HOSTILE}",
            f"http://{host}/=cmd",
        ]
        frontier.add((u, host, 1) for u in urls)
        for url in urls:
            assert frontier.claim(host, 1e12) is not None
            if url.endswith("gone.html"):
                frontier.finish(url, "http-404", f"Not Found {HOSTILE}")
            else:
                frontier.finish(url, "indexed", "", reached=True, content_hash="h" + url[-6:])
        frontier.set_phase("finished", 0, "")


def make_client_app(
    data_dir: Path | None,
    solr_url: str,
    password: str = PASSWORD,
    frontier: str = "",
    serve: ServeSettings | None = None,
) -> object:
    """The ``indexer serve`` application over ``data_dir`` (or the shared ``frontier``,
    ``frontier.url``) with the given password (and ``serve.*`` settings: login limits,
    trusted proxies)."""
    loaded = load_settings(None, {"solr.url": solr_url, "crawl.data_dir": data_dir})
    config = WebConfig(
        SolrSettings(url=solr_url, timeout=5),
        admin_password=password,
        data_dir=data_dir,
        frontier=frontier or None,
        loaded=loaded,
        serve=serve or ServeSettings(),
    )
    return make_app(config)


_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(html: str) -> str:
    """The CSRF token of the first form in ``html``."""
    match = _CSRF.search(html)
    assert match, html[:500]
    return match.group(1)


async def log_in(client: TestClient, password: str = PASSWORD) -> str:  # type: ignore[type-arg]
    """Log in through the form; returns the session's CSRF token (from ``/admin``)."""
    form = await client.get("/admin/login")
    token = csrf_of(await form.text())
    resp = await client.post(
        "/admin/login",
        data={"csrf": token, "password": password, "next": "/admin"},
        allow_redirects=False,
    )
    assert resp.status == 303, await resp.text()
    home = await client.get("/admin/settings")
    assert home.status == 200
    return csrf_of(await home.text())
