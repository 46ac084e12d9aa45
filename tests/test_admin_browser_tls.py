"""The admin login in a real browser over HTTPS (Debian's Chromium through Playwright,
loopback only, no Solr needed): ``indexer serve --tls-cert --tls-key`` with a self-signed
certificate made here; the login opens the admin page with a Secure, HttpOnly,
SameSite=Strict cookie, and after too many wrong passwords the lockout message shows, the
right password refused too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.web.admin import auth
from tests.test_web_browser import Browser, browser  # noqa: F401  (the fixture)
from tests.tls_fixtures import self_signed
from tests.web_fixtures import CHROMIUM, Server, run_serve

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium"),
]
PASSWORD = "browser-tls-admin-password"
FAILURES = 3


@pytest.fixture
def server(tmp_path: Path, free_port: int) -> Iterator[Server]:
    cert, key = self_signed(tmp_path)
    args = ["--port", "0", "--solr", f"http://127.0.0.1:{free_port}/solr"]
    args += ["--tls-cert", str(cert), "--tls-key", str(key)]
    env = {
        "INDEXER_SERVE_ADMIN_PASSWORD": PASSWORD,
        "INDEXER_SERVE_LOGIN_FAILURES": str(FAILURES),
        "INDEXER_SERVE_LOGIN_DELAY": "0",
    }
    with run_serve(args, env) as running:
        yield running


def _submit(page: object, password: str) -> None:
    page.locator("input[name=password]").fill(password)  # type: ignore[attr-defined]
    page.locator(".login-form button").click()  # type: ignore[attr-defined]
    page.wait_for_load_state()  # type: ignore[attr-defined]


def test_https_login_then_the_lockout_message(server: Server, browser: Browser) -> None:  # noqa: F811
    page = browser.page()
    page.goto(f"{server.url}admin")
    assert server.url.startswith("https://") and "/admin/login" in page.url
    _submit(page, PASSWORD)
    page.wait_for_url(re.compile(r"/admin$"))
    assert page.locator("form.logout button").is_visible()
    cookie = next(c for c in browser.context.cookies() if c["name"] == auth.SESSION_COOKIE)
    assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"

    page.goto(f"{server.url}admin/login")
    for _ in range(FAILURES):
        _submit(page, "wrong password")
        assert page.locator("p.message.error").inner_text() == "Wrong password."
    _submit(page, "wrong again")
    lockout = page.locator("p.lockout")
    assert "Too many failed logins: the login is locked" in lockout.inner_text()
    _submit(page, PASSWORD)  # the right one, refused unchecked while locked
    assert "the login is locked" in page.locator("p.lockout").inner_text()
    assert "/admin/login" in page.url
