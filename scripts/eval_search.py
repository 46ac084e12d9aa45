"""Search quality of the bundled configset and ``/search`` on the extract-ja pages.

The pages of ``../shared/corpus/extract-ja/`` are indexed into a real local Solr twice:

- gold:  each page's gold text sent directly (title = its first line, content = the whole
         text): what the configset and the handler alone achieve;
- crawl: the page files served by a local web server on 127.0.0.1 and crawled with
         ``indexer crawl --ignore-noindex`` (configset plus decoding and extraction; the
         listing page that links them is deleted afterwards).

The query set ``scripts/search_queries.tsv`` (columns id, class, query, target, source) is
run over both, through :func:`indexer.solr.search.search` (the product's query path), and
beside a Kuromoji-only baseline: the same path with ``qf=content``. Known-item classes have
one target page and score recall@10 and MRR@10; class ``relevant_set`` lists its relevant
pages (``a|b|c``) and scores P@5 with denominator min(5, number of relevant pages).

With ``--stock-baseline`` a further column, for information: the gold texts in a core whose
``text_ja`` is Solr's stock Japanese type (the ``_default`` configset's: Kuromoji, base
form, part-of-speech and stop words, CJK width, katakana stem; no normalization, mapping or
synonyms of ours), asked with ``qf=content`` through the same query path. The ``baseline``
columns stay the measure of the issue (our ``text_ja``, ``qf=content``), which shares every
improvement of the configset's Japanese field and of the query path.

Usage: ``python scripts/eval_search.py [--corpus-root DIR] [--queries TSV] [--no-crawl]
[--misses] [--stock-baseline]``
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from indexer.settings import SolrSettings  # noqa: E402
from indexer.solr.search import search  # noqa: E402

DEFAULT_ROOT = REPO.parent / "shared" / "corpus"
DEFAULT_QUERIES = REPO / "scripts" / "search_queries.tsv"
RELEVANT = "relevant_set"
BASELINE = {"qf": "content"}
# Ranking only: highlighting and facets off make the run faster and change no order.
RANKING_ONLY = {"hl": "false", "facet": "false"}
Ask = Callable[[str], list[str]]
# Solr 9's _default configset, fieldType text_ja (one analyzer for index and query).
STOCK_TEXT_JA = """<fieldType name="text_ja" class="solr.TextField" positionIncrementGap="100"
             autoGeneratePhraseQueries="false">
    <analyzer>
      <tokenizer name="japanese" mode="search"/>
      <filter name="japaneseBaseForm"/>
      <filter name="japanesePartOfSpeechStop" tags="lang/stoptags_ja.txt"/>
      <filter name="cjkWidth"/>
      <filter name="stop" ignoreCase="true" words="lang/stopwords_ja.txt"/>
      <filter name="japaneseKatakanaStem" minimumLength="4"/>
      <filter name="lowercase"/>
    </analyzer>
  </fieldType>"""


@dataclass(frozen=True)
class Query:
    """One row of the query set: ``targets`` holds one page id (known item) or several."""

    id: str
    cls: str
    text: str
    targets: tuple[str, ...]
    source: str


@dataclass
class ClassScore:
    """Sums over the queries of one class; :meth:`row` gives the means."""

    n: int = 0
    hits: float = 0.0
    rr: float = 0.0
    p5: float = 0.0

    def add(self, ranked: list[str], query: Query) -> None:
        """Score the ranked page ids of one query."""
        self.n += 1
        if query.cls == RELEVANT:
            relevant = set(query.targets)
            top = ranked[:5]
            self.p5 += sum(1 for page in top if page in relevant) / min(5, len(relevant))
            return
        target = query.targets[0]
        if target in ranked[:10]:
            self.hits += 1
            self.rr += 1 / (ranked.index(target) + 1)

    def row(self) -> tuple[float, float, float]:
        """(recall@10, MRR@10, P@5), each a mean over the class."""
        n = max(self.n, 1)
        return self.hits / n, self.rr / n, self.p5 / n


def load_queries(path: Path = DEFAULT_QUERIES) -> list[Query]:
    """The query set (tab-separated, no quoting, header row)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [
            Query(r["id"], r["class"], r["query"], tuple(r["target"].split("|")), r["source"])
            for r in rows
        ]


def gold_documents(root: Path = DEFAULT_ROOT) -> list[dict[str, str]]:
    """One Solr document per extract-ja page from its gold text (id = page id)."""
    docs = []
    for path in sorted((root / "extract-ja" / "gold").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        title = text.split("\n", 1)[0].strip()
        docs.append({"id": path.stem, "url": f"gold:{path.stem}", "title": title, "content": text})
    return docs


def evaluate(queries: Iterable[Query], ask: Ask) -> dict[str, ClassScore]:
    """Scores per class and ``overall`` (known-item classes only) for one way of asking."""
    scores: dict[str, ClassScore] = defaultdict(ClassScore)
    queries = list(queries)
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(ask, [q.text for q in queries]))
    for query, ranked in zip(queries, answers, strict=True):
        scores[query.cls].add(ranked, query)
        if query.cls != RELEVANT:
            scores["overall"].add(ranked, query)
    return dict(scores)


def misses(queries: Iterable[Query], ask: Ask) -> list[str]:
    """One line per known item not ranked first and per imperfect P@5 query."""
    lines = []
    for query in queries:
        ranked = ask(query.text)
        if query.cls == RELEVANT:
            wrong = [p for p in ranked[: min(5, len(query.targets))] if p not in query.targets]
            if wrong:
                lines.append(f"{query.id}\t{query.text}\tnot relevant in top min(5, n): {wrong}")
        elif not ranked or ranked[0] != query.targets[0]:
            where = ranked.index(query.targets[0]) + 1 if query.targets[0] in ranked else "-"
            lines.append(f"{query.id}\t{query.text}\trank {where}\ttop {ranked[:3]}")
    return lines


def asker(cfg: SolrSettings, page_of: Callable[[str], str], baseline: bool) -> Ask:
    """Ranked page ids (top 10) for a query through the product's query path."""

    def ask(text: str) -> list[str]:
        extra = {**RANKING_ONLY, **(BASELINE if baseline else {})}
        result = search(cfg, text, rows=10, extra=extra)
        return [page_of(hit["id"]) for hit in result["hits"]]

    return ask


def index_documents(base: str, core: str, docs: list[dict[str, str]]) -> None:
    """Send ``docs`` to ``core`` and commit."""
    resp = requests.post(f"{base}/{core}/update", params={"commit": "true"}, json=docs, timeout=120)
    resp.raise_for_status()


def create_core(base: str, core: str, configset: str = "pages") -> None:
    """A further core from a configset of the Solr home (Cores API CREATE)."""
    resp = requests.get(
        f"{base}/admin/cores",
        params={"action": "CREATE", "name": core, "configSet": configset},
        timeout=120,
    )
    resp.raise_for_status()


def write_stock_configset(solr_home: Path) -> str:
    """Configset ``stock`` beside ``pages``: ours with :data:`STOCK_TEXT_JA` for ``text_ja``."""
    conf = solr_home / "configsets" / "stock" / "conf"
    shutil.copytree(solr_home / "configsets" / "pages" / "conf", conf)
    schema = conf / "schema.xml"
    text = schema.read_text(encoding="utf-8")
    start = text.index('<fieldType name="text_ja"')
    end = text.index("</fieldType>", start) + len("</fieldType>")
    schema.write_text(text[:start] + STOCK_TEXT_JA + text[end:], encoding="utf-8")
    return "stock"


def crawl_pages(base: str, core: str, root: Path, work: Path) -> None:
    """Serve copies of the pages on 127.0.0.1 and crawl them into ``core``."""
    from tests.webhost import serve_folder

    site = work / "site"
    site.mkdir()
    names = []
    for page in sorted((root / "extract-ja" / "pages").glob("*.html")):
        (site / page.name).write_bytes(page.read_bytes())
        names.append(page.name)
    links = "".join(f'<a href="{name}">{name}</a>\n' for name in names)
    (site / "index.html").write_text(
        '<html><head><meta name="robots" content="noindex,follow"></head>'
        f"<body>{links}</body></html>",
        encoding="utf-8",
    )
    with serve_folder(site) as url:
        cmd = [sys.executable, "-m", "indexer", "crawl", f"{url}/index.html", "--solr", base]
        cmd += ["--core", core, "--data-dir", str(work / "state"), "--delay", "0", "-q"]
        # The three Apache 1.3 pages say NOINDEX; their queries measure extraction here.
        cmd += ["--ignore-noindex"]
        subprocess.run(cmd, check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    requests.post(
        f"{base}/{core}/update",
        params={"commit": "true"},
        json={"delete": {"id": f"{url}/index.html"}},
        timeout=120,
    ).raise_for_status()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def crawled_page_id(doc_id: str) -> str:
    """``http://127.0.0.1:PORT/asahi.html`` → ``asahi``."""
    return doc_id.rsplit("/", 1)[-1].removesuffix(".html")


def report(title: str, runs: dict[str, dict[str, ClassScore]]) -> None:
    """Print one table: a row per class, recall@10 / MRR@10 (P@5 for relevant_set) per run."""
    names = list(runs)
    print(f"\n{title}")
    print(f"{'class':<18}{'n':>4}  " + "  ".join(f"{n:>17}" for n in names))
    classes = sorted({c for scores in runs.values() for c in scores} - {"overall", RELEVANT})
    for cls in [*classes, "overall", RELEVANT]:
        first = runs[names[0]].get(cls)
        if first is None:
            continue
        cells = []
        for name in names:
            r, m, p = runs[name].get(cls, ClassScore()).row()
            cells.append(f"P@5 {p:.3f}".rjust(17) if cls == RELEVANT else f"{r:.3f} / {m:.3f}")
        print(f"{cls:<18}{first.n:>4}  " + "  ".join(f"{c:>17}" for c in cells))


def main(argv: list[str] | None = None) -> int:
    """Index, query, print the tables; exit 0."""
    from indexer.solr.launcher import start_solr, stop_solr

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus-root", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--port", type=int, default=0, help="Solr port (default: a free one)")
    parser.add_argument("--no-crawl", action="store_true", help="gold-text run only")
    parser.add_argument("--misses", action="store_true", help="list misses of /search (gold)")
    parser.add_argument(
        "--stock-baseline", action="store_true", help="add Solr's stock text_ja (information)"
    )
    args = parser.parse_args(argv)
    queries = load_queries(args.queries)
    args.port = args.port or _free_port()
    with tempfile.TemporaryDirectory(prefix="eval-search-") as tmp:
        work = Path(tmp)
        base = start_solr(port=args.port, solr_home=work / "solr", core="gold")
        try:
            _run(base, queries, args, work)
        finally:
            stop_solr(args.port, work / "solr")
    return 0


def _run(base: str, queries: list[Query], args: argparse.Namespace, work: Path) -> None:
    index_documents(base, "gold", gold_documents(args.corpus_root))
    gold = SolrSettings(url=base, core="gold")
    runs = {
        "/search gold": evaluate(queries, asker(gold, str, False)),
        "baseline gold": evaluate(queries, asker(gold, str, True)),
    }
    if args.stock_baseline:
        create_core(base, "stock", write_stock_configset(work / "solr"))
        index_documents(base, "stock", gold_documents(args.corpus_root))
        stock = SolrSettings(url=base, core="stock")
        runs["stock-ja gold"] = evaluate(queries, asker(stock, str, True))
    if not args.no_crawl:
        create_core(base, "crawl")
        crawl_pages(base, "crawl", args.corpus_root, work)
        crawl = SolrSettings(url=base, core="crawl")
        runs["/search crawl"] = evaluate(queries, asker(crawl, crawled_page_id, False))
        runs["baseline crawl"] = evaluate(queries, asker(crawl, crawled_page_id, True))
    by_source: dict[str, list[Query]] = defaultdict(list)
    for query in queries:
        by_source[query.source].append(query)
    report("recall@10 / MRR@10 per class (P@5 for relevant_set); all queries", runs)
    if len(by_source) > 1:
        for source, subset in sorted(by_source.items()):
            ask = asker(gold, str, False)
            report(f"source={source}, /search gold", {"/search gold": evaluate(subset, ask)})
    if args.misses:
        print("\nmisses of /search (gold):")
        print("\n".join(misses(queries, asker(gold, str, False))))
        if not args.no_crawl:
            print("\nmisses of /search (crawl):")
            print("\n".join(misses(queries, asker(crawl, crawled_page_id, False))))


if __name__ == "__main__":
    sys.exit(main())
