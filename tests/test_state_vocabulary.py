"""The closing summary and `indexer report` use one vocabulary and one count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from indexer.report import class_totals
from tests.faultserver import FaultServer, Reply, html

ROOT = Path(__file__).resolve().parents[1]


def _indexer(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def test_class_totals_follow_the_outcome_table() -> None:
    counts = {"indexed": 3, "redirected": 1, "not-modified": 2, "noindex": 1, "http-404": 1}
    counts |= {"timeout": 2, "queued": 4}
    # a redirect is not a document of its own: skipped (its target counts as indexed)
    assert class_totals(counts) == {"reached": 5, "skipped": 2, "failed": 3, "pending": 4}


def test_summary_and_report_count_alike(tmp_path: Path) -> None:
    links = ["/r", "/target", "/gone", "/private/x", "/a", "/copy"]
    summary = tmp_path / "s.json"
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "The home page.", links=links)))
        srv.route("/r", Reply(301, headers={"Location": "/target"}))
        srv.route("/target", Reply(body=html("Target", "The target page.")))
        srv.route("/a", Reply(body=html("A", "Page a.")))
        srv.route("/copy", Reply(body=html("A", "Page a.")))  # same content as /a
        srv.route("/robots.txt", Reply(body="User-agent: *\nDisallow: /private/\n"))
        crawl = _indexer(
            tmp_path, "crawl", srv.url("/"), "--out", "o.jsonl", "--data-dir", "d",
            "--delay", "0", "--summary-json", str(summary),
        )  # fmt: skip
    assert crawl.returncode == 0, crawl.stderr
    report = _indexer(tmp_path, "report", "--data-dir", "d")
    urls = _indexer(tmp_path, "report", "--urls", "--data-dir", "d")
    data = json.loads(summary.read_text("utf-8"))
    by_outcome: dict[str, int] = {}
    for line in urls.stdout.splitlines():
        outcome = line.split("\t")[1]
        by_outcome[outcome] = by_outcome.get(outcome, 0) + 1
    assert data["outcomes"] == by_outcome, (data["outcomes"], by_outcome)
    assert by_outcome["redirected"] == 1 and by_outcome["indexed"] == 3  # /, /target, /a
    assert by_outcome["duplicate"] == 1 and by_outcome["robots-disallowed"] == 1
    docs = (tmp_path / "o.jsonl").read_text("utf-8").splitlines()
    assert data["indexed"] == data["acknowledged"] == len(docs)
    top = crawl.stderr.strip().splitlines()
    totals = next(line for line in top if line.startswith("fetched ")).split(", ", 1)[1]
    assert totals.rsplit(" in ", 1)[0] in report.stdout  # the very same words and numbers
