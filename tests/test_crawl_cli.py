"""`indexer crawl` as a user meets it: early checks, an unreachable Solr, interruption."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import _free_port
from tests.webhost import serve_folder

SAMPLE = Path(__file__).resolve().parents[1] / "indexer" / "demo" / "sample_site"


def _crawl(*args: str) -> list[str]:
    return [sys.executable, "-m", "indexer", "crawl", *args]


def test_bad_output_paths_fail_before_crawling(tmp_path: Path) -> None:
    cases = [
        (["--out", str(tmp_path)], "--out"),
        (["--out", str(tmp_path / "missing" / "o.jsonl")], "--out"),
        (
            ["--summary-json", str(tmp_path / "missing" / "s.json"), "--out", "o.jsonl"],
            "--summary-json",
        ),
    ]
    for extra, flag in cases:
        proc = subprocess.run(
            _crawl(*extra, "--data-dir", str(tmp_path / "d"), "http://127.0.0.1:9/"),
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert proc.returncode == 2 and flag in proc.stderr, (extra, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_resume_of_a_crawl_that_never_ran_fails(tmp_path: Path) -> None:
    proc = subprocess.run(
        _crawl("--resume", "--out", "o.jsonl", "--data-dir", str(tmp_path / "typo")),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 2 and "no crawl state" in proc.stderr
    assert not (tmp_path / "typo").exists()


def test_unreachable_solr_fails_fast(tmp_path: Path) -> None:
    start = time.monotonic()
    proc = subprocess.run(
        _crawl(
            "--solr",
            f"http://127.0.0.1:{_free_port()}/solr",
            "--data-dir",
            str(tmp_path / "d"),
            "http://127.0.0.1:9/",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and "no answer" in proc.stderr, proc.stderr
    assert time.monotonic() - start < 60
    assert "Traceback" not in proc.stderr


def test_interrupted_crawl_exits_130_and_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    with serve_folder(SAMPLE) as site:
        crawl = subprocess.Popen(
            _crawl(
                "--out",
                str(out),
                "--data-dir",
                str(tmp_path / "d"),
                "--delay",
                "0.5",
                f"{site}/index.html",
            ),
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while (not out.exists() or not out.read_text("utf-8")) and time.monotonic() < deadline:
                time.sleep(0.1)
            crawl.send_signal(signal.SIGINT)
            _, err = crawl.communicate(timeout=60)
        finally:
            if crawl.poll() is None:
                crawl.kill()
                crawl.wait(10)
    assert crawl.returncode == 130, err
    assert "--resume" in err
