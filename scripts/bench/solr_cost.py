"""Benchmark (issue #16): where Solr's and our cost goes for crawl-sized documents.

Each row posts ``--docs`` fresh documents (``index.py``'s crawl-sized ones: the crawl's own
decode, extract and document steps over the throughput site's pages) into an emptied core
and ends with one hard commit, as a crawl does. One factor differs from the baseline row
(batches of ``solr.batch_size`` = 200, ``commitWithin`` 10 s, one update request in flight,
``json.dumps``, core ``pages`` of our configset):

- batch size 50 / 1,000 documents;
- ``commitWithin`` 1 s / 60 s / none (autoCommit only; the final hard commit makes them
  visible);
- two update requests in flight;
- the configset without its copy fields (no ``title_bigram``/``content_bigram``), with
  ``content_bigram`` not stored, and with the bigram type's four ``patternReplace`` char
  filters (the katakana folds) left out: measures only (each changes search results or
  highlighting); and with the long-vowel folds as the three ``patternReplace`` char filters
  they were before issue #16 (``mapping-kana-long.txt`` now: the same tokens);
- a gzip-compressed body (``Content-Encoding: gzip``): whether Solr takes it.

Per row: documents per second (wall), Solr's JVM CPU seconds per 1,000 documents (user +
system of the JVM over the row, final commit included) and this process's CPU-ms per 1,000
(encoding and HTTP). Then our side alone: CPU-ms per 1,000 documents to encode with
``json.dumps``, ``orjson.dumps`` and to splice the outbox's stored JSON text, and to parse
it back (``json.loads``). ``--rounds 2`` runs the rows again in reverse order (the machine
is shared: A B … B A) and prints each row's mean. The load (``uptime``) is printed first.

Starts its own Solr (1 GiB heap) on a free port in a temporary home, stops it by pid.
Usage: python scripts/bench/solr_cost.py [--docs 3000] [--rounds 1] [--only commitWithin]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import psutil
import requests

from indexer.solr.launcher import start_solr, stop_solr

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import index  # noqa: E402  (the crawl-sized documents)
import throughput  # noqa: E402  (its free port)
import throughput_solr  # noqa: E402  (the Solr JVM's process)


@dataclass(frozen=True)
class Row:
    """One factor: ``core``, documents per request, ``commitWithin`` (ms, None: not sent),
    requests in flight, gzip body."""

    name: str
    core: str = "pages"
    batch: int = 200
    commit_within: int | None = 10_000
    in_flight: int = 1
    gzip: bool = False


ROWS = (
    Row("baseline (200 docs, commitWithin 10 s, 1 in flight)"),
    Row("batch 50", batch=50),
    Row("batch 1000", batch=1000),
    Row("commitWithin 1 s", commit_within=1000),
    Row("commitWithin 60 s", commit_within=60_000),
    Row("no commitWithin", commit_within=None),
    Row("2 requests in flight", in_flight=2),
    Row("no copy fields (measure only)", core="nocopy"),
    Row("content_bigram not stored (measure only)", core="nostore"),
    Row("bigram without patternReplace (measure only)", core="nopattern"),
    Row("long-vowel folds as 3 patternReplace (before)", core="patterns"),
    Row("gzip body", gzip=True),
)


def _variant(src: Path, dest: Path, edit: Callable[[str], str]) -> None:
    """Copy the configset ``src`` to ``dest/conf`` with ``edit`` applied to schema.xml."""
    conf = dest / "conf"
    shutil.copytree(src, conf)
    schema = conf / "schema.xml"
    schema.write_text(edit(schema.read_text(encoding="utf-8")), encoding="utf-8")


def _no_copies(schema: str) -> str:
    return "\n".join(line for line in schema.splitlines() if "<copyField" not in line)


def _bigram_unstored(schema: str) -> str:
    old = '<field name="content_bigram" type="text_bigram" indexed="true" stored="true"/>'
    assert old in schema, "schema.xml changed: update the variant"
    return schema.replace(old, old.replace('stored="true"', 'stored="false"'))


#: The bigram type's long-vowel folds before issue #16 (three patternReplace char filters).
PATTERNS = """<charFilter name="patternReplace" pattern="(?&lt;=[エケセテネヘメレゲゼデベペェ])ー"
                  replacement="イ"/>
      <charFilter name="patternReplace" pattern="(?&lt;=[オコソトノホモヨロゴゾドボポォョ])ー"
                  replacement="ウ"/>
      <charFilter name="patternReplace" pattern="ー+" replacement=""/>"""


def _long_vowel_patterns(schema: str) -> str:
    line = '<charFilter name="mapping" mapping="mapping-kana-long.txt"/>'
    assert schema.count(line) == 2, "schema.xml changed: update the variant"
    return schema.replace(line, PATTERNS)


def _no_patterns(schema: str) -> str:
    return "\n".join(
        line
        for line in schema.splitlines()
        if "patternReplace" not in line and not line.strip().startswith('replacement="')
    )


def add_cores(base: str, home: Path) -> None:
    """Create the cores ``nocopy``, ``nostore``, ``nopattern`` and ``patterns`` from edited
    copies of our configset."""
    src = ROOT / "solr-config"
    edits = (
        ("nocopy", _no_copies),
        ("nostore", _bigram_unstored),
        ("nopattern", _no_patterns),
        ("patterns", _long_vowel_patterns),
    )
    for name, edit in edits:
        _variant(src, home / "configsets" / name, edit)
        params = {"action": "CREATE", "name": name, "configSet": name}
        requests.get(f"{base}/admin/cores", params=params, timeout=120).raise_for_status()


def _post(session: requests.Session, url: str, row: Row, docs: list[dict[str, Any]]) -> int:
    body = json.dumps(docs, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if row.gzip:
        body, headers["Content-Encoding"] = gzip.compress(body, 1), "gzip"
    params = {} if row.commit_within is None else {"commitWithin": str(row.commit_within)}
    return session.post(url, params=params, data=body, headers=headers, timeout=300).status_code


def measure(base: str, jvm: psutil.Process, row: Row, docs: list[dict[str, Any]]) -> tuple:
    """Post ``docs`` as ``row`` says; (docs/s, Solr CPU-s per 1,000, our CPU-ms per 1,000,
    HTTP statuses other than 200)."""
    url = f"{base}/{row.core}/update"
    requests.post(url, params={"commit": "true"}, json={"delete": {"query": "*:*"}}, timeout=120)
    batches = [docs[i : i + row.batch] for i in range(0, len(docs), row.batch)]
    cpu0, ours0, start = sum(jvm.cpu_times()[:2]), time.process_time(), time.perf_counter()
    with requests.Session() as session, ThreadPoolExecutor(row.in_flight) as pool:
        statuses = list(pool.map(lambda b: _post(session, url, row, b), batches))
        session.post(url, params={"commit": "true"}, json={}, timeout=300).raise_for_status()
    seconds = time.perf_counter() - start
    solr_cpu = sum(jvm.cpu_times()[:2]) - cpu0
    ours = time.process_time() - ours0
    bad = sorted({s for s in statuses if s != 200})
    per = 1000 / len(docs)
    return len(docs) / seconds, solr_cpu * per, ours * 1000 * per, bad


def encoding_costs(docs: list[dict[str, Any]]) -> dict[str, float]:
    """Our CPU-ms per 1,000 documents for each way of making (or reading) the body."""
    stored = [json.dumps(d, ensure_ascii=False) for d in docs]
    ways: dict[str, Callable[[], object]] = {
        "json.dumps (today)": lambda: json.dumps(docs, ensure_ascii=False).encode("utf-8"),
        "orjson.dumps": lambda: orjson.dumps(docs),
        "splice stored JSON": lambda: ("[" + ",".join(stored) + "]").encode("utf-8"),
        "json.loads of stored JSON": lambda: [json.loads(s) for s in stored],
    }
    out = {}
    for name, way in ways.items():
        start = time.process_time()
        way()
        out[name] = (time.process_time() - start) * 1000 * 1000 / len(docs)
    return out


def run(docs_n: int, rounds: int, only: str = "") -> None:
    """Start Solr, measure every row (whose name holds one of ``only``'s comma-separated
    parts) ``rounds`` times, alternate rounds reversed; print the table."""
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}", flush=True)
    rows = tuple(r for r in ROWS if any(part in r.name for part in only.split(",")))
    results: dict[str, list[tuple]] = {r.name: [] for r in rows}
    port = throughput._free_port()
    with tempfile.TemporaryDirectory(prefix="bench-solr-cost-") as tmp:
        home = Path(tmp) / "solr"
        base = start_solr(port=port, solr_home=home, heap="1g")
        try:
            add_cores(base, home)
            jvm = throughput_solr._solr_process(port)
            assert jvm is not None, "no Solr process found"
            index.raw_ingest(base, index.make_docs(1000, "warmup"))  # JIT and caches
            for r in range(rounds):
                for row in rows if r % 2 == 0 else rows[::-1]:
                    got = measure(base, jvm, row, index.make_docs(docs_n, f"{r}-{row.core}"))
                    results[row.name].append(got)
                    print(f"  {row.name}: {got[0]:.0f} docs/s, load {os.getloadavg()[0]:.2f}")
        finally:
            stop_solr(port, home)
    _print(results, encoding_costs(index.make_docs(docs_n, "enc")), docs_n)


def _print(results: dict[str, list[tuple]], enc: dict[str, float], docs_n: int) -> None:
    print(f"\n{docs_n} crawl-sized documents a row (mean of {len(next(iter(results.values())))})")
    print(f"{'factor':<46} {'docs/s':>7} {'Solr CPU-s/1k':>14} {'our CPU-ms/1k':>14}")
    for name, got in results.items():
        rate = sum(g[0] for g in got) / len(got)
        solr = sum(g[1] for g in got) / len(got)
        ours = sum(g[2] for g in got) / len(got)
        bad = sorted({s for g in got for s in g[3]})
        note = f"  HTTP {bad} (refused)" if bad else ""
        print(f"{name:<46} {rate:7.0f} {solr:14.2f} {ours:14.0f}{note}")
    print("\nour side alone, CPU-ms per 1,000 documents:")
    for name, ms in enc.items():
        print(f"  {name:<28} {ms:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--only", default="", help="rows whose name holds one of these comma-separated texts"
    )
    args = parser.parse_args()
    run(args.docs, args.rounds, args.only)


if __name__ == "__main__":
    main()
