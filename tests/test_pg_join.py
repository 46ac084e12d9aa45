"""``indexer crawl --join`` on a shared PostgreSQL frontier (issue #20): a second crawl
process joins the running crawl; hosts are split by their leases, no page is fetched twice,
no host's gap falls below the delay (the server's log is the judge); the refusals."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from indexer.crawl.frontier.postgres.view import PgFrontierView
from tests.faults_helpers import cli
from tests.faultserver import LOG_JITTER, FaultServer

HOSTS, PAGES, DELAY = 4, 30, 0.3


def _crawl(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "indexer", "crawl", "-q", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_a_joining_process_shares_the_hosts_and_keeps_politeness(
    pg_url: str, tmp_path: Path
) -> None:
    common = ["--frontier", pg_url, "--delay", str(DELAY), "--per-host", "1"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, PAGES, delay=0.02)
        first = _crawl(*common, "--data-dir", "a", "--out", "a.jsonl", *seeds, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 60
            while len(srv.log()) < 2 * HOSTS:
                assert first.poll() is None and time.monotonic() < deadline, "ended early"
                time.sleep(0.02)
            joined = _crawl(*common, "--join", "--data-dir", "b", "--out", "b.jsonl", cwd=tmp_path)
            assert joined.wait(120) == 0, (
                joined.stderr.read().decode()[-2000:] if joined.stderr else ""
            )
            assert first.wait(120) == 0
        finally:
            for proc in (first, locals().get("joined")):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
        hits = srv.log()
    fetched = [(h.host, h.path) for h in hits if h.path not in ("/robots.txt", "/sitemap.xml")]
    assert len(fetched) == len(set(fetched)) == HOSTS * (PAGES + 1), "each page fetched once"
    for host in range(HOSTS):
        starts = sorted(h.start for h in hits if h.host == host)
        gaps = [b - a for a, b in itertools.pairwise(starts)]
        assert min(gaps) >= DELAY - LOG_JITTER, (host, min(gaps))
    docs = {
        name: [json.loads(line)["url"] for line in (tmp_path / name).read_text().splitlines()]
        for name in ("a.jsonl", "b.jsonl")
    }
    assert docs["b.jsonl"], "the joining process crawled a share"
    assert sorted(docs["a.jsonl"] + docs["b.jsonl"]) == sorted(
        srv.url(p, h) for h in range(HOSTS) for p in ["/", *[f"/p{i}" for i in range(PAGES)]]
    )
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
        assert (last.phase, last.finished) == ("finished", True), "closed by the last process"


def test_join_refusals_name_what_differs(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = ["--data-dir", str(tmp_path / "d"), "-q"]
    code, err = cli("crawl", "--join", *d)
    assert code == 2 and "frontier.url" in err, err
    with FaultServer() as srv:
        srv.page("/", "home", [])
        out = ["--out", str(tmp_path / "o.jsonl")]
        code, err = cli("crawl", srv.url("/"), "--frontier", pg_url, "--delay", "0", *d, *out)
        assert code == 0, err
    j = ["--frontier", pg_url, "--data-dir", str(tmp_path / "j"), "-q"]
    code, err = cli("crawl", "--join", *j)
    assert code == 2 and "no crawl runs" in err, err
    with psycopg_open_run(pg_url):
        code, err = cli("crawl", "--join", "--delay", "1.5", *j)
        assert code == 2 and "fetch.delay" in err and "differs" in err, err
        code, err = cli("crawl", "--join", "--delay", "0", "--exclude", "x", srv.url("/"), *j)
        assert code == 2 and "crawl.exclude" in err, err
        # without seeds (the usual join) the scope is checked all the same
        code, err = cli("crawl", "--join", "--delay", "0", "--include", "p/1", *j)
        assert code == 2 and "crawl.include" in err, err
        code, err = cli("crawl", "--join", "--delay", "0", "--allow-host", "127.0.0.9", *j)
        assert code == 2 and "crawl.allow_hosts" in err, err
        monkeypatch.setenv("INDEXER_FRONTIER_LEASE_SECONDS", "5")
        code, err = cli("crawl", "--join", "--delay", "0", *j)
        assert code == 2 and "frontier.lease_seconds" in err and "30" in err, err


class psycopg_open_run:
    """``with psycopg_open_run(url):`` reopens the frontier's last run (a crawl running)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __enter__(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("UPDATE indexer.runs SET finished=NULL, phase='crawling'")

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_process_killed_9_loses_its_hosts_to_the_other_within_the_lease_time(
    pg_url: str, tmp_path: Path
) -> None:
    lease = 3.0
    env = {**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(lease)}
    common = ["--frontier", pg_url, "--delay", str(DELAY), "--per-host", "1"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, PAGES, delay=0.02)
        first = _crawl(
            *common, "--data-dir", "a", "--out", "a.jsonl", *seeds, cwd=tmp_path, env=env
        )
        victim = None
        try:
            while len(srv.log()) < 2 * HOSTS:
                assert first.poll() is None, "ended early"
                time.sleep(0.02)
            victim = _crawl(
                *common, "--join", "--data-dir", "b", "--out", "b.jsonl", cwd=tmp_path, env=env
            )
            b_hosts = _hosts_of(pg_url, victim, deadline=time.monotonic() + 30)
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(10)
            killed_at = time.monotonic()
            assert first.wait(120) == 0
        finally:
            for proc in (first, victim):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
        hits = srv.log()
    taken = [min(h.start for h in hits if h.host == i and h.start > killed_at) for i in b_hosts]
    assert max(taken) - killed_at <= lease + 2.5, "taken over within the lease time"
    pages = {(h, p) for h in range(HOSTS) for p in ["/", *[f"/p{i}" for i in range(PAGES)]]}
    fetched = [(h.host, h.path) for h in hits if h.path not in ("/robots.txt", "/sitemap.xml")]
    assert set(fetched) == pages, "nothing lost"
    twice = len(fetched) - len(set(fetched))
    assert twice <= len(b_hosts), "at most the pages in flight (per_host 1) fetched again"
    docs = set()
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        lines = path.read_text().splitlines() if path.exists() else []
        docs |= {json.loads(line)["url"] for line in lines if line.strip().endswith("}")}
    assert docs == {srv.url(p, h) for h, p in pages}, "every document written by one of them"


def _hosts_of(pg_url: str, proc: subprocess.Popen[bytes], deadline: float) -> list[int]:
    """The hosts (indexes) whose lease the crawl process ``proc`` holds, once it holds any."""
    import psycopg

    while time.monotonic() < deadline:
        assert proc.poll() is None, "the joining process ended early"
        with psycopg.connect(pg_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT l.host FROM indexer.host_leases l JOIN indexer.crawl_processes p "
                "ON p.owner = l.owner WHERE p.owner LIKE %s",
                (f"%:{proc.pid}:%",),
            ).fetchall()
        if rows:
            return [int(str(r[0]).split(":")[0].rsplit(".", 1)[1]) - 1 for r in rows]
        time.sleep(0.1)
    raise AssertionError("the joining process never held a host")
