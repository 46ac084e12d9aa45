"""A brute force against a real ``indexer serve`` on 127.0.0.1 (issue #30): 1,000 wrong
passwords, 200 in parallel, from one address. The checks are counted from the server's own
log lines (one per checked password); the lockout is 2 s here so that it ends in the test."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import aiohttp

from tests.admin_fixtures import csrf_of
from tests.web_fixtures import run_serve

PASSWORD = "brute-force-test-password"
ATTEMPTS = 1000
PARALLEL = 200
LOCKOUT = 2.0
LIMITS = {
    "INDEXER_SERVE_ADMIN_PASSWORD": PASSWORD,
    "INDEXER_SERVE_LOGIN_FAILURES": "10",
    "INDEXER_SERVE_LOGIN_LOCKOUT": str(LOCKOUT),
    "INDEXER_SERVE_LOGIN_DELAY": "0.001",
}


@dataclass
class Answer:
    """One login POST's status, ``Retry-After`` and when it came (monotonic seconds)."""

    status: int
    retry_after: str | None
    at: float


class Login:
    """Login POSTs to one server with one pre-login CSRF token and its cookie."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session, self.base = session, base
        self.token = self.cookie = ""

    async def start(self) -> None:
        async with self.session.get(f"{self.base}admin/login") as resp:
            self.token = csrf_of(await resp.text())
            self.cookie = resp.cookies["indexer_login"].value

    async def post(self, password: str) -> Answer:
        async with self.session.post(
            f"{self.base}admin/login",
            data={"csrf": self.token, "password": password, "next": "/admin"},
            headers={"Cookie": f"indexer_login={self.cookie}"},
            allow_redirects=False,
        ) as resp:
            await resp.read()
            return Answer(resp.status, resp.headers.get("Retry-After"), time.monotonic())


async def _until_open(login: Login, deadline: float) -> tuple[list[Answer], Answer]:
    """Try the right password every 0.1 s until it is let in: ``(refusals, success)``."""
    refused = []
    while time.monotonic() < deadline:
        answer = await login.post(PASSWORD)
        if answer.status != 429:
            return refused, answer
        refused.append(answer)
        await asyncio.sleep(0.1)
    raise AssertionError(f"still locked after {len(refused)} tries")


async def test_a_thousand_parallel_guesses_get_ten_checks_then_a_lockout(free_port: int) -> None:
    args = ["--port", "0", "--solr", f"http://127.0.0.1:{free_port}/solr"]
    connector = aiohttp.TCPConnector(limit=PARALLEL)
    with run_serve(args, LIMITS) as server:
        async with aiohttp.ClientSession(
            connector=connector, cookie_jar=aiohttp.DummyCookieJar()
        ) as session:
            login = Login(session, server.url)
            await login.start()
            started = time.monotonic()
            answers = await asyncio.gather(
                *(login.post(f"wrong-guess-{i:04d}") for i in range(ATTEMPTS))
            )
            elapsed = time.monotonic() - started
            refused, opened = await _until_open(login, time.monotonic() + 3 * LOCKOUT)
    output = "".join(server.output)
    checked = [a for a in answers if a.status == 401]
    statuses = {a.status for a in answers}
    print(
        f"{ATTEMPTS} guesses in {elapsed:.2f} s: {len(checked)} checked, lockout "
        f"{opened.at - max(a.at for a in checked):.2f} s, {len(refused)} right ones refused"
    )
    assert elapsed < 10 and statuses == {401, 429}, (elapsed, statuses)
    assert output.count("admin login failed from 127.0.0.1") == len(checked) == 10
    assert all(a.retry_after and int(a.retry_after) >= 1 for a in answers if a.status == 429)
    assert refused and all(int(a.retry_after or 0) <= LOCKOUT for a in refused)  # right, refused
    assert opened.status == 303
    lockout = opened.at - max(a.at for a in checked)
    assert LOCKOUT - 0.05 <= lockout <= LOCKOUT + 1.5, lockout  # ends by itself, on time
    locks = [line for line in output.splitlines() if "admin login locked until" in line]
    assert len(locks) == 1 and "for 127.0.0.1 and the account" in locks[0], locks
    assert output.count("admin login from 127.0.0.1") == 1  # only the last one was checked
    assert PASSWORD not in output and "wrong-guess" not in output
