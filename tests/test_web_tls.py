"""``indexer serve --tls-cert FILE --tls-key FILE``: HTTPS on 127.0.0.1 with a self-signed
certificate made in the test, its cookies Secure, HttpOnly and SameSite=Strict; files that
cannot serve are one line naming the setting and the file (exit 2), no traceback."""

from __future__ import annotations

from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
import requests

from indexer.errors import ConfigError
from indexer.web.admin import auth
from indexer.web.settings import ServeSettings
from indexer.web.tls import server_context
from tests.admin_fixtures import csrf_of
from tests.tls_fixtures import run_guarded, self_signed
from tests.web_fixtures import run_serve

PASSWORD = "tls-test-admin-password"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed(tmp_path_factory.mktemp("tls"))


def _cookies(resp: requests.Response) -> SimpleCookie:
    return SimpleCookie("\n".join(resp.raw.headers.getlist("Set-Cookie")))


@pytest.fixture
def https(pair: tuple[Path, Path], free_port: int) -> Iterator[str]:
    cert, key = pair
    args = ["--port", "0", "--solr", f"http://127.0.0.1:{free_port}/solr"]
    args += ["--tls-cert", str(cert), "--tls-key", str(key)]
    with run_serve(args, {"INDEXER_SERVE_ADMIN_PASSWORD": PASSWORD}) as server:
        assert server.url.startswith("https://127.0.0.1:")
        yield server.url


def test_login_over_https_sets_secure_strict_httponly_cookies(
    https: str, pair: tuple[Path, Path]
) -> None:
    with requests.Session() as client:
        client.verify = str(pair[0])  # the certificate is checked, not ignored
        client.trust_env = False  # else REQUESTS_CA_BUNDLE would replace it
        form = client.get(f"{https}admin/login", timeout=30)
        resp = client.post(
            f"{https}admin/login",
            data={"csrf": csrf_of(form.text), "password": PASSWORD, "next": "/admin"},
            allow_redirects=False,
            timeout=30,
        )
        home = client.get(f"{https}admin/settings", timeout=30)
    assert resp.status_code == 303, resp.text[:300]
    for name, cookie in [
        (auth.LOGIN_COOKIE, _cookies(form)[auth.LOGIN_COOKIE]),
        (auth.SESSION_COOKIE, _cookies(resp)[auth.SESSION_COOKIE]),
    ]:
        assert cookie["secure"] and cookie["httponly"], name
        assert cookie["samesite"] == "Strict" and cookie["path"] == "/admin", name
    assert home.status_code == 200 and "serve.tls_cert" in home.text


def test_unusable_files_are_named(pair: tuple[Path, Path], tmp_path: Path) -> None:
    cert, key = pair
    other_cert, other_key = self_signed(tmp_path)
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    cases = [
        ({"tls_cert": tmp_path / "missing.pem", "tls_key": key}, "serve.tls_cert", "missing.pem"),
        ({"tls_cert": garbage, "tls_key": key}, "serve.tls_cert", "no PEM certificate"),
        ({"tls_cert": cert, "tls_key": other_key}, "serve.tls_key", "not the unencrypted"),
        ({"tls_cert": cert, "tls_key": garbage}, "serve.tls_key", "garbage.pem"),
        ({"tls_cert": cert}, "serve.tls_key", "required with serve.tls_cert (--tls-key FILE)"),
        ({"tls_key": key}, "serve.tls_cert", "required with serve.tls_key"),
    ]
    for given, setting, words in cases:
        with pytest.raises(ConfigError) as caught:
            server_context(ServeSettings(**given))
        assert caught.value.setting == setting and words in str(caught.value), caught.value
    assert server_context(ServeSettings(tls_cert=other_cert, tls_key=other_key)) is not None


def test_a_missing_certificate_is_one_line_and_exit_2(
    tmp_path: Path, pair: tuple[Path, Path]
) -> None:
    missing = tmp_path / "nowhere" / "cert.pem"
    proc = run_guarded(
        ["serve", "--port", "0", "--tls-cert", str(missing), "--tls-key", str(pair[1])], {}
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "serve.tls_cert" in lines[0] and str(missing) in lines[0], lines
    assert "No such file or directory" in lines[0] and proc.stdout == ""
