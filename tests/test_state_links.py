"""Links past ``crawl.max_links_per_page`` are counted, named with their page, and logged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.faultserver import FaultServer, Reply, html

ROOT = Path(__file__).resolve().parents[1]


def test_a_page_with_10000_links_reports_the_truncation(tmp_path: Path) -> None:
    links = [f"/item/{i}" for i in range(10_000)]
    summary = tmp_path / "summary.json"
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Catalogue", "Every item we have.", links=links)))
        srv.route("/robots.txt", Reply(status=404, body="none"))
        proc = subprocess.run(
            [sys.executable, "-m", "indexer", "crawl", srv.url("/"), "--out", str(tmp_path / "o"),
             "--data-dir", str(tmp_path / "d"), "--max-pages", "1", "--summary-json",
             str(summary), "-v"],
            capture_output=True, text=True, timeout=300, cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(summary.read_text("utf-8"))
    assert data["links_truncated"] == 5000
    assert data["links_truncated_pages"] == [{"url": srv.url("/"), "links": 10_000}]
    assert data["outcomes"]["max-pages"] == 5000  # the 5,000 taken were queued
    assert f"{srv.url('/')}: 10000 links, only the first 5000 taken" in proc.stderr
    assert "links_truncated 5000 on 1 page(s)" in proc.stderr
    report = subprocess.run(
        [sys.executable, "-m", "indexer", "report", "--data-dir", str(tmp_path / "d")],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert "links_truncated 5000 in the last run" in report.stdout, report.stdout
    assert f"  {srv.url('/')}  10000 links" in report.stdout
