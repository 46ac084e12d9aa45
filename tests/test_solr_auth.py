"""A standalone Solr with Basic authentication (security.json in its home), real JVM.

Indexing and the admin commands work with the right credentials and fail with a clear
message with wrong or missing ones; the password shows up in no output and no log line.
``init --core`` and ``update-config --core`` run here too (standalone, behind auth).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from indexer.solr.launcher import (
    CloudOptions,
    basic_auth_security,
    log_file,
    start_solr,
    stop_solr,
)
from tests.solr_fixtures import (
    Main,
    configset_with_stopword,
    content_tokens,
    crawl_command,
    free_ports,
    solr_only_cli,
)
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr, pytest.mark.slow]

SAMPLE_SITE = Path(__file__).resolve().parents[1] / "indexer" / "demo" / "sample_site"
USER = "crawler"
PASSWORD = "pw-" + secrets.token_urlsafe(12)  # random: any leak is found by searching for it


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``(base_url, solr_home)`` of a standalone Solr that requires Basic auth."""
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the local Solr needs java and mvn on PATH")
    home = tmp_path_factory.mktemp("secured")
    security = home.parent / f"{home.name}-security.json"
    security.write_text(json.dumps(basic_auth_security(USER, PASSWORD)), encoding="utf-8")
    (port,) = free_ports(1)
    try:
        url = start_solr(port, home / "solr", security_json=security, auth=(USER, PASSWORD))
        yield url, home / "solr"
    finally:
        stop_solr(port, home / "solr")
    assert PASSWORD not in log_file(port, home / "solr").read_text(encoding="utf-8")


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Main:
    """``indexer.cli.main`` with only ``solr`` registered and the right credentials in env."""

    monkeypatch.setenv("INDEXER_SOLR_USER", USER)
    monkeypatch.setenv("INDEXER_SOLR_PASSWORD", PASSWORD)
    return solr_only_cli(monkeypatch)


def crawl(
    url: str,
    site: str,
    tmp_path: Path,
    password: str,
    target: tuple[str, str] = ("--core", "pages"),
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "INDEXER_SOLR_USER": USER, "INDEXER_SOLR_PASSWORD": password}
    args = ["--solr", url, *target, "--data-dir", str(tmp_path / "d"), "--delay", "0",
            "-v", "--summary-json", str(tmp_path / "s.json"), f"{site}/index.html"]  # fmt: skip
    return subprocess.run(
        crawl_command(args),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_unauthenticated_requests_are_refused(secured: tuple[str, Path]) -> None:
    url, _ = secured
    resp = requests.get(f"{url}/pages/select", params={"q": "*:*"}, timeout=30)
    assert resp.status_code == 401


def test_crawl_with_right_credentials_indexes_and_never_shows_the_password(
    secured: tuple[str, Path], tmp_path: Path
) -> None:
    url, _ = secured
    with serve_folder(SAMPLE_SITE) as site:
        proc = crawl(url, site, tmp_path, PASSWORD)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert PASSWORD not in proc.stdout + proc.stderr
    indexed = json.loads((tmp_path / "s.json").read_text("utf-8"))["outcomes"]["indexed"]
    resp = requests.get(
        f"{url}/pages/select", params={"q": "*:*", "rows": "0"}, auth=(USER, PASSWORD), timeout=30
    )
    assert indexed > 5 and resp.json()["response"]["numFound"] == indexed


def test_crawl_with_wrong_password_fails_clearly(secured: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = secured
    wrong = "wrong-" + secrets.token_urlsafe(8)
    with serve_folder(SAMPLE_SITE) as site:
        proc = crawl(url, site, tmp_path, wrong)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "refused the credentials (HTTP 401)" in proc.stderr
    assert "INDEXER_SOLR_PASSWORD" in proc.stderr
    assert wrong not in proc.stdout + proc.stderr


def test_admin_commands_need_credentials(
    secured: tuple[str, Path], cli: Main, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    url, _ = secured
    assert cli(["solr", "status", "--solr", url]) == 0
    assert json.loads(capsys.readouterr().out)["core"] == "pages"
    monkeypatch.setenv("INDEXER_SOLR_PASSWORD", "not-it")
    assert cli(["solr", "status", "--solr", url]) == 1
    assert cli(["solr", "init", "--solr", url, "--core", "other"]) == 1
    err = capsys.readouterr().err
    assert err.count("refused the credentials (HTTP 401)") == 2, err
    assert "not-it" not in err


def test_init_core_twice_and_update_config(
    secured: tuple[str, Path], cli: Main, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, home = secured
    assert cli(["solr", "init", "--solr", url, "--core", "second"]) == 0
    assert "created core 'second'" in capsys.readouterr().out
    assert cli(["solr", "init", "--solr", url, "--core", "second"]) == 0
    assert "already exists" in capsys.readouterr().out
    assert cli(["solr", "init", "--solr", url, "--collection", "c"]) == 1
    assert "runs standalone" in capsys.readouterr().err

    word = "大阪"
    assert content_tokens(url, "second", word, (USER, PASSWORD)) == [word]
    changed = configset_with_stopword(tmp_path / "conf", word)
    assert cli(["solr", "update-config", "--solr", url, "--core", "second",
                "--configset-dir", str(changed)]) == 0  # fmt: skip
    assert str(home / "configsets" / "pages" / "conf") in capsys.readouterr().out
    assert content_tokens(url, "second", word, (USER, PASSWORD)) == []
    # Core "pages" shares the configset but was not reloaded: its old analyzer stays live.
    assert content_tokens(url, "pages", word, (USER, PASSWORD)) == [word]


def test_secured_solrcloud_node(
    cli: Main, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """security.json reaches ZooKeeper; init, crawl and status work with the credentials."""
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the local Solr needs java and mvn on PATH")
    security = tmp_path / "security.json"
    security.write_text(json.dumps(basic_auth_security(USER, PASSWORD)), encoding="utf-8")
    (port, zk_port), home = free_ports(2), tmp_path / "node"
    try:
        url = start_solr(port, home, heap="384m", cloud=CloudOptions(zk_port=zk_port),
                         security_json=security, auth=(USER, PASSWORD))  # fmt: skip
        assert cli(["solr", "init", "--solr", url, "--collection", "sec", "--shards", "2"]) == 0
        with serve_folder(SAMPLE_SITE) as site:
            proc = crawl(url, site, tmp_path, PASSWORD, ("--collection", "sec"))
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert PASSWORD not in proc.stdout + proc.stderr
        capsys.readouterr()
        assert cli(["solr", "status", "--solr", url, "--collection", "sec"]) == 0
        status = json.loads(capsys.readouterr().out)
        indexed = json.loads((tmp_path / "s.json").read_text("utf-8"))["outcomes"]["indexed"]
        assert indexed > 5 and status["numDocs"] == indexed
        assert requests.get(f"{url}/sec/select", timeout=30).status_code == 401
    finally:
        stop_solr(port, home)
    assert PASSWORD not in log_file(port, home).read_text(encoding="utf-8")
