"""Benchmark (issue #16): the page pool's cost to the crawl process, per page.

The same pages (from the benchmark's static site, ``throughput_site.py`` in a child
process) go through ``process_page`` in each pool, 64 calls in flight from an event loop
as the crawl submits them: Python's ``ProcessPoolExecutor`` (a feeder and a manager thread
in the crawl process) and :class:`indexer.pipeline.looppool.LoopPool` (the loop writes and
reads the workers' pipes itself), alternated ``--rounds`` times. For each: pages/s, the
crawl process's CPU-ms per page (all its threads: what the event loop's process pays for
the pool) and the workers' CPU-ms per page (``RUSAGE_CHILDREN`` after they are joined).

Usage: python scripts/bench/page_pool.py [--rounds 2] [--pages 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from indexer.crawl.candidates import LinkRules  # noqa: E402
from indexer.crawl.scope import Scope  # noqa: E402
from indexer.pipeline.looppool import LoopPool  # noqa: E402
from indexer.pipeline.page import process_page  # noqa: E402

Page = tuple[bytes, str | None, str]


def _pages(count: int) -> list[Page]:
    """``count`` distinct pages of one host of the static site."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    with tempfile.TemporaryDirectory() as tmp:
        log = str(Path(tmp) / "log.jsonl")
        args = [sys.executable, str(HERE / "throughput_site.py"), str(port), "1", str(count), log]
        server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None and server.stdout.readline().strip() == "ready"
            pages = []
            for i in range(1, count):
                url = f"http://127.0.0.1:{port}/p/{i}.html"
                with urllib.request.urlopen(url, timeout=10) as resp:  # loopback only
                    pages.append((resp.read(), resp.headers.get("content-type"), url))
            return pages
        finally:
            server.terminate()
            server.wait(timeout=30)


async def _drive(pool: Executor, pages: list[Page], total: int, rules: LinkRules) -> None:
    loop = asyncio.get_running_loop()
    todo = iter(range(total))

    async def lane() -> None:
        for i in todo:
            body, ctype, url = pages[i % len(pages)]
            args = (body, ctype, url, (), 500, *_LEARNING, rules)
            await loop.run_in_executor(pool, _call, args)

    await asyncio.gather(*(lane() for _ in range(64)))


_LEARNING: tuple[object, ...] = ()


def _call(args: tuple[object, ...]) -> object:
    return process_page(*args[:5], links=args[-1])  # type: ignore[arg-type]


def _run(kind: str, workers: int, pages: list[Page], total: int) -> str:
    rules = LinkRules((), 2048, Scope({"127.0.0.1"}))
    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()

    async def main() -> None:
        pool: Executor
        if kind == "ProcessPoolExecutor":
            pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            pool = LoopPool(workers)
        with pool:
            await asyncio.gather(*(asyncio.wrap_future(pool.submit(int)) for _ in range(workers)))
            await _drive(pool, pages, total, rules)

    asyncio.run(main())
    wall = time.monotonic() - start
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (me.ru_utime - before_self.ru_utime) + (me.ru_stime - before_self.ru_stime)
    theirs = (kids.ru_utime - before_kids.ru_utime) + (kids.ru_stime - before_kids.ru_stime)
    return (
        f"  {kind:<20} {total / wall:7.1f} pages/s  crawl process {1000 * own / total:5.2f}"
        f" CPU-ms/page  workers {1000 * theirs / total:5.2f} CPU-ms/page"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    pages = _pages(100)
    for r in range(args.rounds):
        kinds = ["ProcessPoolExecutor", "LoopPool"]
        for kind in kinds if r % 2 == 0 else kinds[::-1]:
            load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
            print(_run(kind, args.workers, pages, args.pages), f"[{load.split('load')[-1]}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
