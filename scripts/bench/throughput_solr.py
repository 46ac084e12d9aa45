"""The Solr part of ``scripts/bench/throughput.py``: the end-to-end rate with Solr beside
``--out``'s, on the same site, alternated (``--out``, Solr, ``--out``, Solr …).

Starts its own Solr (our launcher, core ``pages``, 1 GiB heap) on a free port in a temporary
home and stops it by pid. With Solr the crawl is ``indexer crawl --solr URL`` (durable
outbox, index stage, commitWithin, one hard commit at the end); its pages are the documents
Solr holds after the run (a fresh core each round: deleted first). Solr's own CPU is not in
the product's process tree (it is another process); the JVM's CPU seconds over the run are
printed beside it, and per page. ``solr-before`` is the same crawl with the index side's
settings of before issue #16's writer work (:data:`BEFORE`: one update request in flight,
``commitWithin`` 10 s; the configset is today's),
alternated with the others in the same run; each line gives the load (``uptime``). Solr's
JVM is warmed first with 1,000 of ``index.py``'s documents, so the first crawl with Solr
does not pay for its JIT compilation.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import requests

from indexer.solr.launcher import start_solr, stop_solr

FLAGS = ("--delay", "0", "--per-host", "1", "--concurrency", "64")
#: The index side's settings before #16's writer work, as environment overrides.
BEFORE = {"INDEXER_SOLR_UPDATES_IN_FLIGHT": "1", "INDEXER_SOLR_COMMIT_WITHIN_MS": "10000"}
KINDS = ("out", "solr", "solr-before")


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``values`` in ``os.environ`` (the crawl child inherits them), restored after."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def _solr_process(port: int) -> psutil.Process | None:
    for conn in psutil.net_connections("tcp"):
        if conn.laddr and conn.laddr.port == port and conn.status == "LISTEN" and conn.pid:
            return psutil.Process(conn.pid)
    return None


def run(rounds: int, hosts: int, pages: int) -> None:
    """Alternate ``--out`` and Solr crawls ``rounds`` times each; print a line a run."""
    import throughput as bench  # the harness (its child-process measures and the server)

    with tempfile.TemporaryDirectory(prefix="bench-solr-") as tmp:
        port = bench._free_port()
        home = Path(tmp) / "solr"
        base = start_solr(port=port, solr_home=home, heap="1g")
        jvm = _solr_process(port)
        import index  # its crawl-sized documents warm the JVM (JIT), as index.py does

        index.raw_ingest(base, index.make_docs(1000, "warmup"))
        rates: dict[str, list[float]] = {kind: [] for kind in KINDS}
        try:
            for _ in range(rounds):
                for kind in KINDS:
                    rates[kind].append(_one(bench, base, jvm, kind, hosts, pages, Path(tmp)))
        finally:
            stop_solr(port, home)
    out, solr, before = (max(rates[k]) for k in KINDS)
    print(
        f"solr: best pages/s --out {out:.1f}, with Solr {solr:.1f} (ratio {solr / out:.2f}), "
        f"with Solr as before {before:.1f} (ratio {before / out:.2f})"
    )


def _one(
    bench: Any, base: str, jvm: psutil.Process | None, kind: str, hosts: int, pages: int, tmp: Path
) -> float:
    """One crawl of ``kind`` into an emptied core; prints its line, returns pages/s."""
    requests.post(
        f"{base}/pages/update?commit=true", json={"delete": {"query": "*:*"}}, timeout=60
    ).raise_for_status()
    cpu0 = sum(jvm.cpu_times()[:2]) if jvm else 0.0
    site_port = bench._free_port()
    server = bench.Server(site_port, hosts, pages, tmp)
    try:
        solr = None if kind == "out" else base
        with _environment(BEFORE if kind == "solr-before" else {}):
            m = bench.run_product(site_port, hosts, tmp, *FLAGS, solr=solr)
    finally:
        server.stop()
    jvm_cpu = (sum(jvm.cpu_times()[:2]) - cpu0) if jvm else float("nan")
    per_page = 1000 * jvm_cpu / max(m.pages, 1)
    load = os.getloadavg()[0]
    print(
        f"{m.line()}  {kind:<11} Solr JVM {jvm_cpu:6.1f} CPU-s ({per_page:.2f} CPU-ms/page) "
        f"load {load:.2f}",
        flush=True,
    )
    return float(m.pages / m.seconds)
