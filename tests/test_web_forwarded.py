"""``X-Forwarded-For`` / ``X-Forwarded-Proto`` count only from ``serve.trusted_proxies``:
a spoofed address from any other peer does not escape the login limits, and a trusted
proxy's client is limited by its own address (the application on a real port of 127.0.0.1;
the addresses in the headers are never contacted)."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from http.cookies import SimpleCookie
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.web.admin import auth
from indexer.web.admin.login import THROTTLE
from indexer.web.forwarded import Proxies, client_key, forwarded_client, parse_address
from indexer.web.settings import ServeSettings
from tests.admin_fixtures import PASSWORD, csrf_of, make_client_app

pytestmark = pytest.mark.asyncio(loop_scope="session")
Post = Callable[..., Any]


@asynccontextmanager
async def _client(free_port: int, **serve: Any) -> AsyncIterator[TestClient[Any, Any]]:
    limits = {"login_failures": 3, "login_delay": 0, **serve}
    app = make_client_app(None, f"http://127.0.0.1:{free_port}/solr", serve=ServeSettings(**limits))
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        yield client


async def _post(client: TestClient[Any, Any], password: str, **headers: str) -> Any:
    """A login POST (its body read, as ``resp.body``) with a fresh form's token; the login
    cookie is sent by hand, as a browser on HTTPS would send a Secure one."""
    form = await client.get("/admin/login")
    data = {"csrf": csrf_of(await form.text()), "password": password, "next": "/admin"}
    jar = {c.key: c.value for c in client.session.cookie_jar}
    cookie = f"{auth.LOGIN_COOKIE}={jar[auth.LOGIN_COOKIE]}"
    headers = {"Cookie": cookie, **headers}
    resp = await client.post("/admin/login", data=data, headers=headers, allow_redirects=False)
    resp.body = await resp.text()
    return resp


def _cookie(resp: Any, name: str) -> Any:
    raw = [v for k, v in resp.headers.items() if k.lower() == "set-cookie"]
    return SimpleCookie("\n".join(raw))[name]


async def test_the_client_is_the_first_untrusted_hop_from_the_right() -> None:
    proxies = Proxies.parse(["10.0.0.0/8", "::1"])
    peer = parse_address("10.1.2.3")
    chain = ["198.51.100.7, 203.0.113.9", "10.4.4.4"]
    assert forwarded_client(peer, chain, proxies) == ipaddress.ip_address("203.0.113.9")
    assert forwarded_client(peer, ["10.4.4.4, 10.5.5.5"], proxies) == ipaddress.ip_address(
        "10.4.4.4"
    )  # every hop trusted: the farthest one
    assert forwarded_client(peer, ["not-an-ip, 10.4.4.4"], proxies) == ipaddress.ip_address(
        "10.4.4.4"
    )  # garbage stops the walk
    untrusted = parse_address("192.0.2.1")
    assert forwarded_client(untrusted, ["198.51.100.7"], proxies) == untrusted
    assert client_key(parse_address("2001:db8:1:2:3:4:5:6")) == "2001:db8:1:2::/64"
    assert client_key(parse_address("::ffff:192.0.2.8")) == "192.0.2.8"


async def test_a_spoofed_forwarded_for_from_an_untrusted_peer_is_ignored(
    free_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    async with _client(free_port, trusted_proxies=("10.9.9.0/24",)) as client:
        with caplog.at_level(logging.INFO, logger="indexer.web.admin"):
            answers = [
                await _post(client, f"guess-{i}", **{"X-Forwarded-For": f"198.51.100.{i}"})
                for i in range(30)
            ]
            right = await _post(client, PASSWORD, **{"X-Forwarded-For": "198.51.100.200"})
        throttle = client.server.app[THROTTLE]  # type: ignore[union-attr]
    assert [a.status for a in answers] == [401] * 3 + [429] * 27
    assert right.status == 429 and "the login is locked" in right.body
    assert len(throttle) == 1  # one address known: the peer's
    lines = [r.getMessage() for r in caplog.records]
    assert sum("admin login failed from 127.0.0.1" in line for line in lines) == 3
    assert not any("198.51.100" in line for line in lines), lines


async def test_a_trusted_proxy_names_the_client_and_its_https(free_port: int) -> None:
    async with _client(free_port, trusted_proxies=("127.0.0.1",)) as client:
        mallory = {"X-Forwarded-For": "203.0.113.5, 198.51.100.1"}  # the proxy appended .1
        alice = {"X-Forwarded-For": "198.51.100.2", "X-Forwarded-Proto": "https"}
        for _ in range(2):
            assert (await _post(client, "guess", **mallory)).status == 401
        welcome = await _post(client, PASSWORD, **alice)  # clears the account, not .1
        assert (await _post(client, "guess", **mallory)).status == 401
        locked = await _post(client, PASSWORD, **mallory)  # 3 in a row for .1
        again = await _post(client, PASSWORD, **alice)
        plain = await _post(client, PASSWORD, **{"X-Forwarded-For": "198.51.100.3"})
        assert len(client.server.app[THROTTLE]) == 3  # type: ignore[union-attr]
    assert welcome.status == 303 and _cookie(welcome, auth.SESSION_COOKIE)["secure"]
    assert locked.status == 429 and locked.headers["Retry-After"] == "300"
    assert again.status == 303 and plain.status == 303
    assert not _cookie(plain, auth.SESSION_COOKIE)["secure"]  # http behind the proxy


async def test_forwarded_proto_from_an_untrusted_peer_is_ignored(free_port: int) -> None:
    async with _client(free_port) as client:
        spoofed = await _post(client, PASSWORD, **{"X-Forwarded-Proto": "https"})
    assert spoofed.status == 303 and not _cookie(spoofed, auth.SESSION_COOKIE)["secure"]
    async with _client(free_port, secure_cookie=True) as client:
        forced = await _post(client, PASSWORD)
    cookie = _cookie(forced, auth.SESSION_COOKIE)
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Strict"
