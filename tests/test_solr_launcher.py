"""The local Solr launcher and ``indexer solr start|stop|status``, with real JVMs."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest
import requests

import indexer.cli
from indexer.cli import solr_cmd
from indexer.errors import SolrLaunchError
from indexer.solr.launcher import pid_file, start_solr, stop_solr
from tests.conftest import CONFIGSET_DIR, LAUNCHER_DIR

pytestmark = pytest.mark.solr


Main = Callable[[Sequence[str]], int]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Main:
    """``indexer.cli.main`` with only the ``solr`` command registered (others may be
    half-written in the shared tree; this test is about ours)."""

    def only_solr() -> list[ModuleType]:
        return [solr_cmd]

    monkeypatch.setattr(indexer.cli, "_command_modules", only_solr)
    return indexer.cli.main


def pom_solr_version() -> str:
    match = re.search(r"<solr.version>([^<]+)<", (LAUNCHER_DIR / "pom.xml").read_text())
    assert match is not None
    return match.group(1)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
def test_start_status_again_stop(
    cli: Main, free_port: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main = cli
    port, home = free_port, tmp_path / "home"
    local = ["--port", str(port), "--solr-home", str(home)]
    try:
        assert main(["solr", "start", *local]) == 0
        url = capsys.readouterr().out.strip()
        assert url == f"http://127.0.0.1:{port}/solr"
        pid = int(pid_file(port, home).read_text())
        assert process_alive(pid)

        assert main(["solr", "status", "--solr", url]) == 0
        status = json.loads(capsys.readouterr().out)
        assert status == {
            "url": url,
            "core": "pages",
            "numDocs": 0,
            "solr_version": pom_solr_version(),
        }

        assert main(["solr", "start", *local]) == 0
        again = capsys.readouterr()
        assert again.out.strip() == url
        assert "already runs" in again.err
        assert int(pid_file(port, home).read_text()) == pid
    finally:
        assert main(["solr", "stop", *local]) == 0
    assert not pid_file(port, home).exists()
    assert not process_alive(pid)
    assert main(["solr", "stop", *local]) == 1  # nothing left to stop
    assert main(["solr", "status", "--solr", url]) == 1


def test_port_held_by_another_process_exits_1(
    cli: Main, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        code = cli(["solr", "start", "--port", str(port), "--solr-home", str(tmp_path)])
    assert code == 1
    assert f"port {port}" in capsys.readouterr().err
    assert not pid_file(port, tmp_path).exists()


def configset_with_userdict(tmp_path: Path, entries: str) -> Path:
    """A copy of the bundled configset whose user dictionary holds ``entries``."""
    conf = tmp_path / "conf"
    shutil.copytree(CONFIGSET_DIR, conf)
    with (conf / "userdict_ja.txt").open("a", encoding="utf-8") as out:
        out.write(entries)
    return conf


@pytest.mark.slow
def test_malformed_user_dictionary_fails_start(tmp_path: Path, free_port: int) -> None:
    # Three segments but two readings: Kuromoji rejects the line, the core cannot load.
    conf = configset_with_userdict(tmp_path, "関西国際空港,関西 国際 空港,カンサイ コクサイ,名詞\n")
    port, home = free_port, tmp_path / "home"
    try:
        with pytest.raises(SolrLaunchError, match="core") as failure:
            start_solr(port, home, configset_dir=conf, timeout=120)
    finally:
        stop_solr(port, home)
    assert "userdict" in str(failure.value).lower() or "dictionary" in str(failure.value)
    assert not pid_file(port, home).exists()


@pytest.mark.slow
def test_valid_user_dictionary_entry_changes_tokenization(
    tmp_path: Path, free_port: int, solr_base_url: str
) -> None:
    word = "関西国際空港"
    default_tokens = content_tokens(solr_base_url, word)
    assert len(default_tokens) > 1
    conf = configset_with_userdict(
        tmp_path, f"{word},{word},カンサイコクサイクウコウ,カスタム名詞\n"
    )
    port, home = free_port, tmp_path / "home"
    try:
        url = start_solr(port, home, configset_dir=conf, timeout=120)
        assert content_tokens(url, word) == [word]
    finally:
        stop_solr(port, home)


def content_tokens(base_url: str, text: str) -> list[str]:
    resp = requests.get(
        f"{base_url}/pages/analysis/field",
        params={"analysis.fieldname": "content", "analysis.fieldvalue": text, "wt": "json"},
        timeout=30,
    )
    resp.raise_for_status()
    stages = resp.json()["analysis"]["field_names"]["content"]["index"]
    return [token["text"] for token in stages[-1]]
