"""A run killed with -9 and continued with ``--resume`` counts the whole run (issue #20 views,
from session 4): its record's outcome counts (the dashboard's runs table) are those of every
URL of the run, not of the resumed part only; on both frontier backends, a real crawl of a
real local site."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.faults_helpers import ended
from tests.faultserver import FaultServer, Reply, html
from tests.pg_fixtures import FrontierCli

PAGES = 60


def _crawl(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "indexer", "crawl", "-q", *args],
        cwd=cwd,
        # PostgreSQL: the killed process's host lease expires after 2 s, not 30
        env={**os.environ, "INDEXER_EXTRACT_WORKERS": "0", "INDEXER_FRONTIER_LEASE_SECONDS": "2"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_resumed_run_counts_the_whole_run(tmp_path: Path, frontier_cli: FrontierCli) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--out", str(tmp_path / "o.jsonl")]
    with FaultServer() as srv:
        srv.page("/", "home", [f"/p{i}" for i in range(PAGES)])
        for i in range(PAGES):
            srv.route(f"/p{i}", Reply(body=html(f"page {i}"), delay=0.02))
        first = _crawl(*frontier_cli.flags, "--delay", "0.12", *data, srv.url("/"), cwd=tmp_path)
        # settle: a progress row written by the first process (every 2 s)
        srv.kill_when_served(first, 12, settle=2.2)
        with frontier_cli.view(tmp_path / "d") as view:
            before = sum(n for _h, o, n in view.counts() if o == "indexed")
        assert 12 <= before < PAGES, before
        resumed = _crawl(*frontier_cli.flags, "--resume", "--delay", "0.01", *data, cwd=tmp_path)
        code, err = ended(resumed)
        assert code == 0, err[-2000:]
    with frontier_cli.view(tmp_path / "d") as view:
        run = view.runs()[-1]
        counted = view.progress.all()[run.id]
    assert run.finished
    assert counted.outcomes.get("indexed") == PAGES + 1, counted.outcomes
    # acknowledged: the resumed part's and the earlier one's (as of its last write, ≤ 2 s old)
    assert counted.indexed > PAGES + 1 - before, (counted.indexed, before)
