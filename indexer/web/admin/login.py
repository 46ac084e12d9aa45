"""The login handlers: ``GET /admin/login`` (the form) and ``POST /admin/login`` (a
password checked only when :mod:`.throttle` grants the attempt).

A login POST goes: its CSRF token (else 403, uncounted), then a slot of its client address
(:func:`indexer.web.forwarded.client_of`) and of the account, then the password in constant
time (:func:`.auth.password_right`). Refused unchecked: 429 with ``Retry-After`` (RFC 6585
§4, RFC 9110 §10.2.3) and the form saying how long to wait. Each check is logged in one
line naming the address (a failure with its count in a row), never the password.
"""

from __future__ import annotations

import logging

from aiohttp import web

from indexer.web.admin import auth
from indexer.web.admin.context import page
from indexer.web.admin.throttle import LoginPolicy, LoginThrottle, Refusal
from indexer.web.forwarded import Proxies, client_of
from indexer.web.settings import ServeSettings

log = logging.getLogger(__name__)
THROTTLE = web.AppKey("admin_throttle", LoginThrottle)


def setup_login(app: web.Application, cfg: ServeSettings) -> None:
    """Add the login routes, its limits and trusted proxies (``serve.*``) to ``app``."""
    policy = LoginPolicy(cfg.login_failures, cfg.login_lockout, cfg.login_delay)
    app[THROTTLE] = LoginThrottle(policy)
    app[auth.PROXIES] = Proxies.parse(cfg.trusted_proxies, cfg.secure_cookie)
    app.router.add_get("/admin/login", login_form)
    app.router.add_post("/admin/login", login)


async def login_form(
    request: web.Request,
    failed: bool = False,
    target: str | None = None,
    refusal: Refusal | None = None,
) -> web.Response:
    """``GET /admin/login``: the password form, with a fresh pre-login CSRF token
    (``target``: where a right password leads, default the ``next`` parameter); 401 after
    a wrong password, 429 with ``Retry-After`` for a ``refusal``."""
    token, new = auth.login_token(request)
    target = target or auth.safe_next(request.query.get("next"))
    status = 429 if refusal else 401 if failed else 200
    response = page(
        request,
        "login.html",
        status,
        login_csrf=token,
        next=target,
        failed=failed,
        refusal=refusal,
    )
    if refusal:
        response.headers["Retry-After"] = str(refusal.retry_after)
    if new:
        auth.set_cookie(request, response, auth.LOGIN_COOKIE, token, 3600)
    return response


async def login(request: web.Request) -> web.StreamResponse:
    """``POST /admin/login``: a session on the right password, else the form again (401),
    or 429 unchecked while the client or the account waits or is locked out."""
    form = await request.post()
    target = auth.safe_next(str(form.get("next", "")))
    if not auth.login_csrf_ok(request, str(form.get("csrf", ""))):
        return auth.refused()
    address = client_of(request, request.app[auth.PROXIES])
    throttle = request.app[THROTTLE]
    grant = throttle.reserve(address)
    if isinstance(grant, Refusal):
        return await login_form(request, target=target, refusal=grant)
    right = False
    try:
        right = auth.password_right(request, str(form.get("password", "")))
    finally:  # the slot is given back whatever happens
        failures = throttle.settle(grant, right)
    if right:
        log.info("admin login from %s", address)
        return auth.start_session(request, target)
    log.info("admin login failed from %s (%d in a row)", address, failures)
    return await login_form(request, failed=True, target=target)
