"""Benchmark: our writer (durable outbox + index stage + JSON updates) against raw ingest.

Documents: crawl-sized, built by the crawl's own decode, extract and document steps from
the 300 pages of the throughput benchmark's site (``throughput_site.py``), each sent under
ids of its own. Raw ingest: JSON arrays of 1,000 documents posted straight to ``/update``
with no commit, then one final commit. Ours: every document written to the outbox, drained
by the index stage with the default settings (commitWithin, batches capped by count and
bytes, ``solr.updates_in_flight`` requests at once), one final hard commit. Same documents,
same core, same run, alternated ``--rounds`` times (raw, ours, raw, ours …, the core emptied
before each); prints each run's documents per second, Solr's JVM CPU seconds per 1,000
documents and this process's CPU-ms per 1,000 with the load, then the ratio of the best of
each (goal: at least 0.8). ``--factors`` runs ``solr_cost.py``'s table instead.

Starts its own Solr on a free port in a temporary home and stops it by pid.
Usage: python scripts/bench/index.py [--docs 20000] [--rounds 2] [--factors]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
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

    As in a crawl, documents enter the outbox while the index stage drains it, their
    writes committed in groups (of 100 here; the crawl's group commit: every 0.25 s or 128
    pages).
    """
    cfg = SolrSettings(url=base, core="pages")

    async def run() -> None:
        outbox = Outbox(workdir / "outbox.sqlite3")
        stage = IndexStage(outbox, SolrWriter(cfg), cfg, lambda i, m: None, lambda n: None)
        task = asyncio.create_task(stage.run())
        for start in range(0, len(docs), 100):
            outbox.connection.execute("BEGIN")  # the crawl commits its writes in groups
            for doc in docs[start : start + 100]:
                outbox.add(doc)
            outbox.connection.execute("COMMIT")
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


def _timed(
    jvm: Any, base: str, name: str, docs: list[dict[str, Any]], work: Path
) -> tuple[float, float, float]:
    """Empty the core, send ``docs`` raw or through ours (``name``); (docs/s, Solr CPU-s per
    1,000, our CPU-ms per 1,000)."""
    requests.post(
        f"{base}/pages/update", params={"commit": "true"}, json={"delete": {"query": "*:*"}}
    ).raise_for_status()
    cpu0, ours0 = sum(jvm.cpu_times()[:2]), time.process_time()
    seconds = raw_ingest(base, docs) if name == "raw" else ours(base, docs, work)
    solr_cpu, our_cpu = sum(jvm.cpu_times()[:2]) - cpu0, time.process_time() - ours0
    assert num_docs(base) == len(docs), "documents missing"
    per = 1000 / len(docs)
    return len(docs) / seconds, solr_cpu * per, our_cpu * 1000 * per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--factors", action="store_true", help="solr_cost.py's table instead")
    args = parser.parse_args()
    if args.factors:
        import solr_cost

        solr_cost.run(min(args.docs, 3000), args.rounds)
        return
    import throughput
    import throughput_solr

    print(f"load: {os.getloadavg()[0]:.2f}; documents: {args.docs}", flush=True)
    best = {"raw": 0.0, "ours": 0.0}
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        port = throughput._free_port()
        home = Path(tmp) / "solr"
        base = start_solr(port=port, solr_home=home, heap="1g")
        try:
            jvm = throughput_solr._solr_process(port)
            raw_ingest(base, make_docs(2000, "warmup"))  # JIT and caches
            for r in range(args.rounds):
                for name in ("raw", "ours"):
                    docs = make_docs(args.docs, f"{name}{r}")
                    work = Path(tmp) / f"{name}{r}"
                    work.mkdir()
                    rate, solr_cpu, our_cpu = _timed(jvm, base, name, docs, work)
                    best[name] = max(best[name], rate)
                    print(
                        f"  {name:<5} {rate:7.0f} docs/s  Solr {solr_cpu:5.2f} CPU-s/1k docs  "
                        f"ours {our_cpu:6.0f} CPU-ms/1k docs  load {os.getloadavg()[0]:.2f}",
                        flush=True,
                    )
        finally:
            stop_solr(port, home)
    print(f"raw ingest: {best['raw']:,.0f} docs/s (best of {args.rounds})")
    print(f"our writer: {best['ours']:,.0f} docs/s (best of {args.rounds})")
    print(f"ratio ours/raw: {best['ours'] / best['raw']:.2f} (goal >= 0.8)")


if __name__ == "__main__":
    main()
