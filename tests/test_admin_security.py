"""The admin views' security rules: a login for every route, cookies that stay on this
site, a CSRF token on every POST, and all crawled text escaped."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.web.admin import auth
from tests.admin_fixtures import HOSTILE, PASSWORD, csrf_of, log_in, make_client_app, write_frontier

GET_ROUTES = [
    "/admin",
    "/admin/urls",
    "/admin/urls?outcome=indexed&page=2",
    "/admin/urls.csv",
    "/admin/doc?id=http://127.0.0.1:9/p000.html",
    "/admin/reindex",
    "/admin/settings",
]
pytestmark = pytest.mark.asyncio(loop_scope="session")
POST_ROUTES = ["/admin/logout", "/admin/reindex/plan", "/admin/reindex/run"]


@pytest.fixture
async def client(tmp_path: Path, free_port: int) -> AsyncIterator[TestClient[Any, Any]]:
    write_frontier(tmp_path / "crawl")
    app = make_client_app(tmp_path / "crawl", f"http://127.0.0.1:{free_port}/solr")
    async with TestClient(TestServer(app, host="127.0.0.1")) as test_client:  # type: ignore[arg-type]
        yield test_client


@pytest.mark.parametrize("route", GET_ROUTES)
async def test_every_get_route_without_a_session_lands_on_the_login(
    client: TestClient[Any, Any], route: str
) -> None:
    resp = await client.get(route, allow_redirects=False)
    assert resp.status == 303
    assert resp.headers["Location"].startswith("/admin/login?next=")
    followed = await client.get(route)
    assert followed.url.path == "/admin/login"
    assert 'name="password"' in await followed.text()


@pytest.mark.parametrize("route", POST_ROUTES)
async def test_every_post_route_without_a_session_lands_on_the_login(
    client: TestClient[Any, Any], route: str
) -> None:
    resp = await client.post(route, data={"csrf": "x"}, allow_redirects=False)
    assert resp.status == 303 and resp.headers["Location"].startswith("/admin/login")


async def test_login_sets_a_strict_httponly_expiring_cookie(client: TestClient[Any, Any]) -> None:
    form = await client.get("/admin/login")
    token = csrf_of(await form.text())
    wrong = await client.post(
        "/admin/login", data={"csrf": token, "password": "nope", "next": "/admin/urls"}
    )
    assert wrong.status == 401 and "Wrong password" in await wrong.text()
    assert 'name="next" value="/admin/urls"' in await wrong.text()  # kept for the next try
    assert auth.SESSION_COOKIE not in {c.key for c in client.session.cookie_jar}
    resp = await client.post(
        "/admin/login",
        data={"csrf": token, "password": PASSWORD, "next": "/admin/urls"},
        allow_redirects=False,
    )
    assert resp.status == 303 and resp.headers["Location"] == "/admin/urls"
    raw = [v for k, v in resp.headers.items() if k.lower() == "set-cookie"]
    cookie = SimpleCookie("\n".join(raw))[auth.SESSION_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/admin"
    assert int(cookie["max-age"]) == auth.SESSION_SECONDS
    assert (await client.get("/admin/urls", allow_redirects=False)).status == 200


async def test_login_refuses_a_foreign_next_and_a_post_without_its_token(
    client: TestClient[Any, Any],
) -> None:
    await client.get("/admin/login")
    no_token = await client.post("/admin/login", data={"password": PASSWORD})
    assert no_token.status == 403
    assert auth.SESSION_COOKIE not in {c.key for c in client.session.cookie_jar}
    form = await client.get("/admin/login?next=//example.invalid/x")
    token = csrf_of(await form.text())
    resp = await client.post(
        "/admin/login",
        data={"csrf": token, "password": PASSWORD, "next": "//example.invalid/x"},
        allow_redirects=False,
    )
    assert resp.headers["Location"] == "/admin"
    assert auth.safe_next("/admin/urls\r\nSet-Cookie: x=1") == "/admin"
    assert auth.safe_next("/admin\\..\\x") == "/admin" and auth.safe_next("/other") == "/admin"
    assert auth.safe_next("/admin/urls?q=a") == "/admin/urls?q=a"


@pytest.mark.parametrize("route", POST_ROUTES)
async def test_a_post_without_the_csrf_token_is_refused(
    client: TestClient[Any, Any], route: str
) -> None:
    token = await log_in(client)
    for data in ({}, {"csrf": token[:-1] + ("A" if token[-1] != "A" else "B")}):
        resp = await client.post(route, data=data, allow_redirects=False)
        assert resp.status == 403, route
        assert await resp.text() == "refused: missing or wrong CSRF token"
    assert (await client.get("/admin", allow_redirects=False)).status == 200  # still logged in


async def test_logout_and_expiry_end_the_session(client: TestClient[Any, Any]) -> None:
    token = await log_in(client)
    out = await client.post("/admin/logout", data={"csrf": token}, allow_redirects=False)
    assert out.status == 303
    assert (await client.get("/admin", allow_redirects=False)).status == 303
    await log_in(client)
    sessions = client.server.app[auth.SESSIONS]  # type: ignore[union-attr]
    for session in sessions.live.values():
        session.expires = time.time() - 1
    assert (await client.get("/admin", allow_redirects=False)).status == 303


async def test_no_login_without_a_password(tmp_path: Path, free_port: int) -> None:
    app = make_client_app(None, f"http://127.0.0.1:{free_port}/solr", password="")
    async with TestClient(TestServer(app, host="127.0.0.1")) as empty:  # type: ignore[arg-type]
        form = await empty.get("/admin/login")
        token = csrf_of(await form.text())
        resp = await empty.post("/admin/login", data={"csrf": token, "password": ""})
        assert resp.status == 401


async def test_crawled_text_is_escaped_on_every_page(client: TestClient[Any, Any]) -> None:
    await log_in(client)
    gone = "/admin/doc?id=http://127.0.0.1:9/gone.html"
    for route in ("/admin/urls", "/admin/urls?q=Not+Found", gone, "/admin"):
        resp = await client.get(route)
        text = await resp.text()
        assert resp.status == 200, route
        assert "<script>alert" not in text, route
        assert resp.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert resp.headers["Cache-Control"] == "no-store"
    text = await (await client.get(gone)).text()
    assert "Not Found &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in text
    assert HOSTILE not in text


async def test_settings_mask_secrets(tmp_path: Path, free_port: int) -> None:
    await_client = make_client_app(None, f"http://127.0.0.1:{free_port}/solr")
    async with TestClient(TestServer(await_client, host="127.0.0.1")) as c:  # type: ignore[arg-type]
        await log_in(c)
        text = await (await c.get("/admin/settings")).text()
    assert PASSWORD not in text and "serve.admin_password" in text
    assert "[file]" not in text and "solr.url" in text


async def test_the_route_tests_cover_every_admin_route(client: TestClient[Any, Any]) -> None:
    app = client.server.app  # type: ignore[union-attr]
    registered = {
        (route.method, route.resource.canonical)
        for route in app.router.routes()
        if route.resource is not None
        and auth.is_admin_path(route.resource.canonical)
        and route.resource.canonical != "/admin/login"
        and route.method != "HEAD"
    }
    tested = {("GET", r.split("?")[0]) for r in GET_ROUTES} | {("POST", r) for r in POST_ROUTES}
    assert registered == tested


async def test_printed_values_lose_bidi_and_control_characters() -> None:
    """Crawled text on the admin pages shows as the search page shows it: no bidi
    override (``evil`` must not read ``live``), no C0 control; markup still escaped."""
    from indexer.web.admin.render import environment

    page = (
        environment()
        .from_string("<p>{{ title }}</p>")
        .render(title="\u202eevil\u202c gnp.exe \u2066x\u2069 <b>\x00\x1b</b>\tend")
    )
    assert page == "<p>evil gnp.exe x &lt;b&gt;&lt;/b&gt;\tend</p>", page
