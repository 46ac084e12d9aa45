"""Score main-content extraction on the extract-ja / -en / -readability corpora against trafilatura.

Metric (corpus READMEs): character-bigram precision/recall/F1 after NFKC with white space,
punctuation, symbols, separators and control characters removed; page-macro average;
an empty prediction scores 0. Three runs per set, same pages, same process:

- ours:         ``indexer.encoding.decode_body`` on the bytes, then ``indexer.extract.extract``
- traf-bytes:   ``trafilatura.extract(bytes, include_tables=True)``
- traf-text:    ``trafilatura.extract(text decoded with the true codec, include_tables=True)``

Pages are extracted one at a time, without template learning (each set's pages come from
many sites, a handful each).

Usage: ``python scripts/eval_extraction.py [--corpus-root DIR] [--set ja|en|readability]
[--per-page]``
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus"


@dataclass(frozen=True)
class Page:
    """One evaluation page: raw bytes, gold text and the codec the gold was made with."""

    id: str
    body: bytes
    gold: str
    codec: str
    url: str


@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 of one prediction (0.0–1.0)."""

    p: float
    r: float
    f1: float


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if not (c.isspace() or unicodedata.category(c)[0] in "PZSC"))


def bigrams(text: str) -> Counter[str]:
    """Multiset of overlapping character bigrams of the normalised text."""
    s = _norm(text)
    return Counter(s[i : i + 2] for i in range(len(s) - 1)) if len(s) > 1 else Counter(s)


def score(pred: str, gold: str) -> Score:
    """Bigram P/R/F1 of ``pred`` against ``gold`` (README metric)."""
    p, g = bigrams(pred), bigrams(gold)
    tp = sum((p & g).values())
    precision = tp / sum(p.values()) if p else 0.0
    recall = tp / sum(g.values()) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1)


def load_ja(root: Path) -> list[Page]:
    """Pages of extract-ja (``index.tsv``, ``pages/``, ``gold/``)."""
    base = root / "extract-ja"
    pages = []
    with (base / "index.tsv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            body = (base / "pages" / f"{row['id']}.html").read_bytes()
            gold = (base / "gold" / f"{row['id']}.txt").read_text(encoding="utf-8")
            url = f"http://{row['site'].split()[0]}/{row['id']}.html"
            pages.append(Page(row["id"], body, gold, row["codec"], url))
    return pages


def load_en(root: Path) -> list[Page]:
    """Pages of extract-en (``html/*.html.gz``, ``ground-truth.json``); all UTF-8."""
    base = root / "extract-en"
    truth = json.loads((base / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for page_id in sorted(truth):
        body = gzip.decompress((base / "html" / f"{page_id}.html.gz").read_bytes())
        item = truth[page_id]
        pages.append(Page(page_id, body, item["articleBody"], "utf-8", item["url"]))
    return pages


def load_readability(root: Path) -> list[Page]:
    """Pages of extract-readability (``html/*.html.gz``, ``ground-truth.json``); all UTF-8.

    The gold is Readability.js's own reviewed output (see the set's README), good for
    breadth and for catching collapses rather than as a hand annotation. The pages have
    no URL of their own; a loopback one stands in (links are only resolved, never fetched).
    """
    base = root / "extract-readability"
    truth = json.loads((base / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for page_id in sorted(truth):
        body = gzip.decompress((base / "html" / f"{page_id}.html.gz").read_bytes())
        url = f"http://127.0.0.1/{page_id}/"
        pages.append(Page(page_id, body, truth[page_id]["articleBody"], "utf-8", url))
    return pages


LOADERS: dict[str, Callable[[Path], list[Page]]] = {
    "ja": load_ja,
    "en": load_en,
    "readability": load_readability,
}


def ours(page: Page) -> str:
    """Our pipeline on the bytes: decode_body, then extract."""
    from indexer.encoding import decode_body
    from indexer.errors import IndexerError
    from indexer.extract import extract

    try:
        decoded = decode_body(page.body, None)
        return extract(decoded.text, page.url, encoding=decoded.encoding).text
    except IndexerError:
        return ""


def traf_bytes(page: Page) -> str:
    """trafilatura left to detect the charset itself."""
    import trafilatura

    return trafilatura.extract(page.body, url=page.url, include_tables=True) or ""


def traf_text(page: Page) -> str:
    """trafilatura on text decoded with the true codec."""
    import trafilatura

    text = page.body.decode(page.codec, "replace")
    return trafilatura.extract(text, url=page.url, include_tables=True) or ""


SYSTEMS: dict[str, Callable[[Page], str]] = {
    "ours": ours,
    "traf-bytes": traf_bytes,
    "traf-text": traf_text,
}


@dataclass(frozen=True)
class Run:
    """One system over one set: per-page scores, empty count and seconds per page."""

    scores: list[Score]
    empty: int
    seconds: list[float]

    def macro(self) -> Score:
        """Page-macro averages of P, R and F1."""
        n = len(self.scores) or 1
        return Score(
            sum(s.p for s in self.scores) / n,
            sum(s.r for s in self.scores) / n,
            sum(s.f1 for s in self.scores) / n,
        )


def run_system(system: Callable[[Page], str], pages: list[Page]) -> Run:
    """Run ``system`` over ``pages`` and score each output."""
    scores, seconds, empty = [], [], 0
    for page in pages:
        start = time.perf_counter()
        pred = system(page)
        seconds.append(time.perf_counter() - start)
        empty += not pred.strip()
        scores.append(score(pred, page.gold))
    return Run(scores, empty, seconds)


def evaluate(
    set_name: str, root: Path, systems: dict[str, Callable[[Page], str]]
) -> tuple[list[Page], dict[str, Run]]:
    """Load one set and run every system over it."""
    pages = LOADERS[set_name](root)
    return pages, {name: run_system(fn, pages) for name, fn in systems.items()}


def _report(
    set_name: str, pages: list[Page], runs: dict[str, Run], per_page: bool
) -> Iterator[str]:
    yield f"== extract-{set_name}: {len(pages)} pages"
    yield f"{'system':<12} {'P':>6} {'R':>6} {'F1':>6} {'empty':>6} {'ms/page':>8}"
    for name, run in runs.items():
        m = run.macro()
        ms = 1000 * sum(run.seconds) / (len(run.seconds) or 1)
        yield f"{name:<12} {m.p:6.3f} {m.r:6.3f} {m.f1:6.3f} {run.empty:6d} {ms:8.1f}"
    if per_page:
        names = list(runs)
        yield "page".ljust(24) + "".join(f"{n:>12}" for n in names)
        for i, page in enumerate(pages):
            cells = "".join(f"{runs[n].scores[i].f1:12.3f}" for n in names)
            yield page.id[:24].ljust(24) + cells


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns 0, or 2 when the corpus is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus-root", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("--set", choices=sorted(LOADERS), action="append", dest="sets")
    parser.add_argument("--per-page", action="store_true")
    parser.add_argument("--ours-only", action="store_true", help="skip the trafilatura runs")
    args = parser.parse_args(argv)
    if not args.corpus_root.is_dir():
        print(f"corpus root not found: {args.corpus_root}", file=sys.stderr)
        return 2
    systems: dict[str, Callable[[Page], str]] = {"ours": ours} if args.ours_only else SYSTEMS
    for set_name in args.sets or list(LOADERS):
        pages, runs = evaluate(set_name, args.corpus_root, systems)
        for line in _report(set_name, pages, runs, args.per_page):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
