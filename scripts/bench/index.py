"""Benchmark: our writer (durable outbox + index stage + JSON updates) against raw ingest.

Documents: crawl-sized, built by the crawl's own decode, extract and document steps from
the 300 pages of the throughput benchmark's site (``throughput_site.py``), each sent under
ids of its own. Raw ingest: JSON arrays of 1,000 documents posted straight to ``/update``
with no commit, then one final commit. Ours: every document written to the outbox, drained
by the index stage with the default settings (commitWithin, batches capped by count and
bytes), one final hard commit. Same documents, same core, same run; prints documents per second for
both and the ratio (goal: at least 0.8).

Starts its own Solr on a free port in a temporary home and stops it by pid.
Usage: python scripts/bench/index.py [--docs 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from indexer.index.document import build_document
from indexer.index.outbox import Outbox
from indexer.index.stage import IndexStage
from indexer.index.writer import SolrWriter
from indexer.models import FetchResult
from indexer.pipeline.page import process_page
from indexer.settings import SolrSettings
from indexer.solr.launcher import start_solr, stop_solr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import throughput_site  # noqa: E402  (the pages of the throughput benchmark's site)

TEMPLATES = 300


@functools.cache
def _crawled() -> list[dict[str, Any]]:
    """The Solr documents the crawl builds for the throughput site's pages (8-29 KB of
    Japanese HTML, UTF-8 and Shift_JIS): decoded, extracted and built as in a crawl."""
    docs = []
    for i in range(TEMPLATES):
        body, ctype = throughput_site.page(i, 0, 30, TEMPLATES, 8000)
        url = f"http://127.0.0.1:8000/p/{i}.html"
        fetched = FetchResult(url, url, 200, {"content-type": ctype}, body, "2026-11-29T00:00:00Z")
        page = process_page(body, ctype, url, (), 1000)
        assert page.extracted is not None, page.error
        docs.append(build_document(fetched, page.decoded, page.extracted, run=1, digest=str(i)))
    return docs


def make_docs(count: int, prefix: str) -> list[dict[str, Any]]:
    """``count`` crawl-sized documents (:func:`_crawled`, each under an id of its own)."""
    out = []
    for i in range(count):
        doc = dict(_crawled()[i % TEMPLATES])
        doc["id"] = doc["url"] = f"http://bench.test/{prefix}/{i}"
        out.append(doc)
    return out


def raw_ingest(base: str, docs: list[dict[str, Any]]) -> float:
    """Seconds to post ``docs`` in arrays of 1,000 and commit once."""
    start = time.perf_counter()
    with requests.Session() as session:
        for i in range(0, len(docs), 1000):
            body = json.dumps(docs[i : i + 1000], ensure_ascii=False).encode("utf-8")
            resp = session.post(
                f"{base}/pages/update",
                data=body,
                timeout=300,
                headers={"Content-Type": "application/json"},
            )
            resp.raise_for_status()
        session.get(f"{base}/pages/update", params={"commit": "true"}, timeout=300)
    return time.perf_counter() - start


def ours(base: str, docs: list[dict[str, Any]], workdir: Path) -> float:
    """Seconds to write ``docs`` through the outbox and drain it into Solr.

    As in a crawl, documents enter the outbox while the index stage drains it.
    """
    cfg = SolrSettings(url=base, core="pages")

    async def run() -> None:
        outbox = Outbox(workdir / "outbox.sqlite3")
        stage = IndexStage(outbox, SolrWriter(cfg), cfg, lambda i, m: None, lambda n: None)
        task = asyncio.create_task(stage.run())
        for start in range(0, len(docs), 100):
            for doc in docs[start : start + 100]:
                outbox.add(doc)
            stage.notify()
            await asyncio.sleep(0)
        stage.close()
        await task
        outbox.close()

    start = time.perf_counter()
    asyncio.run(run())
    return time.perf_counter() - start


def num_docs(base: str) -> int:
    resp = requests.get(f"{base}/pages/select", params={"q": "*:*", "rows": 0}, timeout=30)
    return int(resp.json()["response"]["numFound"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20000)
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        home = Path(tmp) / "solr"
        base = start_solr(port=port, solr_home=home, heap="1g")
        try:
            raw_ingest(base, make_docs(2000, "warmup"))  # JIT and caches
            raw_s = raw_ingest(base, make_docs(args.docs, "raw"))
            ours_s = ours(base, make_docs(args.docs, "ours"), Path(tmp))
            raw_s2 = raw_ingest(base, make_docs(args.docs, "raw2"))
            assert num_docs(base) == 2000 + 3 * args.docs, "documents missing"
        finally:
            stop_solr(port, home)
    raw_best = min(raw_s, raw_s2)
    print(f"documents: {args.docs}")
    print(f"raw ingest: {args.docs / raw_best:,.0f} docs/s (best of {raw_s:.2f} s, {raw_s2:.2f} s)")
    print(f"our writer: {args.docs / ours_s:,.0f} docs/s ({ours_s:.2f} s)")
    print(f"ratio ours/raw: {raw_best / ours_s:.2f} (goal >= 0.8)")


if __name__ == "__main__":
    main()
