"""Benchmark (issue #16): crawl throughput on a loopback multi-host site, and the frontier.

Parts (``--part``, default all):

- ``site``: 30 hosts × 300 pages (``throughput_site.py``, a cheap static server in a child
  process, one per run). In one run, alternated ``--rounds`` times so that neither gets the
  warm machine: a trivial fetcher (aiohttp, 64 requests in flight, every URL known, no
  parsing: what the server can give), the product (``indexer crawl --out --delay 0
  --per-host 1 --concurrency 64``) and Scrapy fetch-only (``throughput_scrapy.py``, settings
  pinned there). Each: pages/s over the child's whole run, CPU-ms per page (user + system
  of the process tree, from ``RUSAGE_CHILDREN``), peak summed RSS of the process tree
  (sampled every 0.1 s); then the ratio product / Scrapy (goal >= 3).
- ``delay``: the product at ``--delay 0.5`` over 30 hosts × 30 pages: the bound is
  30 / 0.5 = 60 pages/s; pages/s over the span of the server's log (first request start to
  last, plus one delay) against it (goal >= 0.95), and the smallest gap between request
  starts on one host (goal: not below the delay).
- ``solr``: ``throughput_solr.py`` (``--out`` and ``--solr`` alternated, pages/s of each).
- ``frontier``: ``throughput_frontier.py`` (claim and add at 10k / 100k / 1M queued).
- ``pg`` (only when asked): ``throughput_pg.py``, 1 against 2 crawl processes over a shared
  PostgreSQL frontier, and 2 processes at a known delay (issue #20).

The load (``uptime``) is printed first: the machine is shared, figures are noisy.
Usage: python scripts/bench/throughput.py [--part site|delay|solr|frontier|pg|all] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DELAY, DELAY_PAGES = 0.5, 30
HOSTS, PAGES = 30, 300  # --hosts / --pages change them for a quick check


@dataclass
class Measured:
    """One child run: pages, wall seconds, CPU seconds of its tree, peak summed RSS (MiB)."""

    name: str
    pages: int
    seconds: float
    cpu: float
    rss_mib: float

    def line(self) -> str:
        rate = self.pages / self.seconds
        cpu_ms = 1000 * self.cpu / max(self.pages, 1)
        return (
            f"  {self.name:<16} {self.pages:5d} pages {self.seconds:6.2f} s {rate:7.1f} pages/s "
            f"{cpu_ms:5.2f} CPU-ms/page peak RSS {self.rss_mib:6.1f} MiB"
        )


def _tree_rss(proc: psutil.Process) -> int:
    """Summed RSS (bytes) of ``proc`` and its descendants now (0 once it is gone)."""
    total = 0
    with contextlib.suppress(psutil.Error):
        for p in [proc, *proc.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
    return total


def measure(
    name: str, cmd: Sequence[str], env: dict[str, str] | None = None
) -> tuple[float, float, float, str]:
    """Run ``cmd``; return wall seconds, CPU seconds of its tree, peak RSS MiB, stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    child = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    peak, proc = 0, psutil.Process(child.pid)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = child.communicate(timeout=1800)
    seconds = time.monotonic() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if child.returncode not in (0, None):
        raise RuntimeError(f"{name} exited {child.returncode}")
    return seconds, cpu, peak / 2**20, out


class Server:
    """The static site in a child process, stopped by its pid; its request log after."""

    def __init__(self, port: int, hosts: int, pages: int, tmp: Path) -> None:
        self.log_path = tmp / f"server-{time.monotonic_ns()}.jsonl"
        args = [sys.executable, str(HERE / "throughput_site.py"), str(port), str(hosts), str(pages)]
        args += [str(self.log_path), str(os.getpid())]  # the pid: it stops when we die
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            self.stop()
            raise RuntimeError("the static server did not start")

    def stop(self) -> list[tuple[str, str, float]]:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        if not self.log_path.exists():
            return []
        return [tuple(json.loads(line)) for line in self.log_path.read_text().splitlines()]  # type: ignore[misc]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def run_product(port: int, hosts: int, tmp: Path, *extra: str, solr: str | None = None) -> Measured:
    """``indexer crawl --out`` over the site (a fresh data directory); with ``solr`` (a
    base URL) ``indexer crawl --solr`` instead, its pages counted in the core ``pages``."""
    work = Path(tempfile.mkdtemp(dir=tmp))
    seeds = [f"http://127.0.0.{h + 1}:{port}/" for h in range(hosts)]
    cmd = [sys.executable, "-m", "indexer", "crawl", *seeds, "--data-dir", str(work / "data")]
    if solr is None:
        cmd += ["--out", str(work / "out.jsonl")]
    else:
        cmd += ["--solr", solr, "--core", "pages"]
    seconds, cpu, rss, _ = measure("product", [*cmd, "-q", *extra], _env())
    if solr is None:
        pages = sum(1 for _ in (work / "out.jsonl").open())
        return Measured("product --out", pages, seconds, cpu, rss)
    import requests

    found = requests.get(f"{solr}/pages/select", params={"q": "*:*", "rows": 0}, timeout=60)
    pages = int(found.json()["response"]["numFound"])
    return Measured("product --solr", pages, seconds, cpu, rss)


def run_scrapy(port: int, hosts: int) -> Measured:
    cmd = [sys.executable, str(HERE / "throughput_scrapy.py"), str(port), str(hosts)]
    seconds, cpu, rss, out = measure("scrapy", cmd)
    return Measured(
        "scrapy fetch-only", json.loads(out.strip().splitlines()[-1])["pages"], seconds, cpu, rss
    )


def run_trivial(port: int, hosts: int, pages: int) -> Measured:
    cmd = [sys.executable, __file__, "--trivial", str(port), str(hosts), str(pages)]
    seconds, cpu, rss, out = measure("trivial", cmd)
    return Measured("trivial fetcher", int(out.strip().splitlines()[-1]), seconds, cpu, rss)


async def _trivial(port: int, hosts: int, pages: int) -> int:
    import aiohttp

    urls = [
        f"http://127.0.0.{h + 1}:{port}/p/{i}.html" for h in range(hosts) for i in range(1, pages)
    ]
    urls += [f"http://127.0.0.{h + 1}:{port}/" for h in range(hosts)]
    got = 0
    limit = aiohttp.TCPConnector(limit=64, limit_per_host=0)
    async with aiohttp.ClientSession(connector=limit) as session:
        queue = iter(urls)

        async def worker() -> None:
            nonlocal got
            for url in queue:
                async with session.get(url) as resp:
                    await resp.read()
                    got += resp.status == 200

        await asyncio.gather(*(worker() for _ in range(64)))
    return got


def site(rounds: int, hosts: int, pages: int) -> None:
    """Part ``site``: trivial fetcher, product and Scrapy, alternated ``rounds`` times."""
    print(f"site: {hosts} hosts x {pages} pages, {rounds} rounds alternated")
    results: dict[str, list[Measured]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-through-") as tmp:
        for r in range(rounds):
            order = (
                ["trivial", "product", "scrapy"] if r % 2 == 0 else ["scrapy", "product", "trivial"]
            )
            for name in order:
                port = _free_port()
                server = Server(port, hosts, pages, Path(tmp))
                try:
                    if name == "trivial":
                        m = run_trivial(port, hosts, pages)
                    elif name == "product":
                        m = run_product(
                            port,
                            hosts,
                            Path(tmp),
                            "--delay",
                            "0",
                            "--per-host",
                            "1",
                            "--concurrency",
                            "64",
                        )
                    else:
                        m = run_scrapy(port, hosts)
                finally:
                    server.stop()
                results.setdefault(name, []).append(m)
                print(m.line(), flush=True)
    best = {k: max(v, key=lambda m: m.pages / m.seconds) for k, v in results.items()}
    rate = {k: m.pages / m.seconds for k, m in best.items()}
    print(
        f"site: best pages/s trivial {rate['trivial']:.1f}, product {rate['product']:.1f}, "
        f"scrapy {rate['scrapy']:.1f}; product / scrapy = {rate['product'] / rate['scrapy']:.2f} "
        f"(goal >= 3); trivial / product = {rate['trivial'] / rate['product']:.2f}"
    )


def delay(hosts: int, pages: int) -> None:
    """Part ``delay``: the product at a known delay, judged from the server's log."""
    with tempfile.TemporaryDirectory(prefix="bench-delay-") as tmp:
        port = _free_port()
        server = Server(port, hosts, pages, Path(tmp))
        try:
            m = run_product(
                port,
                hosts,
                Path(tmp),
                "--delay",
                str(DELAY),
                "--per-host",
                "1",
                "--concurrency",
                "64",
                "--max-pages-per-host",
                str(DELAY_PAGES),
            )
        finally:
            log = server.stop()
    by_host: dict[str, list[float]] = {}
    for host, path, at in log:
        if path != "/robots.txt":
            by_host.setdefault(host, []).append(at)
    gaps = [b - a for starts in by_host.values() for a, b in itertools.pairwise(sorted(starts))]
    starts = [at for _, path, at in log if path != "/robots.txt"]
    span = max(starts) - min(starts) + DELAY
    bound = hosts / DELAY
    rate = len(starts) / span
    print(
        f"delay {DELAY} s: {len(starts)} page requests over {span:.2f} s = {rate:.1f} pages/s; "
        f"bound {bound:.0f}; ratio {rate / bound:.3f} (goal >= 0.95); whole run "
        f"{m.pages / m.seconds:.1f} pages/s; smallest per-host gap {min(gaps):.3f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parts = ["site", "delay", "solr", "frontier", "pg", "all"]
    parser.add_argument("--part", choices=parts, default="all")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hosts", type=int, default=HOSTS)
    parser.add_argument("--pages", type=int, default=PAGES)
    parser.add_argument(
        "--delay-pages",
        type=int,
        default=None,
        help=f"pg: pages a host at the known delay (default {DELAY_PAGES}; the issue's: 300)",
    )
    parser.add_argument("--delay-only", action="store_true", help="pg: the delay part alone")
    parser.add_argument("--trivial", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.trivial:
        print(asyncio.run(_trivial(*args.trivial)))
        return 0
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load}; cores: {os.cpu_count()}")
    if args.part in ("site", "all"):
        site(args.rounds, args.hosts, args.pages)
    if args.part in ("delay", "all"):
        delay(args.hosts, args.pages)
    sys.path.insert(0, str(HERE))
    if args.part in ("solr", "all"):
        import throughput_solr

        throughput_solr.run(args.rounds, args.hosts, args.pages)
    if args.part in ("frontier", "all"):
        import throughput_frontier

        throughput_frontier.run()
    if args.part == "pg":  # not in "all": it starts its own PostgreSQL
        import throughput_pg

        delay_pages = args.delay_pages or throughput_pg.DELAY_PAGES
        throughput_pg.run(args.rounds, args.hosts, args.pages, delay_pages, args.delay_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
