"""`indexer solr stop --port N` finds a Solr started with another --solr-home through the
launcher's per-user record of the port; exit 1 when nothing was stopped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.solr import runtime
from indexer.solr.launcher import pid_file, start_solr, stop_solr

ROOT = Path(__file__).resolve().parents[1]


def test_records_are_per_port_and_forgotten_by_their_pid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    runtime.record(18983, 4242, tmp_path / "home")
    assert runtime.lookup(18983) == (4242, (tmp_path / "home").resolve())
    assert (tmp_path / "indexer").stat().st_mode & 0o777 == 0o700
    runtime.forget(18983, pid=1)  # another process's record stays
    assert runtime.lookup(18983) is not None
    runtime.forget(18983, pid=4242)
    assert runtime.lookup(18983) is None
    (tmp_path / "indexer" / "solr-1.json").write_text("{broken", "utf-8")
    assert runtime.lookup(1) is None


def _stop(port: int, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", "solr", "stop", "--port", str(port)],
        capture_output=True, text=True, timeout=120, cwd=cwd, env=env,
    )  # fmt: skip


@pytest.mark.solr
def test_stop_by_port_alone(
    tmp_path: Path, free_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("java") is None:
        pytest.skip("the local Solr needs java")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_RUNTIME_DIR": str(tmp_path)}
    home = tmp_path / "somewhere" / "home"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    start_solr(port=free_port, solr_home=home)
    pid = int(pid_file(free_port, home).read_text())
    try:
        stopped = _stop(free_port, elsewhere, env)  # no --solr-home, another directory
        assert stopped.returncode == 0, stopped.stderr
        assert (
            not Path(f"/proc/{pid}").exists()
            or b"SolrLauncher" not in Path(f"/proc/{pid}/cmdline").read_bytes()
        )
        assert runtime.lookup(free_port) is None and not pid_file(free_port, home).exists()
        again = _stop(free_port, elsewhere, env)
        assert again.returncode == 1 and "no Solr of ours" in again.stderr
    finally:
        stop_solr(free_port, home)
