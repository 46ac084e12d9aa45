"""``indexer crawl --resume`` after ``kill -9`` of a real crawl process: finished pages are not
fetched again and no queued page is lost. The server's log is the judge."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.faultserver import FaultServer, Reply, html
from tests.pg_fixtures import FrontierCli

PAGES = 30


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "indexer", *args]


def test_resume_after_kill_9(tmp_path: Path, frontier_cli: FrontierCli) -> None:
    data, out = tmp_path / "data", tmp_path / "docs.jsonl"
    with FaultServer() as srv:
        srv.page("/", "home", [f"/p{i}" for i in range(PAGES)])
        for i in range(PAGES):
            # /q pages are discovered only when /p pages are fetched, some after the resume
            # (which has no seeds on its command line: the scope comes from the stored ones)
            srv.route(f"/p{i}", Reply(body=html(f"page {i}", links=[f"/q{i}"]), delay=0.05))
            srv.route(f"/q{i}", Reply(body=html(f"leaf {i}")))
        proc = subprocess.Popen(
            _cli(
                "crawl",
                "-q",
                *frontier_cli.flags,
                "--delay",
                "0.15",
                "--data-dir",
                str(data),
                "--out",
                str(out),
                srv.url("/"),
            ),
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        srv.kill_when_served(proc, 8)
        killed_at = time.monotonic()
        with frontier_cli.view(data) as view:
            done_before = {u for u, o, _r in view.urls() if o == "indexed"}
        assert 1 <= len(done_before) < 2 * PAGES + 1
        resumed = subprocess.run(
            _cli(
                "crawl",
                "-q",
                *frontier_cli.flags,
                "--resume",
                "--data-dir",
                str(data),
                "--out",
                str(out),
                "--delay",
                "0.05",
            ),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        after = [h.path for h in srv.log() if h.start > killed_at]
    every = {srv.url("/")} | {srv.url(f"/{k}{i}") for i in range(PAGES) for k in "pq"}
    # nothing finished before the kill was fetched again
    assert not {srv.url(p) for p in after} & done_before
    # nothing was lost: every page indexed, and every document is in the output file
    with frontier_cli.view(data) as view:
        indexed = {u for u, o, _r in view.urls() if o == "indexed"}
    assert indexed == every
    docs = {json.loads(line)["url"] for line in out.read_text("utf-8").splitlines()}
    assert docs == every
