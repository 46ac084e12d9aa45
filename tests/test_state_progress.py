"""The progress line names the hosts a Retry-After holds, and until when."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from indexer.cli.progress import progress_line
from indexer.crawl.politeness import Politeness
from indexer.report import RunStats
from tests.faultserver import FaultServer, Reply

ROOT = Path(__file__).resolve().parents[1]


def test_held_hosts_are_the_ones_a_retry_after_holds() -> None:
    polite = Politeness(delay=5.0, per_host=1, crawl_delay_cap=30)
    polite.sent("a:80")  # an ordinary delay is not a hold
    polite.slow_down("b:80", 300)
    held = polite.held()
    assert list(held) == ["b:80"] and abs(held["b:80"] - (time.time() + 300)) < 2
    stats = RunStats()
    stats.waiting = {f"h{i}:80": time.time() + 60 * i for i in range(1, 6)}
    line = progress_line(stats, 7)
    assert "waiting h1:80 until " in line and "and 2 more (Retry-After)" in line
    assert "h4:80" not in line
    assert "waiting" not in progress_line(RunStats(), 0)


def test_a_300_s_retry_after_shows_on_the_progress_line(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.route("/", Reply(status=503, body="busy", headers={"Retry-After": "300"}))
        srv.route("/robots.txt", Reply(status=404, body="none"))
        crawl = subprocess.Popen(
            [sys.executable, "-m", "indexer", "crawl", srv.url("/"), "--out", str(tmp_path / "o"),
             "--data-dir", str(tmp_path / "d")],
            stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        seen = ""
        deadline = time.monotonic() + 60
        try:
            assert crawl.stderr is not None
            while time.monotonic() < deadline:
                line = crawl.stderr.readline()
                if not line or "waiting" in line:
                    seen = line
                    break
        finally:
            crawl.send_signal(signal.SIGINT)
            crawl.communicate(timeout=60)
    match = re.search(
        rf"waiting {re.escape(srv.host())} until (\d\d):(\d\d):(\d\d) \(Retry-After\)", seen
    )
    assert match, seen
    hh, mm, ss = (int(g) for g in match.groups())
    now = time.localtime()
    shown = hh * 3600 + mm * 60 + ss - (now.tm_hour * 3600 + now.tm_min * 60 + now.tm_sec)
    assert 280 <= shown % 86400 <= 301, shown
