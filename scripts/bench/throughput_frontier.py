"""The frontier part of ``scripts/bench/throughput.py``: claim and add at 10k / 100k / 1M.

Each size runs in a child process of its own (so that its peak RSS is its own): a new
frontier is filled with ``size`` queued URLs over 30 hosts in batches of 1,000
(``Frontier.add``), then timed:

- add: one more 10,000 new URLs in batches of 1,000, microseconds per URL;
- claim: what the dispatcher does for one URL (``claim`` of a host, then ``next_due`` of
  it; timed), then ``finish`` (not timed), 3,000 times round the hosts, microseconds per
  claim.

Prints one line per size and the ratio of claim time at the largest size to the smallest
(goal: within 1.5).
"""

from __future__ import annotations

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

HOSTS = 30
BATCH = 1000
CLAIMS = 3000
SIZES = (10_000, 100_000, 1_000_000)


def _entries(start: int, count: int) -> list[tuple[str, str, int]]:
    """``count`` URLs ``http://127.0.0.H:8000/p/N`` spread over the hosts, depths 1-3."""
    rows = []
    for n in range(start, start + count):
        host = f"127.0.0.{n % HOSTS + 1}:8000"
        rows.append((f"http://{host}/p/{n}", host, 1 + n % 3))
    return rows


def child(size: int) -> None:
    """Fill a frontier to ``size`` queued URLs, time add and claim, print JSON."""
    with tempfile.TemporaryDirectory(prefix="bench-frontier-") as tmp, Frontier(Path(tmp)) as f:
        f.start_run(False)
        for start in range(0, size, BATCH):
            f.add(_entries(start, min(BATCH, size - start)))
        began = time.perf_counter()
        for start in range(size, size + 10_000, BATCH):
            f.add(_entries(start, BATCH))
        add_us = (time.perf_counter() - began) / 10_000 * 1e6
        hosts = [f"127.0.0.{h + 1}:8000" for h in range(HOSTS)]
        now = time.time()
        claiming = 0.0
        for i in range(CLAIMS):
            host = hosts[i % HOSTS]
            began = time.perf_counter()
            claimed = f.claim(host, now)
            f.next_due(host)
            claiming += time.perf_counter() - began
            if claimed is not None:
                f.finish(claimed.url, "indexed", "")
        claim_us = claiming / CLAIMS * 1e6
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"size": size, "add_us": add_us, "claim_us": claim_us, "rss_kib": rss}))


def run(sizes: tuple[int, ...] = SIZES) -> dict[int, dict[str, float]]:
    """Run every size in a child; print a line each and the claim ratio; return the rows."""
    rows: dict[int, dict[str, float]] = {}
    for size in sizes:
        out = subprocess.run(
            [sys.executable, __file__, str(size)],
            capture_output=True,
            text=True,
            check=True,
            timeout=1800,
        )
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows[size] = row
        print(
            f"frontier {size:>9,} queued: claim {row['claim_us']:7.1f} µs, "
            f"add {row['add_us']:5.1f} µs/URL, peak RSS {row['rss_kib'] / 1024:6.1f} MiB"
        )
    first, last = rows[sizes[0]], rows[sizes[-1]]
    print(
        f"frontier: claim at {sizes[-1]:,} / at {sizes[0]:,} = "
        f"{last['claim_us'] / first['claim_us']:.2f} (goal <= 1.5)"
    )
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 2:
        child(int(sys.argv[1]))
    else:
        run()
