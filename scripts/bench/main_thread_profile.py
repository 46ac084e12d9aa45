"""Where the crawl's main thread spends its time, from a py-spy raw profile (``--idle
--threads -f raw``): the share of idle samples, and of the busy ones per area (the first
matching frame rule, leaf first) and per function (inclusive).

Usage: python scripts/bench/main_thread_profile.py PROFILE.raw
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

IDLE = "select (selectors.py"  # in the leaf frame: the event loop waiting for I/O
AREAS = (
    ("frontier (SQLite)", "indexer/crawl/frontier/"),
    ("outbox / --out file", "indexer/index/"),
    ("link admission", "indexer/pipeline/dispatch.py"),
    ("process-pool IPC", "concurrent/futures/"),
    ("HTTP (aiohttp)", "aiohttp/"),
    ("verdict and visit", "indexer/pipeline/"),
    ("asyncio itself", "asyncio/"),
)


def _function(frame: str) -> str:
    """``name (file)`` of a py-spy frame ``name (file:line)``."""
    name, _, where = frame.partition(" (")
    return f"{name} ({where.split(':')[0]})"


def main(path: Path) -> None:
    total = idle = 0
    areas: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not frames[0].endswith("MainThread"):
            continue
        n = int(count)
        total += n
        leaf = frames[-1]
        if IDLE in leaf:
            idle += n
            continue
        for name, marker in AREAS:
            if any(marker in f for f in frames):
                areas[name] += n
                break
        else:
            areas["other"] += n
        for name in {_function(f) for f in frames[1:] if " (" in f}:
            functions[name] += n
    busy = total - idle
    print(f"main thread: {total} samples, idle {idle / total:.1%}, busy {busy / total:.1%}")
    for name, n in areas.most_common():
        print(f"  {name:<22} {n / busy:6.1%} of busy")
    print("  functions (inclusive, share of busy):")
    for name, n in functions.most_common(40):
        if "indexer/" in name or "sqlite" in name or "json" in name or "pickle" in name:
            print(f"    {n / busy:6.1%}  {name}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
