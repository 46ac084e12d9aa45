"""The ``serve.*`` settings section of ``indexer serve``, part of
:class:`indexer.settings.Settings` (loaded, layered and validated there like every section)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

#: Characters an admin password needs when the server listens beyond loopback.
MIN_PASSWORD_CHARS = 12


class ServeSettings(BaseModel):
    """The web interface, ``indexer serve`` (``serve.*``).

    The login limits (``login_*``) apply per client address and to the one admin account
    alike (:mod:`indexer.web.admin.throttle`); ``trusted_proxies`` says whose
    ``X-Forwarded-For`` / ``X-Forwarded-Proto`` count (:mod:`indexer.web.forwarded`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(
        "127.0.0.1", description="Bind address; any but loopback needs serve.admin_password."
    )
    port: int = Field(8080, ge=0, le=65535, description="TCP port of the web interface.")
    admin_password: SecretStr | None = Field(
        None,
        description="Password of the admin views; required to bind a non-loopback address, "
        f"then at least {MIN_PASSWORD_CHARS} characters (on 127.0.0.1 a random one is printed "
        "at each start when unset). Never logged.",
    )
    tls_cert: Path | None = Field(
        None, description="PEM certificate (chain) file: serve HTTPS (--tls-cert, with tls_key)."
    )
    tls_key: Path | None = Field(
        None, description="PEM private key file of serve.tls_cert (--tls-key)."
    )
    secure_cookie: bool = Field(
        False, description="Mark the admin cookies Secure even on plain HTTP (TLS ends before)."
    )
    trusted_proxies: tuple[str, ...] = Field(
        (),
        description="Addresses or CIDR networks of reverse proxies whose X-Forwarded-For "
        "(client address) and X-Forwarded-Proto (https: Secure cookies) are believed.",
    )
    login_failures: int = Field(
        10,
        ge=1,
        description="Failed admin logins in a row (per address, and for the account) "
        "that lock the login.",
    )
    login_lockout: float = Field(
        300.0, gt=0, description="Seconds a locked login refuses every attempt (429)."
    )
    login_delay: float = Field(
        1.0,
        ge=0,
        description="Seconds to wait after the second failed login in a row before the next "
        "is checked; doubles with each further failure (at most 60; the first costs none).",
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """Each entry an IP address or network (``10.0.0.5``, ``10.0.0.0/8``, ``::1``)."""
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ValueError(f"not an IP address or network: {entry!r}") from None
        return value
