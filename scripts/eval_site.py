"""Whole-site extraction check: template leaking in and content kept, beside trafilatura.

Each site (a directory of HTML pages) is served on 127.0.0.1 and crawled by the real
crawler without Solr (documents to a JSON-lines file), three times in one run:

- ``learned``:  template learning on (the default), first pages re-extracted;
- ``no-reext``: learning on, raw-page store off (first pages keep the per-page text) —
  measures the choice made for the first pages of a new host;
- ``chain``:    learning off: the per-page chain alone;

and trafilatura (``include_tables=True, include_comments=False``) runs over the same
pages, decoded as the crawl decoded them. Metrics per site and system, over the pages
every system saw:

- ``rep%``: share of output characters in lines repeated across the host's pages:
  template leaking in;
- ``unique``: characters of the other lines kept: content kept.

Lines are the pages' own (the text lines of each whole page body, menus included,
compared after NFKC, lower-casing and with punctuation as spaces), not the outputs':
trafilatura writes a table as one line, which would hide the repeats inside it. A line
is repeated for a system when the system keeps it on two or more of the host's pages;
a system keeps it when it occurs in its output for the page, at word boundaries.

Done when, per site: learned rep% ≤ trafilatura's, learned unique ≥ 95 % of
trafilatura's and ≥ 99 % of chain's. Exit status 1 when a site misses one.

Sites: the bundled sample site and Debian's HTML manuals (``postgresql-doc-15``,
``python3.11-doc``, ``debian-reference-ja`` via ``debian-reference-common``,
``maint-guide-ja``; a site not installed is skipped). Each crawl stops after
``--max-pages`` (150) pages: a sample of the two big manuals (530 and 1169 pages), taken
in the crawler's breadth-first order, to save CPU; one connection per host keeps that
order, so every crawl of a run (and every run) samples the same pages (with four, the
three crawls' samples differed and their common pages, 121 or 149, changed the figures).

Usage: ``python scripts/eval_site.py [--site NAME]... [--max-pages N]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.server
import json
import re
import sys
import tempfile
import threading
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from indexer.crawl.frontier import Frontier  # noqa: E402
from indexer.encoding import decode_body  # noqa: E402
from indexer.extract.parse import body_of, parse_html, prune  # noqa: E402
from indexer.extract.tags import DROP_TAGS  # noqa: E402
from indexer.extract.text import node_text  # noqa: E402
from indexer.pipeline.crawler import Crawler, CrawlOptions  # noqa: E402
from indexer.settings import load_settings  # noqa: E402

DOC = Path("/usr/share/doc")


@dataclass(frozen=True)
class Site:
    """A site to crawl: its directory, the seed path and an include pattern (or "")."""

    name: str
    root: Path
    seed: str
    include: str = ""


SITES = {
    s.name: s
    for s in (
        Site("sample", REPO / "indexer" / "demo" / "sample_site", "index.html"),
        Site("postgresql-doc-15", DOC / "postgresql-doc-15" / "html", "index.html"),
        Site("python3.11-doc", DOC / "python3.11" / "html", "index.html"),
        Site(
            "debian-reference-ja",
            DOC / "debian-reference-common" / "docs",
            "index.ja.html",
            r"\.ja\.html$",
        ),
        Site("maint-guide-ja", DOC / "maint-guide-ja" / "html", "index.ja.html", r"\.ja\.html$"),
    )
}
SYSTEMS = ("learned", "no-reext", "chain", "trafilatura")
_NON_WORD = re.compile(r"[\W_]+")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@contextlib.contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port); yields the base URL; stops on exit."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def crawl(
    site: Site, base: str, data_dir: Path, max_pages: int, **values: object
) -> dict[str, str]:
    """Crawl ``site`` served at ``base``; return URL → main text (the last one sent)."""
    flags: dict[str, object] = {
        "crawl.seeds": (base + site.seed,),
        "crawl.data_dir": data_dir,
        "crawl.max_pages": max_pages,
        "crawl.sitemaps": False,
        "fetch.delay": 0.0,
        "fetch.per_host": 1,
        "extract.workers": 1,
        "extract.explain": False,
    }
    if site.include:
        flags["crawl.include"] = (site.include,)
    flags.update(values)
    settings = load_settings(None, flags, environ={}).settings
    out = data_dir / "out.jsonl"
    with Frontier(data_dir) as frontier:
        asyncio.run(Crawler(settings, frontier, CrawlOptions(out=out, use_solr=False)).run())
    texts: dict[str, str] = {}
    for line in out.read_text("utf-8").splitlines():
        doc = json.loads(line)
        texts[doc["url"]] = doc.get("text", "")
    return texts


def _file(site: Site, base: str, url: str) -> Path:
    path = site.root / unquote(urlsplit(url).path[len(urlsplit(base).path) :])
    return path / "index.html" if path.is_dir() else path


def trafilatura_texts(site: Site, base: str, urls: list[str]) -> dict[str, str]:
    """trafilatura on each page's file, decoded as the crawl decodes it; reader comments
    left out, as they are not main content (our chain drops them too)."""
    import trafilatura

    texts = {}
    for url in urls:
        decoded = decode_body(_file(site, base, url).read_bytes(), "text/html")
        text = trafilatura.extract(
            decoded.text, url=url, include_tables=True, include_comments=False
        )
        texts[url] = text or ""
    return texts


def page_lines(site: Site, base: str, urls: list[str]) -> dict[str, set[str]]:
    """URL → the normalised lines of the whole page body (menus and footers included):
    the units every system's output is measured in, whatever its own line breaks."""
    lines = {}
    for url in urls:
        decoded = decode_body(_file(site, base, url).read_bytes(), "text/html")
        body = body_of(parse_html(decoded.text))
        prune(body, DROP_TAGS)
        lines[url] = {key for key in map(_norm, node_text(body).split("\n")) if key}
    return lines


def _norm(text: str) -> str:
    """NFKC, lower case, every run of non-word characters one space."""
    return " ".join(_NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).lower()).split())


def _kept(text: str, keys: set[str]) -> set[str]:
    out = " " + " ".join(_norm(line) for line in text.split("\n")) + " "
    return {key for key in keys if f" {key} " in out}


def measure(
    outputs: dict[str, dict[str, str]], lines: dict[str, set[str]]
) -> dict[str, tuple[float, int]]:
    """System → (repeated share of kept characters, characters of unrepeated lines kept).

    A page line is kept by a system when it occurs in the system's output for the page
    (normalised, at word boundaries); it is repeated when the system keeps it on two or
    more of the host's pages.
    """
    result = {}
    for system, texts in outputs.items():
        kept = {url: _kept(texts[url], keys) for url, keys in lines.items()}
        on: defaultdict[str, int] = defaultdict(int)
        for keys in kept.values():
            for key in keys:
                on[key] += 1
        rep = uniq = 0
        for keys in kept.values():
            for key in keys:
                chars = len(key) - key.count(" ")
                if on[key] >= 2:
                    rep += chars
                else:
                    uniq += chars
        result[system] = (rep / (rep + uniq) if rep + uniq else 0.0, uniq)
    return result


def evaluate(site: Site, max_pages: int) -> tuple[int, dict[str, tuple[float, int]], float]:
    """Crawl and measure one site; returns (pages, metrics, seconds)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, serve(site.root) as base:
        outputs = {
            "learned": crawl(site, base, Path(tmp, "a"), max_pages),
            "no-reext": crawl(
                site, base, Path(tmp, "b"), max_pages, **{"extract.raw_store_bytes": 0}
            ),
            "chain": crawl(site, base, Path(tmp, "c"), max_pages, **{"extract.templates": False}),
        }
        urls = sorted(set.intersection(*(set(t) for t in outputs.values())))
        outputs["trafilatura"] = trafilatura_texts(site, base, urls)
        lines = page_lines(site, base, urls)
    return len(urls), measure(outputs, lines), time.monotonic() - start


def verdict(metrics: dict[str, tuple[float, int]]) -> list[str]:
    """The done-when conditions a site misses (empty: all hold)."""
    rep, uniq = metrics["learned"]
    misses = []
    if rep > metrics["trafilatura"][0]:
        misses.append("rep% above trafilatura's")
    if uniq < 0.95 * metrics["trafilatura"][1]:
        misses.append("unique < 95% of trafilatura's")
    if uniq < 0.99 * metrics["chain"][1]:
        misses.append("unique < 99% of chain's")
    return misses


def main(argv: list[str] | None = None) -> int:
    """Entry point: print a table per site; 1 when a site misses a condition."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--site", choices=sorted(SITES), action="append", dest="sites")
    parser.add_argument("--max-pages", type=int, default=150, help="pages crawled per site")
    args = parser.parse_args(argv)
    failed = False
    for name in args.sites or list(SITES):
        site = SITES[name]
        if not (site.root / site.seed).is_file():
            print(f"== {name}: not installed ({site.root}), skipped")
            continue
        pages, metrics, seconds = evaluate(site, args.max_pages)
        print(f"== {name}: {pages} pages ({seconds:.0f} s)")
        print(f"{'system':<12} {'rep%':>6} {'unique':>9}")
        for system in SYSTEMS:
            rep, uniq = metrics[system]
            print(f"{system:<12} {100 * rep:6.1f} {uniq:9d}")
        misses = verdict(metrics)
        failed = failed or bool(misses)
        print("done-when: " + ("holds" if not misses else "; ".join(misses)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
