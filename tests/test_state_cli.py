"""Broken and missing state files as an operator meets them: every command fails with one
line naming the file, exit 2, and never runs an empty crawl."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from indexer.cli import main
from tests.faultserver import FaultServer, html

DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, nothing is asked


@dataclass
class Result:
    returncode: int
    stderr: str


def _indexer(cwd: Path, *args: str) -> Result:
    """Run the CLI in this process (as ``indexer ARGS`` in ``cwd``), capturing stderr."""
    err = io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(old)
    return Result(code, err.getvalue())


def _commands(data: Path) -> dict[str, list[str]]:
    d = ["--data-dir", str(data)]
    return {
        "crawl --resume": ["crawl", "--resume", "--out", "again.jsonl", *d],
        "crawl": ["crawl", f"{DEAD}/", "--out", "new.jsonl", "--overwrite", *d],
        "reindex": ["reindex", "--solr", f"{DEAD}/solr", *d],
        "report": ["report", *d],
        "report --urls": ["report", "--urls", *d],
        "delete": ["delete", "--url", f"{DEAD}/a", "--solr", f"{DEAD}/solr", *d],
    }


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory of a real two-page crawl (``--out`` only)."""
    root = tmp_path_factory.mktemp("crawled")
    with FaultServer() as srv:
        srv.page("/", html("Home", "Welcome home. " * 20, links=["/a"]))
        srv.page("/a", html("A", "The a page. " * 20))
        proc = subprocess.run(
            [sys.executable, "-m", "indexer", "crawl", srv.url("/"), "--out", "o.jsonl",
             "--data-dir", "data"],
            capture_output=True, text=True, timeout=120, cwd=root,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return root / "data"


def _copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for f in src.iterdir():
        if f.is_file() and f.name != "lock":
            (dst / f.name).write_bytes(f.read_bytes())
    return dst


@pytest.mark.parametrize("breakage", ["zero-bytes", "garbled"])
def test_every_command_refuses_a_broken_frontier(
    crawled: Path, tmp_path: Path, breakage: str
) -> None:
    data = _copy(crawled, tmp_path / "data")
    frontier = data / "frontier.sqlite3"
    for side in ("frontier.sqlite3-wal", "frontier.sqlite3-shm"):
        (data / side).unlink(missing_ok=True)
    if breakage == "zero-bytes":
        frontier.write_bytes(b"")
    else:
        frontier.write_bytes(b"\x00garbage" + os.urandom(4000))
    for name, args in _commands(data).items():
        proc = _indexer(tmp_path, *args)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2, (name, proc.stderr)
        assert len(lines) == 1 and str(frontier) in lines[0], (name, proc.stderr)
        assert "Traceback" not in proc.stderr and "fetched" not in proc.stderr, name
    assert frontier.stat().st_size == (0 if breakage == "zero-bytes" else 4008)  # untouched


def test_commands_that_need_state_refuse_a_missing_frontier(tmp_path: Path) -> None:
    data = tmp_path / "nothing"
    commands = _commands(data)
    del commands["crawl"]  # a new crawl creates the state
    for name, args in commands.items():
        proc = _indexer(tmp_path, *args)
        assert proc.returncode == 2, (name, proc.stderr)
        assert "frontier.sqlite3: missing" in proc.stderr and "Traceback" not in proc.stderr
    assert not data.exists()


def test_a_truncated_outbox_stops_resume_and_names_repair(crawled: Path, tmp_path: Path) -> None:
    data = _copy(crawled, tmp_path / "data")
    (data / "outbox.sqlite3").write_bytes(b"")
    args = ["crawl", "--resume", "--solr", f"{DEAD}/solr", "--data-dir", str(data)]
    proc = _indexer(tmp_path, *args)
    assert proc.returncode == 2, proc.stderr
    assert "outbox.sqlite3" in proc.stderr and "indexer reindex --repair" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_existing_out_is_refused_without_resume_or_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    out.write_text('{"id": "kept"}\n', "utf-8")
    proc = _indexer(
        tmp_path,
        "crawl",
        "http://127.0.0.1:9/",
        "--out",
        str(out),
        "--data-dir",
        str(tmp_path / "d"),
    )
    assert proc.returncode == 2 and "--overwrite" in proc.stderr and "--resume" in proc.stderr
    assert out.read_text("utf-8") == '{"id": "kept"}\n'
    assert not (tmp_path / "d").exists()
