"""The Solr part of ``scripts/bench/throughput.py``: the end-to-end rate with Solr beside
``--out``'s, on the same site, alternated (``--out``, Solr, ``--out``, Solr …).

Starts its own Solr (our launcher, core ``pages``, 1 GiB heap) on a free port in a temporary
home and stops it by pid. With Solr the crawl is ``indexer crawl --solr URL`` (durable
outbox, index stage, commitWithin, one hard commit at the end); its pages are the documents
Solr holds after the run (a fresh core each round: deleted first). Solr's own CPU is not in
the product's process tree (it is another process); the JVM's CPU seconds over the run are
printed beside it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import psutil
import requests

from indexer.solr.launcher import start_solr, stop_solr

FLAGS = ("--delay", "0", "--per-host", "1", "--concurrency", "64")


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
        rates: dict[str, list[float]] = {"out": [], "solr": []}
        try:
            for _ in range(rounds):
                for kind in ("out", "solr"):
                    requests.post(
                        f"{base}/pages/update?commit=true",
                        json={"delete": {"query": "*:*"}},
                        timeout=60,
                    ).raise_for_status()
                    cpu0 = sum(jvm.cpu_times()[:2]) if jvm else 0.0
                    site_port = bench._free_port()
                    server = bench.Server(site_port, hosts, pages, Path(tmp))
                    try:
                        solr = base if kind == "solr" else None
                        m = bench.run_product(site_port, hosts, Path(tmp), *FLAGS, solr=solr)
                    finally:
                        server.stop()
                    jvm_cpu = (sum(jvm.cpu_times()[:2]) - cpu0) if jvm else float("nan")
                    rates[kind].append(m.pages / m.seconds)
                    print(f"{m.line()}  Solr JVM {jvm_cpu:6.1f} CPU-s", flush=True)
        finally:
            stop_solr(port, home)
    out, solr = max(rates["out"]), max(rates["solr"])
    print(f"solr: best pages/s --out {out:.1f}, with Solr {solr:.1f}; ratio {solr / out:.2f}")
