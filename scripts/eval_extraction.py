"""Score main-content extraction on the extract-ja / -en / -readability corpora.

Metric (corpus READMEs): character-bigram precision/recall/F1 after NFKC with white space,
punctuation, symbols, separators and control characters removed; page-macro average;
an empty prediction scores 0. Systems, same pages, same process:

- search, precision: ``indexer.encoding.decode_body`` on the bytes, then
  ``indexer.extract.extract(..., profile=...)``; while ``extract`` has no ``profile`` keyword
  both rows are its one default run (said in the output)
- traf-bytes:   ``trafilatura.extract(bytes, include_tables=True)``
- traf-text:    ``trafilatura.extract(text decoded with the true codec, include_tables=True)``
- blog-body, dom-score, extract-content: the seed extractors of ``scripts/extract_baselines.py``
  on the text decoded with the true codec

Each page carries a kind (``scripts/extract_kinds.tsv``); the report (``extract_report.py``)
gives F1 per set and per kind, the worst pages, median CPU time per page and the issue's
Done-when checks, as a table or as JSON (``--json FILE``). ``--gate`` runs our two profiles
only and checks the F1 floors of ``extract_gate.py`` (exit 1 when one is missed).

Pages are extracted one at a time, without template learning (each set's pages come from
many sites, a handful each).

Usage: ``python scripts/eval_extraction.py [--corpus-root DIR] [--set ja|en|readability]
[--per-page] [--ours-only] [--json FILE] [--gate]``
"""

from __future__ import annotations

import argparse
import csv
import gzip
import inspect
import json
import statistics
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus"
KINDS_FILE = SCRIPTS / "extract_kinds.tsv"
PROFILES = ("search", "precision")
if str(SCRIPTS) not in sys.path:  # the sibling modules, also when loaded by file path
    sys.path.insert(0, str(SCRIPTS))


@dataclass(frozen=True)
class Page:
    """One evaluation page: raw bytes, gold text and the codec the gold was made with."""

    id: str
    body: bytes
    gold: str
    codec: str
    url: str
    kind: str = "unlabelled"


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


def load_kinds(path: Path = KINDS_FILE) -> dict[tuple[str, str], str]:
    """``(set, page id) -> kind`` from the hand-labelled TSV (``#`` lines are comments)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(
            (line for line in handle if not line.startswith("#")),
            delimiter="\t",
            quoting=csv.QUOTE_NONE,
        )
        return {(row["set"], row["page"]): row["kind"] for row in rows}


def load_set(set_name: str, root: Path) -> list[Page]:
    """The pages of one set with their kinds ("unlabelled" when the TSV lacks a page)."""
    kinds = load_kinds()
    return [
        replace(page, kind=kinds.get((set_name, page.id), "unlabelled"))
        for page in LOADERS[set_name](root)
    ]


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


def has_profile() -> bool:
    """Whether ``indexer.extract.extract`` takes the ``profile`` keyword (issue #18)."""
    from indexer.extract import extract

    return "profile" in inspect.signature(extract).parameters


def ours_with(profile: str) -> Callable[[Page], str]:
    """Our pipeline with ``extract(..., profile=profile)``; needs :func:`has_profile`."""

    def run(page: Page) -> str:
        from indexer.encoding import decode_body
        from indexer.errors import IndexerError
        from indexer.extract import extract

        try:
            decoded = decode_body(page.body, None)
            keyword = {"profile": profile}  # a keyword older extract() lacks: see has_profile
            return extract(decoded.text, page.url, encoding=decoded.encoding, **keyword).text
        except IndexerError:
            return ""

    run.__name__ = f"ours_{profile}"
    return run


def our_systems() -> dict[str, Callable[[Page], str]]:
    """One system per profile; the same function (one run) for both without the keyword."""
    if has_profile():
        return {profile: ours_with(profile) for profile in PROFILES}
    return dict.fromkeys(PROFILES, ours)


def traf_bytes(page: Page) -> str:
    """trafilatura left to detect the charset itself."""
    import trafilatura

    return trafilatura.extract(page.body, url=page.url, include_tables=True) or ""


def traf_text(page: Page) -> str:
    """trafilatura on text decoded with the true codec."""
    import trafilatura

    text = page.body.decode(page.codec, "replace")
    return trafilatura.extract(text, url=page.url, include_tables=True) or ""


def _seed(name: str) -> Callable[[Page], str]:
    """The seed extractor ``extract_baselines.<name>`` on the text decoded with the true codec."""

    def run(page: Page) -> str:
        import extract_baselines

        extractor: Callable[[str], str] = getattr(extract_baselines, name)
        return extractor(page.body.decode(page.codec, "replace"))

    run.__name__ = name
    return run


SYSTEMS: dict[str, Callable[[Page], str]] = {
    "ours": ours,
    "traf-bytes": traf_bytes,
    "traf-text": traf_text,
}
BASELINES: dict[str, Callable[[Page], str]] = {
    "traf-bytes": traf_bytes,
    "traf-text": traf_text,
    "blog-body": _seed("blog_body"),
    "dom-score": _seed("dom_score"),
    "extract-content": _seed("extract_content"),
}


@dataclass(frozen=True)
class Run:
    """One system over one set: per-page scores, empty count, seconds and empty flags per page."""

    scores: list[Score]
    empty: int
    seconds: list[float]
    empty_pages: list[bool] = field(default_factory=list)

    def median_ms(self) -> float:
        """Median CPU milliseconds per page."""
        return 1000 * statistics.median(self.seconds) if self.seconds else 0.0

    def macro(self) -> Score:
        """Page-macro averages of P, R and F1."""
        n = len(self.scores) or 1
        return Score(
            sum(s.p for s in self.scores) / n,
            sum(s.r for s in self.scores) / n,
            sum(s.f1 for s in self.scores) / n,
        )


def _timed(system: Callable[[Page], str], page: Page) -> tuple[str, float]:
    """Output and CPU seconds of one call (``time.process_time``: the load of the machine's
    other processes stays out, unlike wall time on a shared machine)."""
    start = time.process_time()
    pred = system(page)
    return pred, time.process_time() - start


def _run(outputs: list[tuple[str, float]], pages: list[Page]) -> Run:
    empties = [not pred.strip() for pred, _ in outputs]
    scores = [score(pred, page.gold) for (pred, _), page in zip(outputs, pages, strict=True)]
    return Run(scores, sum(empties), [sec for _, sec in outputs], empties)


def run_system(system: Callable[[Page], str], pages: list[Page]) -> Run:
    """Run ``system`` over ``pages`` and score each output."""
    return _run([_timed(system, page) for page in pages], pages)


def evaluate(
    set_name: str, root: Path, systems: dict[str, Callable[[Page], str]]
) -> tuple[list[Page], dict[str, Run]]:
    """Load one set (with kinds) and run every system over it, interleaved page by page.

    Each page goes through every system before the next page, so a change in the machine's
    load falls on all systems alike (the time ratios compare like with like). Names bound
    to the same function share one run (the profiles before the keyword exists).
    """
    pages = load_set(set_name, root)
    distinct = {id(fn): fn for fn in systems.values()}
    outputs: dict[int, list[tuple[str, float]]] = {key: [] for key in distinct}
    for page in pages:
        for key, fn in distinct.items():
            outputs[key].append(_timed(fn, page))
    runs = {key: _run(out, pages) for key, out in outputs.items()}
    return pages, {name: runs[id(fn)] for name, fn in systems.items()}


def run_gate(
    root: Path,
    systems: dict[str, Callable[[Page], str]] | None = None,
    sets: list[str] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Run ``systems`` (default: our two profiles) over ``sets`` and check the F1 floors.

    Returns the report (``{set: set_report}``) and the gate's failure lines ([] = passed).
    ``systems`` must name ``search`` and ``precision``: tests inject broken extractors here.
    """
    import extract_gate
    import extract_report

    report = {}
    for set_name in sets or list(LOADERS):
        pages, runs = evaluate(set_name, root, systems or our_systems())
        report[set_name] = extract_report.set_report(set_name, pages, runs)
    return report, extract_gate.check(report)


def _per_page(pages: list[Page], runs: dict[str, Run]) -> Iterator[str]:
    names = list(runs)
    yield "page".ljust(26) + "kind".ljust(15) + "".join(f"{n[:11]:>12}" for n in names)
    for i, page in enumerate(pages):
        cells = "".join(f"{runs[n].scores[i].f1:12.3f}" for n in names)
        yield page.id[:25].ljust(26) + page.kind.ljust(15) + cells


def _systems(args: argparse.Namespace) -> dict[str, Callable[[Page], str]]:
    systems = our_systems()
    if not (args.ours_only or args.gate):
        systems.update(BASELINES)
    return systems


def main(argv: list[str] | None = None) -> int:
    """Entry point; 0, 1 when ``--gate`` finds a floor missed, 2 when the corpus is missing."""
    import extract_gate
    import extract_report

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus-root", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("--set", choices=sorted(LOADERS), action="append", dest="sets")
    parser.add_argument("--per-page", action="store_true")
    parser.add_argument("--ours-only", action="store_true", help="skip the baselines")
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--gate", action="store_true", help="check the F1 floors (ours only)")
    args = parser.parse_args(argv)
    if not args.corpus_root.is_dir():
        print(f"corpus root not found: {args.corpus_root}", file=sys.stderr)
        return 2
    if not has_profile():
        print("note: indexer.extract.extract has no profile keyword yet: search and precision")
        print("      are its one default run")
    report: dict[str, Any] = {}
    for set_name in args.sets or list(LOADERS):
        pages, runs = evaluate(set_name, args.corpus_root, _systems(args))
        report[set_name] = extract_report.set_report(set_name, pages, runs)
        for line in extract_report.render(set_name, report[set_name]):
            print(line)
        if args.per_page:
            for line in _per_page(pages, runs):
                print(line)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.gate:
        floors = {k: v for k, v in extract_gate.FLOORS.items() if not args.sets or k in args.sets}
        failures = extract_gate.check(report, floors)
        for line in failures or ["extraction gate: every floor holds"]:
            print(line)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
