"""HTTPS for ``indexer serve``: the server's :class:`ssl.SSLContext` from ``serve.tls_cert``
and ``serve.tls_key`` (``--tls-cert`` / ``--tls-key``), checked before anything listens."""

from __future__ import annotations

import ssl
from pathlib import Path

from indexer.errors import ConfigError
from indexer.web.settings import ServeSettings


def server_context(cfg: ServeSettings) -> ssl.SSLContext | None:
    """The TLS context to serve with, or None for plain HTTP (neither file given).

    :func:`ssl.create_default_context` for client connections: TLS 1.2 at least and
    Python's vetted cipher list.

    Raises:
        ConfigError: one file given without the other, a file that cannot be read, a
            certificate file without a PEM certificate, or a key that is not the
            certificate's; the message names the setting and the file.
    """
    if cfg.tls_cert is None and cfg.tls_key is None:
        return None
    if cfg.tls_cert is None or cfg.tls_key is None:
        given, missing = ("tls_cert", "tls_key") if cfg.tls_key is None else ("tls_key", "tls_cert")
        raise ConfigError(
            f"serve.{missing}",
            f"required with serve.{given} (--{missing.replace('_', '-')} FILE)",
        )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    _readable("serve.tls_cert", cfg.tls_cert)
    _readable("serve.tls_key", cfg.tls_key)
    try:
        context.load_verify_locations(cafile=str(cfg.tls_cert))  # a certificate at all?
    except ssl.SSLError as exc:
        raise ConfigError(
            "serve.tls_cert", f"{cfg.tls_cert}: no PEM certificate ({_why(exc)})"
        ) from None
    try:
        # no passphrase prompt on the terminal: an encrypted key fails here instead
        context.load_cert_chain(str(cfg.tls_cert), str(cfg.tls_key), password=lambda: b"")
    except ssl.SSLError as exc:
        raise ConfigError(
            "serve.tls_key",
            f"{cfg.tls_key}: not the unencrypted PEM private key of {cfg.tls_cert} ({_why(exc)})",
        ) from None
    return context


def _readable(setting: str, path: Path) -> None:
    """Raise :class:`ConfigError` naming ``setting`` and ``path`` unless it can be read."""
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise ConfigError(setting, f"{path}: {exc.strerror or exc}") from None


def _why(exc: ssl.SSLError) -> str:
    """OpenSSL's reason in a few words (``PEM lib``, ``KEY_VALUES_MISMATCH``)."""
    return str(exc.reason or exc.strerror or exc.args[-1])
