"""Full disks, met for real on small tmpfs mounts (root only; skipped otherwise).

The data directory's disk full → one line naming the state file, exit 1, the frontier
consistent, and ``--resume`` finishes once space is freed. ``--out`` on a full disk →
the crawl stops at once (one line, exit 1), unwritten pages stay pending, and ``--resume``
cuts the partial last line and writes them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.faultserver import FaultServer, Reply, html

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="mounting a small tmpfs (a full disk on demand) needs root"
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs at ``tmp_path/disk``, unmounted on teardown (also on failure)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def _grow(mount: Path, size: str = "8m") -> None:
    """Free space: the same tmpfs, remounted larger (eight times by default)."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(mount)], check=True)


def _indexer(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _fast(data: Path) -> list[str]:
    return ["--data-dir", str(data), "--delay", "0", "--per-host", "4", "-q"]


def _lines(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_full_data_disk_is_one_line_and_resume_finishes(small_disk: Path, tmp_path: Path) -> None:
    data, out = small_disk / "data", tmp_path / "o.jsonl"
    # 2,000 long links on the home page: the frontier outgrows 256 KiB while queueing them
    links = [f"/p/{i}/{'x' * 150}" for i in range(2000)]
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "Links to many pages.", links=links)))
        srv.route("/robots.txt", Reply(status=404, body="no"))
        first = _indexer(
            tmp_path, "crawl", srv.url("/"), "--out", str(out), "--max-pages", "5", *_fast(data)
        )
        assert first.returncode == 1, first.stderr
        lines = first.stderr.strip().splitlines()
        assert len(lines) == 1 and "frontier.sqlite3" in lines[0], first.stderr
        assert "full" in lines[0] and "Traceback" not in first.stderr
        _grow(small_disk)
        again = _indexer(
            tmp_path, "crawl", "--resume", "--out", str(out), "--max-pages", "5", *_fast(data)
        )
        assert again.returncode == 0, again.stderr
        report = _indexer(tmp_path, "report", "--urls", "--data-dir", str(data))
    assert report.returncode == 0, report.stderr
    outcomes = [line.split("\t")[1] for line in report.stdout.splitlines()]
    assert outcomes.count("indexed") == 1  # the home page, once, after the resume
    assert len(outcomes) == 1 + len(links)  # every link was queued and ended (max-pages)
    assert [d["url"] for d in _lines(out)] == [srv.url("/")]


def test_full_out_disk_stops_at_once_and_resume_completes(small_disk: Path, tmp_path: Path) -> None:
    data, out = tmp_path / "data", small_disk / "o.jsonl"
    pages = [f"/doc/{i}" for i in range(60)]
    text = "Each page says a lot about its subject in many words. " * 150  # ~8 KB a page
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "The documents.", links=pages)))
        srv.route("/robots.txt", Reply(status=404, body="no"))
        for i, path in enumerate(pages):
            srv.route(path, Reply(body=html(f"Document {i}", f"{i} {text}")))
        first = _indexer(tmp_path, "crawl", srv.url("/"), "--out", str(out), *_fast(data))
        assert first.returncode == 1, first.stderr
        lines = first.stderr.strip().splitlines()
        assert len(lines) == 1 and str(out) in lines[0] and "No space left" in lines[0], lines
        fetched_before = len(srv.log())
        assert fetched_before < len(pages), "the crawl went on after the write error"
        assert not out.read_bytes().endswith(b"\n")  # the full disk cut a line
        report = _indexer(tmp_path, "report", "--data-dir", str(data))
        assert "extract-error" not in report.stdout
        _grow(small_disk)
        again = _indexer(tmp_path, "crawl", "--resume", "--out", str(out), *_fast(data))
        assert again.returncode == 0, again.stderr
    urls = [str(d["url"]) for d in _lines(out)]  # every line is whole JSON again
    assert sorted(urls) == sorted({srv.url(p) for p in ["/", *pages]})  # each page once


@pytest.mark.solr
def test_full_data_disk_during_a_solr_crawl_loses_nothing(
    small_disk: Path, tmp_path: Path, solr_core: tuple[str, str]
) -> None:
    base, core = solr_core
    data = small_disk / "data"
    _grow(small_disk, "512k")  # the frontier's tables and the outbox fit; the documents not
    pages = [f"/doc/{i}" for i in range(40)]
    text = "Every document of this site is long enough to fill a small disk quickly. " * 120
    common = ["--solr", base, "--core", core, *_fast(data)]
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "The documents.", links=pages)))
        srv.route("/robots.txt", Reply(status=404, body="no"))
        for i, path in enumerate(pages):
            srv.route(path, Reply(body=html(f"Document {i}", f"{i} {text}")))
        first = _indexer(tmp_path, "crawl", srv.url("/"), *common)
        assert first.returncode == 1, first.stderr
        lines = first.stderr.strip().splitlines()
        assert len(lines) == 1 and str(data) in lines[0] and "full" in lines[0], lines
        _grow(small_disk)
        again = _indexer(tmp_path, "crawl", "--resume", *common)
        assert again.returncode == 0, again.stderr
    found = requests.get(
        f"{base}/{core}/select", params={"q": "*:*", "rows": 0}, timeout=30
    ).json()["response"]["numFound"]
    assert found == 1 + len(pages)


@pytest.mark.solr
def test_a_crawl_the_full_disk_stopped_at_its_start_is_not_resumed_as_empty(
    small_disk: Path, tmp_path: Path, solr_core: tuple[str, str]
) -> None:
    """The disk fills before the first crawl stored its seeds (its outbox cannot be
    created): ``--resume`` is refused with one line that says to give them, never an empty
    crawl that exits 0; given again, the seeds crawl."""
    base, core = solr_core
    data = small_disk / "data"
    common = ["--solr", base, "--core", core, *_fast(data)]
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "The documents.")))
        srv.route("/robots.txt", Reply(status=404, body="no"))
        first = _indexer(tmp_path, "crawl", srv.url("/"), *common)
        assert not (data / "outbox.sqlite3").exists(), "the disk filled later than meant"
        assert first.returncode == 1 and "full" in first.stderr, first.stderr
        _grow(small_disk)
        again = _indexer(tmp_path, "crawl", "--resume", *common)
        assert again.returncode == 2, again.stderr
        assert "nothing to resume" in again.stderr and len(again.stderr.splitlines()) == 1
        assert _indexer(tmp_path, "crawl", srv.url("/"), *common).returncode == 0
