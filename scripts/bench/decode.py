"""Benchmark: MB/s of ``decode_body`` on the charset corpus vs ``chardet.detect`` alone.

Both run in the same process over the same bytes (each corpus file as stored, and with its
declarations stripped, per the corpus README). chardet is called with its defaults, as a
caller that only detects would. Prints both throughputs and the ratio decode/chardet
(≥ 1 means the whole decode step is at least as fast as detection alone).

Usage: python scripts/bench/decode.py [--corpus DIR] [--rounds N]
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chardet

from indexer.encoding import decode_body

DEFAULT_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "charset"
STRIP_XML = re.compile(
    rb'^((?:\xef\xbb\xbf)?\s*<\?xml\b[^>]*?)\s+encoding\s*=\s*(["\'])[^"\']*\2', re.I
)
STRIP_META = re.compile(rb"<meta\b[^>]*\bcharset\b[^>]*>", re.I)


def load_bodies(corpus: Path) -> list[bytes]:
    """Every corpus file as stored, then every file with its declarations stripped."""
    with (corpus / "index.tsv").open(encoding="utf-8") as index:
        stored = [
            (corpus / row["file"]).read_bytes() for row in csv.DictReader(index, delimiter="\t")
        ]
    stripped = [STRIP_META.sub(b"", STRIP_XML.sub(rb"\1", b, count=1)) for b in stored]
    return stored + stripped


def best_seconds(func: Callable[[bytes], object], bodies: list[bytes], rounds: int) -> float:
    """Fastest of ``rounds`` passes over all bodies, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for body in bodies:
            func(body)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print MB/s for both and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if not (args.corpus / "index.tsv").is_file():
        print(f"bench/decode: no corpus at {args.corpus}", file=sys.stderr)
        return 2
    bodies = load_bodies(args.corpus)
    megabytes = sum(map(len, bodies)) / 1e6
    decode_body(bodies[0])  # warm up both (chardet loads its models lazily)
    chardet.detect(bodies[0])
    ours = best_seconds(decode_body, bodies, args.rounds)
    reference = best_seconds(chardet.detect, bodies, args.rounds)
    print(f"bodies: {len(bodies)} ({megabytes:.2f} MB), best of {args.rounds} rounds")
    print(f"decode_body:    {megabytes / ours:8.2f} MB/s")
    print(f"chardet.detect: {megabytes / reference:8.2f} MB/s")
    print(f"ratio decode_body / chardet.detect: {reference / ours:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
