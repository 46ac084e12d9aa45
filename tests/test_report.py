"""``indexer report``: counts per outcome and per host, and one line per URL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from indexer.report import OTHER_REASONS, RunStats, format_counts, format_url_line
from tests.faultserver import FaultServer, Reply, crawl


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", "report", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_report_counts_and_url_lines(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with FaultServer(hosts=2) as srv:
        srv.route(
            "/robots.txt", Reply(body="User-agent: *\nDisallow: /no\n", content_type="text/plain")
        )
        srv.page("/", "home", ["/a", "/no", "/missing", srv.url("/", 1), "mailto:x@y.jp"])
        srv.page("/a", "a")
        run = await crawl([srv.url("/")], data)
    counts = _report("--data-dir", str(data))
    assert counts.returncode == 0, counts.stderr
    lines = counts.stdout.splitlines()
    by_outcome = {
        ln.split()[0]: int(ln.split()[1])
        for ln in lines[1:]
        if ln and ln[0] != " " and len(ln.split()) == 2
    }
    assert by_outcome["indexed"] == 2 and by_outcome["robots-disallowed"] == 1
    assert by_outcome["http-404"] == 1 and by_outcome["out-of-scope"] == 1
    assert by_outcome["total"] == len(run.outcomes)
    host_line = next(ln for ln in lines if ln.startswith(srv.host(0)))
    assert "indexed 2" in host_line and "http-404 1" in host_line

    urls = _report("--data-dir", str(data), "--urls")
    rows = [ln.split("\t") for ln in urls.stdout.splitlines()]
    assert all(len(r) == 3 for r in rows) and len(rows) == len(run.outcomes)
    assert [srv.url("/no"), "robots-disallowed", "disallowed by robots.txt"] in rows

    only = _report("--data-dir", str(data), "--urls", "--outcome", "indexed")
    assert sorted(ln.split("\t")[0] for ln in only.stdout.splitlines()) == [
        srv.url("/"),
        srv.url("/a"),
    ]
    assert _report("--data-dir", str(data), "--outcome", "indexed").returncode == 2
    assert _report("--data-dir", str(data), "--urls", "--outcome", "bogus").returncode == 2
    assert _report("--data-dir", str(tmp_path / "none")).returncode == 2  # StateError: no frontier


def test_formatting_and_bounded_reasons() -> None:
    assert format_url_line("http://a/", "http-500", "bad\tthing\nhere") == (
        "http://a/\thttp-500\tbad thing here"
    )
    table = format_counts([("a", "indexed", 3), ("b", "indexed", 1), ("b", "http-404", 2)])
    rows = [ln.split() for ln in table.splitlines()]
    assert ["indexed", "4"] in rows and ["http-404", "2"] in rows and ["total", "6"] in rows
    assert rows.index(["indexed", "4"]) < rows.index(["http-404", "2"])  # largest first
    stats = RunStats()
    for i in range(5000):
        stats.record("invalid-url", f"bad URL number {i}")
    assert len(stats.reasons) <= 1001 and stats.outcomes["invalid-url"] == 5000
    assert stats.reasons[("invalid-url", OTHER_REASONS)] > 0
