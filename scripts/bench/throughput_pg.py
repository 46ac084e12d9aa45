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
- delay: 2 processes at ``--delay 0.5`` over ``hosts`` × 30 pages: pages/s over the span of
  the server's log against the bound ``hosts / 0.5`` (goal >= 0.95) and the smallest gap
  between request starts on one host (goal: not below the delay).
"""

from __future__ import annotations

import collections
import itertools
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def crawl(
    cluster: Cluster, port: int, hosts: int, processes: int, *flags: str
) -> tuple[int, float, float]:
    """One ``indexer crawl --processes N`` over a new database; (pages written, wall seconds,
    CPU seconds of the whole process tree)."""
    url, work = _database(cluster), Path(tempfile.mkdtemp(prefix="bench-pg-"))
    seeds = [f"http://127.0.0.{h + 1}:{port}/" for h in range(hosts)]
    cmd = [sys.executable, "-m", "indexer", "crawl", "-q", "--frontier", url, *flags]
    cmd += ["--data-dir", str(work / "d"), "--out", str(work / "out.jsonl")]
    cmd += ["--processes", str(processes), *seeds]
    before, start = _cpu(), time.monotonic()
    if subprocess.run(cmd, env=_env(), timeout=1800).returncode != 0:
        raise RuntimeError("the crawl failed")
    seconds, cpu = time.monotonic() - start, _cpu() - before
    pages = sum(sum(1 for _ in p.open()) for p in work.glob("out*.jsonl"))
    return pages, seconds, cpu


def _cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far, descendants included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _twice(log: list[tuple[str, str, float]]) -> int:
    """Pages requested more than once (robots.txt and sitemaps are read by each process)."""
    skip = ("/robots.txt", "/sitemap.xml")
    counts = collections.Counter((h, p) for h, p, _ in log if p not in skip)
    return sum(n - 1 for n in counts.values() if n > 1)


def scaling(cluster: Cluster, rounds: int, hosts: int, pages: int) -> None:
    """1 process against 2, alternated ``rounds`` times; pages/s and the ratio."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="bench-pg-site-") as tmp:
        for _, n in itertools.product(range(rounds), (1, 2)):
            port = _free_port()
            server = Server(port, hosts, pages, Path(tmp))
            try:
                done, seconds, cpu = crawl(cluster, port, hosts, n, *FAST)
            finally:
                log = server.stop()
            rates[n].append(done / seconds)
            print(
                f"pg {n} process(es): {done} pages in {seconds:.1f} s = {done / seconds:.1f} "
                f"pages/s, {1000 * cpu / max(done, 1):.2f} CPU-ms/page; fetched twice "
                f"{_twice(log)}; load {os.getloadavg()[0]:.1f}"
            )
    one, two = max(rates[1]), max(rates[2])
    print(f"pg scaling: 2 processes / 1 = {two / one:.2f} (goal >= 1.6; best of {rounds})")


def delayed(cluster: Cluster, hosts: int) -> None:
    """2 processes at a known delay, judged from the server's log."""
    with tempfile.TemporaryDirectory(prefix="bench-pg-delay-") as tmp:
        port = _free_port()
        server = Server(port, hosts, DELAY_PAGES, Path(tmp))
        flags = ("--delay", str(DELAY), "--per-host", "1", "--concurrency", "64")
        limit = ("--max-pages-per-host", str(DELAY_PAGES))
        try:
            crawl(cluster, port, hosts, 2, *flags, *limit)  # pages, seconds, CPU unused
        finally:
            log = server.stop()
    by_host: dict[str, list[float]] = {}
    for host, path, at in log:
        if path != "/robots.txt":
            by_host.setdefault(host, []).append(at)
    gaps = [b - a for s in by_host.values() for a, b in itertools.pairwise(sorted(s))]
    starts = [at for _, path, at in log if path != "/robots.txt"]
    span = max(starts) - min(starts) + DELAY
    rate, bound = len(starts) / span, hosts / DELAY
    print(
        f"pg 2 processes at delay {DELAY} s: {len(starts)} requests over {span:.2f} s = "
        f"{rate:.1f} pages/s; bound {bound:.0f}; ratio {rate / bound:.3f} (goal >= 0.95); "
        f"smallest per-host gap {min(gaps):.3f} s; fetched twice {_twice(log)}"
    )


def run(rounds: int, hosts: int, pages: int) -> None:
    """Both measurements on one throwaway cluster."""
    cluster = start_cluster()
    try:
        scaling(cluster, rounds, hosts, pages)
        delayed(cluster, hosts)
    finally:
        cluster.stop()
