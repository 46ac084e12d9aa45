"""Benchmark: median time per page of our extraction against trafilatura, same pages, same run.

Both sides get the same input, the text decoded with the true codec, so the figure is
extraction alone (no charset detection). Each page is run ``--repeat`` times per side,
interleaved, and the per-page minimum is kept to damp noise from other processes.

Usage: ``python scripts/bench/extract.py [--corpus-root DIR] [--repeat N]``
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent


def _eval_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_extraction", SCRIPTS / "eval_extraction.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _ours(text: str, url: str) -> object:
    from indexer.extract import extract

    return extract(text, url)


def _trafilatura(text: str, url: str) -> object:
    import trafilatura

    return trafilatura.extract(text, url=url, include_tables=True)


def _best_time(fn: Callable[[str, str], object], text: str, url: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text, url)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    """Print median ms/page for both extractors and their ratio; 2 if the corpus is missing."""
    ev = _eval_module()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus-root", type=Path, default=ev.DEFAULT_ROOT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not args.corpus_root.is_dir():
        print(f"corpus root not found: {args.corpus_root}", file=sys.stderr)
        return 2
    pages = [p for name in ("ja", "en") for p in ev.LOADERS[name](args.corpus_root)]
    texts = [(p.body.decode(p.codec, "replace"), p.url) for p in pages]
    for text, url in texts[:5]:  # warm imports and caches
        _ours(text, url)
        _trafilatura(text, url)
    ours, theirs = [], []
    for text, url in texts:
        ours.append(_best_time(_ours, text, url, args.repeat))
        theirs.append(_best_time(_trafilatura, text, url, args.repeat))
    ours_ms = 1000 * statistics.median(ours)
    theirs_ms = 1000 * statistics.median(theirs)
    print(f"pages: {len(texts)}  repeat: {args.repeat}")
    print(f"ours        median {ours_ms:7.2f} ms/page  total {sum(ours):6.2f} s")
    print(f"trafilatura median {theirs_ms:7.2f} ms/page  total {sum(theirs):6.2f} s")
    print(f"ratio ours/trafilatura (median): {ours_ms / theirs_ms:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
