"""``indexer serve`` refuses unsafe binds, keeps its admin password to itself, and never
shows Solr's error text."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import requests
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from indexer.settings import SolrSettings
from indexer.web.app import WebConfig, make_app
from indexer.web.security import CSP, admin_password, is_loopback
from indexer.web.settings import ServeSettings
from tests.web_fixtures import run_serve

SECRET = "correct-horse-battery-staple"


def _env_without_password() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "INDEXER_SERVE_ADMIN_PASSWORD"}


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10"])  # others: is_loopback below
def test_other_bind_addresses_need_a_password(host: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "serve", "--host", host, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env_without_password(),
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "serve.admin_password" in lines[0], proc.stderr
    assert "INDEXER_SERVE_ADMIN_PASSWORD" in lines[0]


def test_a_set_password_opens_other_addresses_without_showing_it() -> None:
    cfg = ServeSettings(host="0.0.0.0", admin_password=SECRET)  # type: ignore[arg-type]
    assert admin_password(cfg) == (SECRET, False)
    assert SECRET not in repr(cfg)
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.1", "localhost.example"))


def test_generated_password_is_new_at_each_start(free_port: int) -> None:
    dead_solr = f"http://127.0.0.1:{free_port}/solr"
    seen = []
    for _ in range(2):
        with run_serve(["--port", "0", "--solr", dead_solr], _env_without_password()) as server:
            assert len(server.password) >= 20
            seen.append(server.password)
    assert seen[0] != seen[1]


def test_configured_password_is_never_printed(free_port: int) -> None:
    env = {"INDEXER_SERVE_ADMIN_PASSWORD": SECRET}
    with run_serve(["--port", "0", "--solr", f"http://127.0.0.1:{free_port}/solr"], env) as s:
        assert s.password == ""
        requests.get(f"{s.url}", timeout=30)
    assert "indexer serve: stopped" in "".join(s.output)
    assert SECRET not in "".join(s.output)
    shown = subprocess.run(
        [sys.executable, "-m", "indexer", "config", "show", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )
    assert shown.returncode == 0, shown.stderr
    assert SECRET not in shown.stdout
    rows = {row["key"]: row for row in map(json.loads, shown.stdout.splitlines())}
    assert rows["serve.admin_password"]["value"] == "***"


def test_solr_down_shows_no_solr_text(free_port: int) -> None:
    with run_serve(["--port", "0", "--solr", f"http://127.0.0.1:{free_port}/solr"]) as server:
        resp = requests.get(f"{server.url}search", params={"q": "有給休暇"}, timeout=30)
        api = requests.get(f"{server.url}api/search", params={"q": "有給休暇"}, timeout=30)
    assert resp.status_code == 503
    assert "検索サーバーが応答しません" in resp.text
    for leak in (str(free_port), "no answer", "Traceback", "ConnectionError", "/solr"):
        assert leak not in resp.text and leak not in api.text, leak
    assert api.status_code == 503 and api.json() == {"error": "search is unavailable"}
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.solr
def test_solr_rejection_shows_no_solr_text(solr_base_url: str) -> None:
    core = "no_such_core_here"
    with run_serve(["--port", "0", "--solr", solr_base_url, "--core", core]) as server:
        resp = requests.get(f"{server.url}search", params={"q": "規程"}, timeout=30)
    assert resp.status_code == 503
    assert core not in resp.text and "HTTP" not in resp.text


async def test_an_unexpected_failure_shows_our_page_only() -> None:
    app = make_app(WebConfig(SolrSettings()))

    async def boom(request: web.Request) -> web.Response:
        raise RuntimeError("internal detail /solr/pages/search")

    app.router.add_get("/boom", boom)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        resp = await client.get("/boom")
        text = await resp.text()
        missing = await client.get("/no/such/page", headers={"Accept-Language": "en"})
        missing_text = await missing.text()
    assert resp.status == 500 and "問題が発生しました" in text
    assert "internal detail" not in text and "Traceback" not in text
    assert resp.headers["Content-Security-Policy"] == CSP
    assert missing.status == 404 and "Page not found." in missing_text
