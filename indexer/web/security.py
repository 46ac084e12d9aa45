"""Secure defaults of ``indexer serve``: who may bind where, the admin password, and the
response headers every answer carries.

A Content-Security-Policy without ``unsafe-inline`` (W3C CSP Level 3): scripts, styles and
images from this server only, no plugins, no framing, forms post back here only; plus
``X-Content-Type-Options: nosniff`` (WHATWG Fetch) and ``Referrer-Policy: same-origin``, so
a query never leaks to the intranet pages a user opens from the hits.
"""

from __future__ import annotations

import ipaddress
import secrets

from aiohttp import web

from indexer.errors import ConfigError
from indexer.web.settings import MIN_PASSWORD_CHARS, ServeSettings

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
PASSWORD_HINT = "serve.admin_password (INDEXER_SERVE_ADMIN_PASSWORD or [serve] admin_password)"


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ::1); names other than
    ``localhost`` are never resolved here, so they count as non-loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def admin_password(cfg: ServeSettings) -> tuple[str, bool]:
    """The admin password and whether it was generated now.

    Returns:
        ``(password, generated)``: ``serve.admin_password`` when set; on a loopback bind
        without it, 24 random URL-safe characters (``secrets``, 144 bits), new at each start.

    Raises:
        ConfigError: a non-loopback bind address without ``serve.admin_password``, or with
            one shorter than :data:`MIN_PASSWORD_CHARS` (the OWASP Authentication Cheat
            Sheet's "minimum length" rule; a reachable login needs a password that a
            limited guesser cannot reach).
    """
    password = cfg.admin_password.get_secret_value() if cfg.admin_password else ""
    if not is_loopback(cfg.host):
        check_length(password, cfg.host)
    if password:
        return password, False
    return secrets.token_urlsafe(18), True


def check_length(password: str, host: str) -> None:
    """Refuse an admin password unfit to listen on ``host`` (not loopback).

    Raises:
        ConfigError: ``password`` is empty or shorter than :data:`MIN_PASSWORD_CHARS`
            characters (names ``serve.admin_password``, never the password).
    """
    if not password:
        raise ConfigError(
            "serve.admin_password",
            f"required to listen on {host} (not loopback); set {PASSWORD_HINT}",
        )
    if len(password) < MIN_PASSWORD_CHARS:
        raise ConfigError(
            "serve.admin_password",
            f"at least {MIN_PASSWORD_CHARS} characters to listen on {host} (not loopback), "
            f"this one has {len(password)}; set a longer one in {PASSWORD_HINT}",
        )


async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare`` hook: :data:`HEADERS` on every answer, error pages included."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
