"""Benchmark: crawl speed against the politeness bound, and memory as the frontier grows.

1. Politeness: 8 loopback hosts (127.0.0.1-8) × 40 pages each, ``fetch.delay`` 0.5 s, one
   request in flight per host. No crawler may exceed 8 / 0.5 = 16 pages/s; prints the
   pages/s achieved over the whole crawl (``Crawler.run``, start to end) and the ratio to
   that bound, and checks from the server's log that no rule was broken (smallest gap
   between request starts on one host, most requests in flight on one host).
2. Memory: peak RSS of a crawl process whose frontier ends up holding 100,000 URLs (100
   hub pages × 1,000 new links) against one holding 10,000 (10 hubs), both with the same
   page size; prints both and the ratio (flat memory means close to 1).

Both parts run the test suite's scripted server (``tests/faultserver.py``) in this process
and the crawler in a child process.
Usage: python scripts/bench/politeness.py [--part politeness|memory|both]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from indexer.crawl.frontier import Frontier  # noqa: E402
from indexer.pipeline.crawler import Crawler, CrawlOptions  # noqa: E402
from indexer.settings import load_settings  # noqa: E402
from tests.faultserver import FAST, FaultServer, Reply, crawl, html  # noqa: E402

HOSTS, PAGES, DELAY = 8, 40, 0.5
LINKS_PER_HUB = 1000


def politeness() -> float:
    """Run part 1; return the ratio of pages/s achieved to the bound.

    The crawler runs in a child process, so that the server's timestamps in this process
    are not delayed by the crawler's work (they share no interpreter lock).
    """
    with FaultServer(hosts=HOSTS) as srv, tempfile.TemporaryDirectory() as tmp:
        for h in range(HOSTS):
            srv.page("/", f"host {h}", [f"/p{i}" for i in range(1, PAGES)], host=h)
            for i in range(1, PAGES):
                srv.route(f"/p{i}", Reply(body=html(f"page {h}-{i}")), host=h)
        seeds = [srv.url("/", h) for h in range(HOSTS)]
        out = subprocess.run(
            [sys.executable, __file__, "--politeness-child", tmp, *seeds],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        pages, elapsed = result["indexed"], result["seconds"]
        gaps = []
        for h in range(HOSTS):
            starts = sorted(hit.start for hit in srv.log(h))
            gaps.append(min(b - a for a, b in itertools.pairwise(starts)))
        most_in_flight = max(srv.max_in_flight.values())
    bound = HOSTS / DELAY
    rate = pages / elapsed
    print(
        f"politeness: {pages} pages in {elapsed:.2f} s = {rate:.2f} pages/s; "
        f"bound {bound:.0f} pages/s; ratio {rate / bound:.3f}"
    )
    print(
        f"  smallest gap between request starts on one host {min(gaps):.3f} s "
        f"(delay {DELAY}); most requests in flight on one host {most_in_flight}"
    )
    if pages != HOSTS * PAGES:
        print(f"  WARNING: {HOSTS * PAGES - pages} pages not indexed: {result['outcomes']}")
    return rate / bound


def politeness_child(data_dir: Path, seeds: list[str]) -> None:
    """Crawl ``seeds`` (``Crawler.run``, start to end timed) and print the result as JSON."""
    start = time.monotonic()
    run = asyncio.run(
        crawl(seeds, data_dir, fetch__delay=DELAY, fetch__per_host=1, extract__workers="auto")
    )
    elapsed = time.monotonic() - start
    print(
        json.dumps(
            {
                "indexed": run.stats.outcomes["indexed"],
                "seconds": elapsed,
                "outcomes": dict(run.stats.outcomes),
            }
        )
    )


def memory_child(hubs: int, base: str, data_dir: Path) -> None:
    """Crawl ``hubs`` hub pages (and the seed) and print the peak RSS (KiB) as JSON.

    The crawl is run as ``indexer crawl`` runs it (no per-URL results collected here).
    """
    flags = {
        **FAST,
        "crawl.seeds": (f"{base}/",),
        "crawl.data_dir": data_dir,
        "crawl.max_pages": hubs + 1,
        "crawl.max_links_per_page": LINKS_PER_HUB + 10,
        "crawl.sitemaps": False,
    }
    settings = load_settings(None, flags, environ={}).settings
    with Frontier(data_dir) as frontier:
        options = CrawlOptions(out=data_dir / "out.jsonl", use_solr=False)
        stats = asyncio.run(Crawler(settings, frontier, options).run())
        queued_or_done = sum(stats.outcomes.values())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"hubs": hubs, "urls": queued_or_done, "peak_rss_kib": peak}))


def memory() -> float:
    """Run part 2; return peak RSS at 100,000 URLs divided by peak RSS at 10,000."""
    with FaultServer() as srv:
        hubs = 100
        srv.page("/", "seed", [f"/hub{i}" for i in range(hubs)])
        for i in range(hubs):
            links = [f"/hub{i}/leaf{j}" for j in range(LINKS_PER_HUB)]
            srv.route(f"/hub{i}", Reply(body=html(f"hub {i}", links=links)))
        peaks = {}
        for count in (10, 100):
            with tempfile.TemporaryDirectory() as tmp:
                out = subprocess.run(
                    [sys.executable, __file__, "--memory-child", str(count), srv.base(), tmp],
                    capture_output=True,
                    text=True,
                    check=True,
                    timeout=1200,
                )
                result = json.loads(out.stdout.strip().splitlines()[-1])
                peaks[count] = result["peak_rss_kib"]
                print(
                    f"  {count} hubs: {result['urls']} URLs with an outcome, "
                    f"peak RSS {peaks[count] / 1024:.1f} MiB"
                )
    ratio = peaks[100] / peaks[10]
    print(
        f"memory: peak RSS {peaks[10] / 1024:.1f} MiB with 10,000 URLs in the frontier, "
        f"{peaks[100] / 1024:.1f} MiB with 100,000; ratio {ratio:.3f}"
    )
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=["politeness", "memory", "both"], default="both")
    parser.add_argument(
        "--memory-child", nargs=3, metavar=("HUBS", "BASE", "DIR"), help=argparse.SUPPRESS
    )
    parser.add_argument("--politeness-child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.politeness_child:
        politeness_child(Path(args.politeness_child[0]), args.politeness_child[1:])
        return 0
    if args.memory_child:
        hubs, base, data_dir = args.memory_child
        memory_child(int(hubs), base, Path(data_dir))
        return 0
    if args.part in ("politeness", "both"):
        politeness()
    if args.part in ("memory", "both"):
        memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
