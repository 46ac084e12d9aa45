"""The PostgreSQL part of ``scripts/bench/throughput.py`` (issue #20): crawl processes over one
shared frontier, on the same loopback site, in the same run.

Starts its own PostgreSQL cluster (``tests/pgcluster.py``: Debian's binaries, a temporary
directory, stopped by pid) and a fresh database per crawl. Extraction runs inline
(``extract.workers = 0``): on 2 cores the CPU is the limit, so the processes' share of it is
what scales.

- scaling: 1 process against 2 (``indexer crawl --processes 2``: the second joins once the
  first has opened the run), ``--out --delay 0 --per-host 1 --concurrency 64``; pages/s over
  the wall time of the command (goal: 2 processes >= 1.6 × 1), CPU-ms per page of the whole
  process tree, pages fetched twice (from the server's log: goal 0);
- delay: 2 processes at ``--delay 0.5`` over ``hosts`` × ``--delay-pages`` pages (default
  :data:`DELAY_PAGES`; the issue's site has 300): pages/s over the span of
  the server's log against the bound ``hosts / 0.5`` (goal >= 0.95) and the smallest gap
  between request starts on one host (goal: not below the delay). The span runs from the
  first request to the last one of any host, plus one delay (N requests a delay apart fill
  N delays), so the slowest host sets it; robots.txt is left out of the count and of the
  span's start (its slot comes before the first counted request), a robots.txt fetched
  again after a takeover costs its slot; the sitemap request (a 404 here) is counted.
  Arrival times are the kernel's (``throughput_site.py``), not the server's reads, which a
  loaded machine delays by tens of ms. Extraction runs inline here too, so the crawl
  processes' event loops are busy with it between requests.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import psycopg

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from throughput import Server, _free_port  # noqa: E402

from tests.pgcluster import Cluster, start_cluster  # noqa: E402

FAST = ("--delay", "0", "--per-host", "1", "--concurrency", "64")
DELAY, DELAY_PAGES = 0.5, 30


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "INDEXER_EXTRACT_WORKERS": "0"}


def _database(cluster: Cluster) -> str:
    name = f"bench_{time.monotonic_ns()}"
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.url(name)


def _children_cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far, descendants included
    (the crawl process trees)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cluster_cpu(cluster: Cluster) -> float:
    """CPU seconds of the cluster so far: the postmaster, its ended backends (reaped by it)
    and its live processes."""
    pid = cluster.pid()
    if pid is None:
        return 0.0
    master = psutil.Process(pid)
    total = sum(master.cpu_times()[:4])
    for child in master.children():
        with contextlib.suppress(psutil.Error):
            total += sum(child.cpu_times()[:2])
    return total


@dataclass
class Crawled:
    """One measured crawl: pages written, wall seconds, CPU seconds of the crawl process
    trees and of PostgreSQL."""

    pages: int
    seconds: float
    crawler_cpu: float
    pg_cpu: float

    def split(self) -> str:
        """The CPU split per page and the cores busy, for the printed line."""
        per = 1000 / max(self.pages, 1)
        cores = (self.crawler_cpu + self.pg_cpu) / self.seconds
        return (
            f"CPU crawlers {self.crawler_cpu:.1f} s ({self.crawler_cpu * per:.2f} ms/page), "
            f"PostgreSQL {self.pg_cpu:.1f} s ({self.pg_cpu * per:.2f} ms/page), "
            f"{cores:.2f} cores busy; load {os.getloadavg()[0]:.1f}"
        )


def crawl(cluster: Cluster, port: int, hosts: int, processes: int, *flags: str) -> Crawled:
    """One ``indexer crawl --processes N`` over a new database, measured."""
    url, work = _database(cluster), Path(tempfile.mkdtemp(prefix="bench-pg-"))
    seeds = [f"http://127.0.0.{h + 1}:{port}/" for h in range(hosts)]
    cmd = [sys.executable, "-m", "indexer", "crawl", "-q", "--frontier", url, *flags]
    cmd += ["--data-dir", str(work / "d"), "--out", str(work / "out.jsonl")]
    cmd += ["--processes", str(processes), *seeds]
    cpu0, pg0 = _children_cpu(), _cluster_cpu(cluster)
    start = time.monotonic()
    if subprocess.run(cmd, env=_env(), timeout=1800).returncode != 0:
        raise RuntimeError("the crawl failed")
    seconds = time.monotonic() - start
    time.sleep(0.3)  # the backends of the ended crawls are reaped by the postmaster
    crawler, pg = _children_cpu() - cpu0, _cluster_cpu(cluster) - pg0
    pages = sum(sum(1 for _ in p.open()) for p in work.glob("out*.jsonl"))
    return Crawled(pages, seconds, crawler, pg)


def _twice(log: list[tuple[str, str, float]]) -> int:
    """Pages requested more than once (robots.txt and sitemaps are read by each process)."""
    skip = ("/robots.txt", "/sitemap.xml")
    counts = collections.Counter((h, p) for h, p, _ in log if p not in skip)
    return sum(n - 1 for n in counts.values() if n > 1)


def _gaps(log: list[tuple[str, str, float]], skip: tuple[str, ...] = ()) -> list[float]:
    """Seconds between consecutive request starts on each host (paths in ``skip`` left out)."""
    by_host: dict[str, list[float]] = {}
    for host, path, at in log:
        if path not in skip:
            by_host.setdefault(host, []).append(at)
    return [b - a for s in by_host.values() for a, b in itertools.pairwise(sorted(s))]


def _longest_pause(log: list[tuple[str, str, float]]) -> float:
    """The longest time a host went without a request between its first and its last (a
    host left idle while it had queued URLs: a lease not handed over)."""
    return max(_gaps(log), default=0.0)


def scaling(cluster: Cluster, rounds: int, hosts: int, pages: int) -> None:
    """1 process against 2, alternated ``rounds`` times; pages/s and the ratio."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="bench-pg-site-") as tmp:
        for _, n in itertools.product(range(rounds), (1, 2)):
            port = _free_port()
            server = Server(port, hosts, pages, Path(tmp))
            try:
                got = crawl(cluster, port, hosts, n, *FAST)
            finally:
                log = server.stop()
            rates[n].append(got.pages / got.seconds)
            print(
                f"pg {n} process(es): {got.pages} pages in {got.seconds:.1f} s = "
                f"{got.pages / got.seconds:.1f} pages/s; fetched twice {_twice(log)}; longest "
                f"pause of a host {_longest_pause(log):.2f} s; "
                f"{got.split()}"
            )
    one, two = max(rates[1]), max(rates[2])
    print(f"pg scaling: 2 processes / 1 = {two / one:.2f} (goal >= 1.6; best of {rounds})")


def delayed(cluster: Cluster, hosts: int, pages: int = DELAY_PAGES) -> None:
    """2 processes at a known delay, ``pages`` a host, judged from the server's log."""
    with tempfile.TemporaryDirectory(prefix="bench-pg-delay-") as tmp:
        port = _free_port()
        server = Server(port, hosts, pages, Path(tmp))
        flags = ("--delay", str(DELAY), "--per-host", "1", "--concurrency", "64")
        limit = ("--max-pages-per-host", str(pages))
        try:
            crawl(cluster, port, hosts, 2, *flags, *limit)  # pages, seconds, CPU unused
        finally:
            log = server.stop()
    gaps = _gaps(log, ("/robots.txt",))
    starts = [at for _, path, at in log if path != "/robots.txt"]
    span = max(starts) - min(starts) + DELAY
    rate, bound = len(starts) / span, hosts / DELAY
    robots = sum(1 for _, path, _ in log if path == "/robots.txt")
    print(
        f"pg 2 processes at delay {DELAY} s: {len(starts)} requests over {span:.2f} s = "
        f"{rate:.1f} pages/s; bound {bound:.0f}; ratio {rate / bound:.3f} (goal >= 0.95); "
        f"smallest per-host gap {min(gaps):.3f} s; fetched twice {_twice(log)}; "
        f"robots.txt read {robots} times for {hosts} hosts"
    )


def run(
    rounds: int, hosts: int, pages: int, delay_pages: int = DELAY_PAGES, delay_only: bool = False
) -> None:
    """Both measurements on one throwaway cluster (the scaling one unless ``delay_only``)."""
    cluster = start_cluster()
    try:
        if not delay_only:
            scaling(cluster, rounds, hosts, pages)
        delayed(cluster, hosts, delay_pages)
    finally:
        cluster.stop()
