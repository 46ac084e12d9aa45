"""The admin login: a password form, server-side sessions, and a CSRF token on every POST.

- ``GET /admin/login`` shows the form; ``POST /admin/login`` (:mod:`.login`, limited by
  :mod:`.throttle`) checks the password (``serve.admin_password``, or the one ``indexer
  serve`` printed) in constant time (:func:`hmac.compare_digest` of SHA-256 digests, so not
  even the length shows) and sets the session cookie: random (``secrets``, 256 bits),
  ``HttpOnly``, ``SameSite=Strict``, ``Path=/admin``, ``Secure`` when the client came over
  HTTPS (RFC 6265 §4.1.2.5; :func:`indexer.web.forwarded.is_https`), expiring after
  :data:`SESSION_SECONDS` (``Max-Age``, and the server forgets it too).
- Every other ``/admin`` route without a live session answers 303 to the login page
  (:func:`admin_guard`).
- Every POST carries a CSRF token in the form field ``csrf`` (OWASP's synchronizer token
  pattern): the session's own token, or before login the token of the ``indexer_login``
  cookie (double submit). A POST without the right one is refused with 403 (:func:`refused`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import quote

from aiohttp import web

from indexer.web.forwarded import Proxies, is_https

SESSION_COOKIE = "indexer_admin"
LOGIN_COOKIE = "indexer_login"
#: Seconds a session lives after login.
SESSION_SECONDS = 8 * 3600
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(slots=True)
class Session:
    """A logged-in admin: the session's CSRF token and when it expires (epoch seconds)."""

    csrf: str
    expires: float


@dataclass
class Sessions:
    """The live sessions of one server process, by cookie value (lost when it restarts)."""

    live: dict[str, Session] = field(default_factory=dict)

    def create(self) -> tuple[str, Session]:
        """A new session: ``(cookie value, session)``; expired ones are forgotten."""
        now = time.time()
        for old in [t for t, s in self.live.items() if s.expires <= now]:
            del self.live[old]
        token = secrets.token_urlsafe(32)
        session = Session(secrets.token_urlsafe(32), now + SESSION_SECONDS)
        self.live[token] = session
        return token, session

    def get(self, token: str | None) -> Session | None:
        """The live session of ``token``, or None (an expired one is forgotten)."""
        if not token:
            return None
        session = self.live.get(token)
        if session is not None and session.expires <= time.time():
            del self.live[token]
            return None
        return session

    def drop(self, token: str | None) -> None:
        """Forget ``token``'s session (logout)."""
        if token:
            self.live.pop(token, None)


SESSIONS = web.AppKey("admin_sessions", Sessions)
PASSWORD = web.AppKey("admin_password", str)
PROXIES = web.AppKey("admin_proxies", Proxies)


def current(request: web.Request) -> Session | None:
    """The live session of the request's cookie, or None."""
    return request.app[SESSIONS].get(request.cookies.get(SESSION_COOKIE))


def is_admin_path(path: str) -> bool:
    """True for ``/admin`` and everything under ``/admin/``."""
    return path == "/admin" or path.startswith("/admin/")


@web.middleware
async def admin_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Admin routes need a session (else 303 to the login page, ``next`` kept); every
    admin POST needs its CSRF token (else 403). The login page itself is open."""
    if not is_admin_path(request.path):
        return await handler(request)
    if request.path == "/admin/login":
        return await handler(request)
    session = current(request)
    if session is None:
        target = request.path_qs if request.method == "GET" else "/admin"
        raise web.HTTPSeeOther(f"/admin/login?next={quote(target, safe='')}")
    if request.method == "POST":
        form = await request.post()
        if not _same(str(form.get("csrf", "")), session.csrf):
            return refused()
    return await handler(request)


def _same(given: str, expected: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), expected.encode())


def safe_next(value: str | None) -> str:
    """Where to go after login: an admin path of this server (no other host, no control
    characters that could split the ``Location`` header), else ``/admin``."""
    if (
        value
        and is_admin_path(value)
        and "\\" not in value
        and not any(ord(c) < 32 or ord(c) == 127 for c in value)
    ):
        return value
    return "/admin"


def login_token(request: web.Request) -> tuple[str, bool]:
    """The pre-login CSRF token: the ``indexer_login`` cookie's, or a new one (True)."""
    token = request.cookies.get(LOGIN_COOKIE, "")
    if len(token) >= 32:
        return token, False
    return secrets.token_urlsafe(32), True


def set_cookie(
    request: web.Request, response: web.StreamResponse, name: str, value: str, max_age: int
) -> None:
    """Set an admin cookie: HttpOnly, SameSite=Strict, Path=/admin, and Secure when the
    client came over HTTPS (RFC 6265 §4.1.2.5-6; SameSite: RFC 6265bis)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/admin",
        httponly=True,
        samesite="Strict",
        secure=is_https(request, request.app[PROXIES]) or None,
    )


def login_csrf_ok(request: web.Request, form_token: str) -> bool:
    """True when a login POST's ``csrf`` field is its ``indexer_login`` cookie (double
    submit, before any session exists)."""
    cookie = request.cookies.get(LOGIN_COOKIE, "")
    return len(cookie) >= 32 and _same(form_token, cookie)


def password_right(request: web.Request, given: str) -> bool:
    """True when ``given`` is the admin password ('' refuses everything), compared in
    constant time on SHA-256 digests (OWASP Authentication Cheat Sheet)."""
    expected = request.app[PASSWORD]
    digest, wanted = (hashlib.sha256(v.encode()).digest() for v in (given, expected))
    return bool(expected) and hmac.compare_digest(digest, wanted)


def refused() -> web.Response:
    """The answer to a POST without its CSRF token: 403 with one line (returned, not
    raised, so that no error page stands in for it)."""
    return web.Response(status=403, text="refused: missing or wrong CSRF token")


def start_session(request: web.Request, target: str) -> web.StreamResponse:
    """The answer to a right password: a new session cookie and 303 to ``target``."""
    token, _ = request.app[SESSIONS].create()
    response = see_other(target)
    set_cookie(request, response, SESSION_COOKIE, token, SESSION_SECONDS)
    response.del_cookie(LOGIN_COOKIE, path="/admin")
    return response


def end_session(request: web.Request) -> web.StreamResponse:
    """Log out: forget the session, clear its cookie, 303 to the login page."""
    request.app[SESSIONS].drop(request.cookies.get(SESSION_COOKIE))
    response = see_other("/admin/login")
    response.del_cookie(SESSION_COOKIE, path="/admin")
    return response


def see_other(target: str) -> web.Response:
    """A 303 answer to ``target`` (a path of this server)."""
    return web.Response(status=303, headers={"Location": target})
