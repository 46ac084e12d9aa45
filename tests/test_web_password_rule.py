"""``indexer serve`` beyond loopback needs an admin password of at least 12 characters
(issue #30): refused with one line before anything listens. The child runs under an audit
hook that ends it before any bind other than loopback, so no test ever listens on 0.0.0.0."""

from __future__ import annotations

import pytest

from indexer.errors import ConfigError
from indexer.web.security import admin_password
from indexer.web.settings import MIN_PASSWORD_CHARS, ServeSettings
from tests.tls_fixtures import STOPPED_BEFORE_BIND, run_guarded


def test_eleven_characters_on_all_interfaces_exit_2_before_any_bind() -> None:
    proc = run_guarded(
        ["serve", "--host", "0.0.0.0", "--port", "0"],
        {"INDEXER_SERVE_ADMIN_PASSWORD": "a" * 11},
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr  # no traceback, and no "stopped before" line
    assert "serve.admin_password" in lines[0] and "at least 12 characters" in lines[0]
    assert "INDEXER_SERVE_ADMIN_PASSWORD" in lines[0] and "has 11" in lines[0]
    assert "a" * 11 not in proc.stderr + proc.stdout


def test_twelve_characters_pass_the_rule_and_reach_the_bind() -> None:
    """The accept case up to the bind: the guard stops the child at ``bind(0.0.0.0)``."""
    proc = run_guarded(
        ["serve", "--host", "0.0.0.0", "--port", "0"],
        {"INDEXER_SERVE_ADMIN_PASSWORD": "b" * 12},
    )
    assert proc.returncode == STOPPED_BEFORE_BIND, proc.stderr
    assert "stopped before socket.bind to 0.0.0.0" in proc.stderr
    assert "serve.admin_password" not in proc.stderr


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.0.0.1", "intranet.example"])
def test_the_rule_holds_for_every_address_but_loopback(host: str) -> None:
    short = ServeSettings(host=host, admin_password="x" * 11)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="at least 12 characters") as caught:
        admin_password(short)
    assert caught.value.setting == "serve.admin_password"
    right = ServeSettings(host=host, admin_password="x" * MIN_PASSWORD_CHARS)  # type: ignore[arg-type]
    assert admin_password(right) == ("x" * 12, False)


def test_loopback_keeps_short_passwords_and_generates_long_ones() -> None:
    assert admin_password(ServeSettings(admin_password="a"))[0] == "a"  # type: ignore[arg-type]
    generated, fresh = admin_password(ServeSettings(host="::1"))
    assert fresh and len(generated) >= MIN_PASSWORD_CHARS
