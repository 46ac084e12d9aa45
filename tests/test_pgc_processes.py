"""The ``indexer crawl --processes N`` parent and its children (issue #20, part 2): the frontier
password is on no child's command line, the children stop when the parent is killed -9 (and
the run resumes), the parent shows their progress added up and their warnings prefixed by
their number, and ``crawl.max_pages_per_host`` holds for the run across the processes."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from subprocess import Popen
from urllib.parse import urlsplit

import psycopg
import pytest

from indexer.pipeline.childside import ChildProgress, without_value
from indexer.pipeline.childstreams import LaunchProgress
from indexer.report import RunStats
from tests.faultserver import FaultServer, Reply, html
from tests.pg_fixtures import leaseholder_pids, out_lines, start_crawl, two_process_flags

HOSTS, PAGES, DELAY = 4, 20, 0.3
PASSWORD = "pgc-s3cret-pw"


def _with_password(pg_url: str) -> str:
    """``pg_url`` with a password (the test cluster trusts any: it is only to be looked for)."""
    return pg_url.replace("indexer@", f"indexer:{PASSWORD}@", 1)


def _stop(proc: Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


@contextlib.contextmanager
def _crawling(pg_url: str, tmp_path: Path) -> Iterator[tuple[FaultServer, list[str], Popen[str]]]:
    """A 2-process crawl of the 4 × 40-page site into ``--out``, once both children hold
    hosts (stopped by its pid at the end)."""
    flags = [*two_process_flags(pg_url, DELAY), "--out", "docs.jsonl", "--data-dir", "d"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, 40, delay=0.01)
        proc = start_crawl(*flags, *seeds, cwd=tmp_path)
        try:
            leaseholder_pids(pg_url, proc, time.monotonic() + 60)
            yield srv, [*flags, *seeds], proc
        finally:
            _stop(proc)


def _docs(tmp_path: Path) -> list[str]:
    """The URLs in the two children's ``--out`` files."""
    return out_lines(tmp_path / "docs.0.jsonl") + out_lines(tmp_path / "docs.1.jsonl")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and "Z" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def test_the_frontier_password_is_on_no_child_command_line(pg_url: str, tmp_path: Path) -> None:
    url = _with_password(pg_url)
    flags = [*two_process_flags(url, DELAY), "--out", "docs.jsonl", "--summary-json", "s.json"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, PAGES, delay=0.01)
        proc = start_crawl(*flags, "--data-dir", "d", *seeds, cwd=tmp_path)
        try:
            pids = leaseholder_pids(pg_url, proc, time.monotonic() + 60)
            lines = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in pids}
            _, err = proc.communicate(timeout=120)
        finally:
            _stop(proc)
    assert proc.returncode == 0, err[-3000:]
    for pid, line in lines.items():
        assert b"--processes\x001" in line, "it is a child"
        assert PASSWORD.encode() not in line, f"pid {pid}: {line!r}"
        assert urlsplit(url).netloc.encode() not in line
    written = err + (tmp_path / "s.json").read_text("utf-8")
    written += "".join(p.read_text("utf-8") for p in tmp_path.glob("docs.*.jsonl"))
    assert PASSWORD not in written, "nor in the summaries or the outputs"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema='indexer'"
        ).fetchall()
        for (table,) in tables:
            rows = conn.execute(f"SELECT t::text FROM indexer.{table} t").fetchall()
            assert not [r for r in rows if PASSWORD in r[0]], f"nor in the run records: {table}"
    assert sorted(_docs(tmp_path)) == srv.star_pages(HOSTS, PAGES), (
        "the children reached the frontier"
    )


def test_children_stop_when_the_parent_is_killed_9_and_the_run_resumes(
    pg_url: str, tmp_path: Path
) -> None:
    with _crawling(pg_url, tmp_path) as (srv, args, parent):
        pids = leaseholder_pids(pg_url, parent, time.monotonic() + 10)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 8.0
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in pids if _alive(pid)]
        for pid in left:  # a failed test leaves no crawl running
            os.kill(pid, signal.SIGKILL)
        assert not left, f"children {left} crawl on after their parent died"
        assert len(_docs(tmp_path)) < len(srv.star_pages(HOSTS, 40)), "stopped before the end"
        resumed = start_crawl(*args, "--resume", cwd=tmp_path)
        try:
            _, err = resumed.communicate(timeout=150)
        finally:
            _stop(resumed)
    assert resumed.returncode == 0, err[-3000:]
    assert sorted(_docs(tmp_path)) == srv.star_pages(HOSTS, 40), "every page once in 2 runs"


def test_the_parent_shows_the_children_progress_and_their_warnings_by_number(
    pg_url: str, tmp_path: Path
) -> None:
    with _crawling(pg_url, tmp_path) as (_, _, proc):
        time.sleep(2.5)  # a progress line of each child has reached the parent
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-3000:]
    assert re.search(r"indexer\.progress: fetched \d+  indexed \d+  queued \d+", err), err[-3000:]
    for index in (0, 1):
        assert re.search(rf"^\[p{index}\] .*WARNING.*stopping", err, re.M), err[-3000:]
    assert not re.search(r"^\d{4}-\d\d-\d\d .*WARNING indexer: stopping: within", err, re.M), (
        "a child's line reaches the parent's stderr only with its number"
    )


def test_max_pages_per_host_holds_for_the_run_across_two_processes(
    pg_url: str, tmp_path: Path
) -> None:
    cap, pages = 15, 40
    flags = [*two_process_flags(pg_url, DELAY), "--out", "docs.jsonl", "--data-dir", "d"]
    flags += ["--max-pages-per-host", str(cap), "--summary-json", "s.json"]
    with FaultServer(HOSTS) as srv:
        for h in range(HOSTS):  # slow enough that the second child joins mid-host
            srv.page("/", f"home {h}", [f"/p{i}" for i in range(pages)], host=h)
            for i in range(pages):
                srv.route(f"/p{i}", Reply(body=html(f"page {h}-{i}"), delay=0.05), host=h)
        seeds = [srv.url("/", h) for h in range(HOSTS)]
        proc = start_crawl(*flags, *seeds, cwd=tmp_path)
        try:
            _, err = proc.communicate(timeout=150)
        finally:
            _stop(proc)
        hits = srv.log()
    assert proc.returncode == 0, err[-3000:]
    fetched = Counter(h.host for h in hits if h.path not in ("/robots.txt", "/sitemap.xml"))
    assert len(fetched) == HOSTS and max(fetched.values()) <= cap, fetched
    assert min(fetched.values()) == cap, f"each host reached its cap: {fetched}"
    summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
    assert summary["outcomes"].get("max-pages") == HOSTS * (pages + 1 - cap), summary["outcomes"]


def test_the_progress_line_adds_the_children_up_and_prefixes_their_other_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown: list[tuple[RunStats, int]] = []
    progress = LaunchProgress(lambda stats, queued: shown.append((stats, queued)))
    pipes = [os.pipe() for _ in range(3)]
    for index, (read, _) in enumerate(pipes):
        progress.follow(index % 2, 1000 + index, os.fdopen(read, "rb"))
    counts = [(5, 2, 40, {"indexed": 2}), (7, 3, 38, {"indexed": 3, "http-404": 1}), (1, 0, 37, {})]
    for (_, write), (fetched, indexed, queued, outcomes) in zip(pipes, counts, strict=True):
        with os.fdopen(write, "w") as out:
            stats = RunStats(fetched=fetched, indexed=indexed)
            stats.outcomes.update(outcomes)
            stats.retries.update({"timeout": 1})
            ChildProgress(out).update(stats, queued)
            print("2026-12-01 WARNING indexer: host slow", file=out)
    progress.ended(1000)  # ended: its counts stay in the sum
    progress.ended(1001)
    progress.ended(1002)
    progress.tick()
    stats, queued = shown[-1]
    assert (stats.fetched, stats.indexed, queued) == (13, 5, 40)
    assert stats.outcomes == {"indexed": 5, "http-404": 1} and stats.retries == {"timeout": 3}
    err = capsys.readouterr().err.splitlines()
    assert sorted(err) == sorted(
        [f"[p{i % 2}] 2026-12-01 WARNING indexer: host slow" for i in range(3)]
    ), "progress lines are not passed on, the others with the child's number"


def test_the_frontier_value_leaves_the_child_command_line_in_every_spelling() -> None:
    url = f"postgresql://crawler:{PASSWORD}@127.0.0.1:5432/db"
    argv = ["crawl", "--frontier", url, "--fron", url, f"--frontier={url}", "--delay", "0.3"]
    assert without_value([*argv, "http://127.0.0.1:9/"], url) == [
        "crawl",
        "--delay",
        "0.3",
        "http://127.0.0.1:9/",
    ]
    assert without_value(argv, "") == argv, "nothing given: nothing left out"


def test_a_child_whose_parent_is_already_gone_stops_at_once(tmp_path: Path) -> None:
    read, write = os.pipe()
    with os.fdopen(write, "w") as pipe:  # a parent pid that is not the child's parent
        json.dump({"parent": os.getpid() + 1_000_000, "flags": {}}, pipe)
    seed = "http://127.0.0.1:9/"
    cmd = [sys.executable, "-m", "indexer", "crawl", "--from-parent", str(read), seed]
    cmd += ["--data-dir", str(tmp_path / "d")]
    try:
        done = subprocess.run(cmd, pass_fds=(read,), capture_output=True, text=True, timeout=60)
    finally:
        os.close(read)
    assert done.returncode == 130 and "interrupted" in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "d").exists(), "stopped before anything was made"
