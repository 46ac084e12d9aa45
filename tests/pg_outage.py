"""The fixtures and helpers of the tests where PostgreSQL goes away under a crawl on the
shared frontier (:mod:`tests.test_pgd_outage`, :mod:`tests.test_pgx_ending`,
:mod:`tests.test_pgx_reindex_lost`, :mod:`tests.test_pgw_resumed`): a cluster of each test's
own (:mod:`tests.pgcluster`, stopped by pid), crawls started as users run them (killed at the
test's end if still running), a multi-host loopback site and the checks on what came out."""

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
from tests.faultserver import FaultServer, Reply, html
from tests.pgcluster import Cluster, start_cluster

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


def frontier_url(cluster: Cluster) -> str:
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE f")
    return cluster.url("f", password=SECRET)  # trusted: the password only has to stay hidden


def site(srv: FaultServer, pages: int = PAGES) -> list[str]:
    """HOSTS × (pages + 1) pages, each with text of its own (no site-wide duplicate holds)."""
    for h in range(HOSTS):
        srv.page("/", f"home {h}", [f"/p{i}" for i in range(pages)], host=h)
        for i in range(pages):
            text = " ".join(WORDS[(i * 7 + h * 3 + k) % len(WORDS)] + str(i) for k in range(40))
            srv.route(f"/p{i}", Reply(body=html(f"page {h}-{i}", text), delay=0.05), host=h)
    return [srv.url("/", h) for h in range(HOSTS)]


def every_page(srv: FaultServer, pages: int = PAGES) -> list[str]:
    paths = ["/", *[f"/p{i}" for i in range(pages)]]
    return sorted(srv.url(p, h) for h in range(HOSTS) for p in paths)


def out_urls(cwd: Path) -> list[str]:
    lines = [line for f in sorted(cwd.glob("docs*.jsonl")) for line in f.read_text().splitlines()]
    return [json.loads(line)["url"] for line in lines if line.strip().endswith("}")]


def start_crawl(cwd: Path, *args: str) -> subprocess.Popen[str]:
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
    """:func:`start_crawl`, each crawl killed at the test's end if still running (an assertion
    that failed midway leaves none behind; a ``--processes`` parent's children die with it)."""
    procs: list[subprocess.Popen[str]] = []

    def start(cwd: Path, *args: str) -> subprocess.Popen[str]:
        procs.append(start_crawl(cwd, *args))
        return procs[-1]

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def wait_docs(cwd: Path, count: int, *procs: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 90
    while len(out_urls(cwd)) < count and time.monotonic() < deadline:
        assert all(p.poll() is None for p in procs), "a crawl ended before the outage"
        time.sleep(0.05)
    assert len(out_urls(cwd)) >= count, "the crawl did not get going"


def both_crawl(cwd: Path) -> bool:
    """Whether both children of ``--processes 2`` wrote documents."""
    files = [cwd / f"docs.{i}.jsonl" for i in range(2)]
    return all(f.exists() and len(f.read_text().splitlines()) >= 3 for f in files)


def said_once(err: str, processes: int = 1) -> list[str]:
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


def unfinished_urls(cluster: Cluster) -> set[str]:
    """The URLs claimed but not finished when the server went away (read once it is back):
    the pages in flight and those the site-wide judge held (a host's first pages)."""
    with psycopg.connect(cluster.url("f"), autocommit=True) as conn:
        rows = conn.execute("SELECT url FROM indexer.urls WHERE state = 'fetching'")
        return {str(row[0]) for row in rows}


def each_once(
    srv: FaultServer, cwds: list[Path], unfinished: set[str], pages: int, slack: int = 0
) -> None:
    """Every page in the ``--out`` files; a page fetched (or written) twice only when it
    was unfinished at the outage (beyond them at most ``slack`` pages)."""
    assert len(unfinished) <= 2 * HOSTS * (HOLD_PAGES + 1), unfinished
    urls = [url for cwd in cwds for url in out_urls(cwd)]
    assert sorted(set(urls)) == every_page(srv, pages), "a page is missing"
    twice = {u for u, n in collections.Counter(urls).items() if n > 1}
    assert twice <= unfinished, twice - unfinished
    hits = [srv.url(h.path, h.host) for h in srv.log() if h.path not in ("/robots.txt",)]
    again = {u for u, n in collections.Counter(hits).items() if n > 1 and "sitemap" not in u}
    assert len(again - unfinished) <= slack, f"fetched twice, though finished: {again - unfinished}"
