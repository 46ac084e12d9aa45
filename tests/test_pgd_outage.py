"""PostgreSQL going away under a crawl on the shared frontier (issue #20): a fast shutdown, a
kill -9 of the server, a server that stops answering (SIGSTOP). The crawl (a subprocess, as
users run it) stops with its summary and one line naming ``frontier.url`` (password hidden)
and what to do, exit 2, no traceback; ``--resume`` once the server is back crawls every page
once, and the outbox's documents reach Solr. Alone, with ``--processes 2`` and with
``--join``. Each test has a cluster of its own (:mod:`tests.pgcluster`): it is stopped."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from indexer.pipeline.sitewide import HOLD_PAGES
from tests.faults_helpers import ended
from tests.faultserver import FaultServer, Reply, html
from tests.pgcluster import Cluster, start_cluster
from tests.recrawl_site import solr_docs

HOSTS, PAGES = 4, 25
#: Pages per host where two processes must overlap (a child or a join starts in 2–5 s).
MORE = 80
SECRET = "pgd-secret"
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
]


@pytest.fixture
def cluster(pg_cluster: Cluster) -> Iterator[Cluster]:
    """A cluster of this test's own (it is stopped mid-test), stopped by pid at the end
    (``pg_cluster`` only for its skip, or failure under CI, without PostgreSQL, and so that
    the test counts as one on PostgreSQL: :mod:`tests.area_times`)."""
    own = start_cluster()
    with psycopg.connect(own.url(), autocommit=True) as conn:  # a commit survives a -9
        conn.execute("ALTER SYSTEM SET synchronous_commit = on")
        conn.execute("SELECT pg_reload_conf()")
    try:
        yield own
    finally:
        for pid in own.processes():  # a SIGSTOPped server would not stop
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        own.stop()


def _frontier(cluster: Cluster) -> str:
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE f")
    return cluster.url("f", password=SECRET)  # trusted: the password only has to stay hidden


def _site(srv: FaultServer, pages: int = PAGES) -> list[str]:
    """HOSTS × (pages + 1) pages, each with text of its own (no site-wide duplicate holds)."""
    for h in range(HOSTS):
        srv.page("/", f"home {h}", [f"/p{i}" for i in range(pages)], host=h)
        for i in range(pages):
            text = " ".join(WORDS[(i * 7 + h * 3 + k) % len(WORDS)] + str(i) for k in range(40))
            srv.route(f"/p{i}", Reply(body=html(f"page {h}-{i}", text), delay=0.05), host=h)
    return [srv.url("/", h) for h in range(HOSTS)]


def _every_page(srv: FaultServer, pages: int = PAGES) -> list[str]:
    paths = ["/", *[f"/p{i}" for i in range(pages)]]
    return sorted(srv.url(p, h) for h in range(HOSTS) for p in paths)


def _out(cwd: Path) -> list[str]:
    lines = [line for f in sorted(cwd.glob("docs*.jsonl")) for line in f.read_text().splitlines()]
    return [json.loads(line)["url"] for line in lines if line.strip().endswith("}")]


def _launch(cwd: Path, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "INDEXER_EXTRACT_WORKERS": "0",
        "INDEXER_FRONTIER_LEASE_SECONDS": "3",
        "INDEXER_FRONTIER_STALL_SECONDS": "3",
    }
    cmd = [sys.executable, "-m", "indexer", "crawl", "--delay", "0.1", "--per-host", "1", *args]
    return subprocess.Popen(cmd, cwd=cwd, env=env, stderr=subprocess.PIPE, text=True)


Launch = Callable[..., subprocess.Popen[str]]


@pytest.fixture
def launch() -> Iterator[Launch]:
    """:func:`_launch`, each crawl killed at the test's end if still running (an assertion
    that failed midway leaves none behind; a ``--processes`` parent's children die with it)."""
    procs: list[subprocess.Popen[str]] = []

    def start(cwd: Path, *args: str) -> subprocess.Popen[str]:
        procs.append(_launch(cwd, *args))
        return procs[-1]

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _wait_docs(cwd: Path, count: int, *procs: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 90
    while len(_out(cwd)) < count and time.monotonic() < deadline:
        assert all(p.poll() is None for p in procs), "a crawl ended before the outage"
        time.sleep(0.05)
    assert len(_out(cwd)) >= count, "the crawl did not get going"


def _both_crawl(cwd: Path) -> bool:
    """Whether both children of ``--processes 2`` wrote documents."""
    files = [cwd / f"docs.{i}.jsonl" for i in range(2)]
    return all(f.exists() and len(f.read_text().splitlines()) >= 3 for f in files)


def _said_once(err: str, processes: int = 1) -> list[str]:
    """The lines naming the setting: at most one per process, no traceback, no asyncio
    noise, the password hidden."""
    assert "Traceback" not in err and "asyncio" not in err, err[-3000:]
    assert SECRET not in err, "the password is shown"
    named = [line for line in err.splitlines() if "frontier.url" in line]
    assert 1 <= len(named) <= processes, err[-3000:]
    for line in named:
        said = re.sub(r"^\[p\d+\] ", "", line)  # a --processes child's line, its number first
        assert said.startswith("indexer: frontier.url postgresql://indexer:***@"), line
        assert "PostgreSQL went away" in line and "--resume" in line, line
    return named


def _unfinished(cluster: Cluster) -> set[str]:
    """The URLs claimed but not finished when the server went away (read once it is back):
    the pages in flight and those the site-wide judge held (a host's first pages)."""
    with psycopg.connect(cluster.url("f"), autocommit=True) as conn:
        rows = conn.execute("SELECT url FROM indexer.urls WHERE state = 'fetching'")
        return {str(row[0]) for row in rows}


def _each_once(
    srv: FaultServer, cwds: list[Path], unfinished: set[str], pages: int, slack: int = 0
) -> None:
    """Every page in the ``--out`` files; a page fetched (or written) twice only when it
    was unfinished at the outage (beyond them at most ``slack`` pages)."""
    assert len(unfinished) <= 2 * HOSTS * (HOLD_PAGES + 1), unfinished
    urls = [url for cwd in cwds for url in _out(cwd)]
    assert sorted(set(urls)) == _every_page(srv, pages), "a page is missing"
    twice = {u for u, n in collections.Counter(urls).items() if n > 1}
    assert twice <= unfinished, twice - unfinished
    hits = [srv.url(h.path, h.host) for h in srv.log() if h.path not in ("/robots.txt",)]
    again = {u for u, n in collections.Counter(hits).items() if n > 1 and "sitemap" not in u}
    assert len(again - unfinished) <= slack, f"fetched twice, though finished: {again - unfinished}"


@pytest.mark.solr
def test_a_fast_shutdown_stops_the_crawl_and_resume_loses_nothing(
    cluster: Cluster, solr_core: tuple[str, str], tmp_path: Path, launch: Launch
) -> None:
    base, core = solr_core
    flags = ["--frontier", _frontier(cluster), "--solr", base, "--out", "docs.jsonl"]
    with FaultServer(HOSTS) as srv:
        seeds = _site(srv)
        crawl = launch(tmp_path, *flags, *seeds)
        _wait_docs(tmp_path, 20, crawl)
        os.kill(cluster.pid() or 0, signal.SIGINT)  # pg_ctl stop -m fast
        code, err = ended(crawl, 60)
        assert code == 2, err[-3000:]
        _said_once(err)
        assert any(line.startswith("fetched ") for line in err.splitlines()[-4:]), "no summary"
        done = len(_out(tmp_path))
        cluster.start()
        unfinished = _unfinished(cluster)
        code, err = ended(launch(tmp_path, *flags, "--resume"), within=120)
        assert code == 0, err[-3000:]
        _each_once(srv, [tmp_path], unfinished, PAGES)
    assert done < HOSTS * (PAGES + 1), "the outage came after the end"
    assert sorted(solr_docs(base, core)) == _every_page(srv), "the outbox lost documents"


def test_a_server_killed_9_stops_two_processes_and_resume_loses_nothing(
    cluster: Cluster, tmp_path: Path, launch: Launch
) -> None:
    flags = ["--frontier", _frontier(cluster), "--out", "docs.jsonl", "--processes", "2"]
    with FaultServer(HOSTS) as srv:
        seeds = _site(srv, MORE)  # the resume's second child joins before the first is done
        crawl = launch(tmp_path, *flags, *seeds)
        deadline = time.monotonic() + 90
        while not _both_crawl(tmp_path):
            assert crawl.poll() is None and time.monotonic() < deadline, "no two processes"
            time.sleep(0.05)
        for pid in cluster.processes():  # the server and its backends, as in a crash
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        code, err = ended(crawl, 60)
        assert code == 2, err[-3000:]
        _said_once(err, processes=2)
        assert "process 0 (pid" in err, "no summary"
        cluster.start()
        unfinished = _unfinished(cluster)
        code, err = ended(launch(tmp_path, *flags, "--resume"), within=120)
        assert code == 0, err[-3000:]
        # left open: after a -9 the page in flight of each host was once not 'fetching'
        _each_once(srv, [tmp_path], unfinished, MORE, slack=HOSTS)


def test_a_server_that_stops_answering_stops_a_joined_crawl_within_the_bound(
    cluster: Cluster, tmp_path: Path, launch: Launch
) -> None:
    url = _frontier(cluster)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with FaultServer(HOSTS) as srv:
        seeds = _site(srv, MORE)  # the joining process starts before the lead is done
        lead = launch(tmp_path / "a", "--frontier", url, "--out", "docs.jsonl", *seeds)
        _wait_docs(tmp_path / "a", 5, lead)
        joined = launch(tmp_path / "b", "--frontier", url, "--out", "docs.jsonl", "--join")
        _wait_docs(tmp_path / "b", 3, lead, joined)
        stalled = cluster.processes()
        for pid in stalled:
            os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            ends = [ended(proc, within=40) for proc in (lead, joined)]
            took = time.monotonic() - started
        finally:
            for pid in stalled:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
        for code, err in ends:
            assert code == 2, err[-3000:]
            assert "frontier.stall_seconds=3" in _said_once(err)[0]
        assert took < 3 + 10, f"{took:.1f} s to stop"
        unfinished = _unfinished(cluster)
        resumed = launch(tmp_path / "a", "--frontier", url, "--out", "docs.jsonl", "--resume")
        code, err = ended(resumed, within=120)
        assert code == 0, err[-3000:]
        _each_once(srv, [tmp_path / "a", tmp_path / "b"], unfinished, MORE)
