"""A hostile host crawled to its end: 40 slow or failing resources among 10 normal pages.

Trickling bodies, headers that never end, 120 s stalls, redirect chains, resets and 500s
on one loopback host. Each request's deadline covers connect, headers and body; a timed-out
request is retried once; once ``fetch.host_failure_limit`` of the host's last 20 requests
timed out or failed to connect, its remaining URLs end ``host-failing``. The crawl ends by
itself, with the normal pages indexed and an outcome and reason for every URL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.faultserver import FaultServer, Reply, html, never_finished_headers, reset, trickle

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 3.0  # seconds per request; the 10 s scales every bound by 10/3
NORMAL = [f"/page/{i}" for i in range(10)]
CHAIN = 15  # hops per redirect chain: more than fetch.max_redirects (10)


def _hostile(srv: FaultServer) -> list[str]:
    """Route 40 hostile resources, cycling through six kinds; returns their paths."""
    paths = []
    for i in range(40):
        kind = ("trickle", "headers", "stall", "chain", "reset", "error")[i % 6]
        path = f"/bad/{kind}/{i}"
        if kind == "trickle":
            srv.route(path, trickle(html("Slow", "x" * 400).encode(), every=1.0))
        elif kind == "headers":
            srv.route(path, never_finished_headers)
        elif kind == "stall":
            srv.route(path, Reply(body=html("Late", "late"), delay=120))
        elif kind == "chain":
            for hop in range(CHAIN):
                srv.route(f"{path}/{hop}" if hop else path, _redirect(f"{path}/{hop + 1}"))
        elif kind == "reset":
            srv.route(path, reset)
        else:
            srv.route(path, Reply(status=500, body="server error"))
        paths.append(path)
    return paths


def _redirect(target: str) -> Reply:
    return Reply(status=302, headers={"Location": target})


def _site(srv: FaultServer) -> None:
    bad = _hostile(srv)
    # the home links the normal pages and a hub; the hub links the hostile resources,
    # three of which are linked from the home as well (they are met among the good ones)
    srv.route("/", Reply(body=html("Home", "Our pages.", links=[*NORMAL, *bad[:3], "/hub"])))
    srv.route("/hub", Reply(body=html("Hub", "More resources.", links=bad)))
    srv.route("/robots.txt", Reply(status=404, body="none"))
    for i, path in enumerate(NORMAL):
        srv.route(path, Reply(body=html(f"Normal {i}", f"Normal page number {i}. " * 20)))


def test_a_hostile_host_ends_in_bounded_time(tmp_path: Path) -> None:
    out, summary = tmp_path / "o.jsonl", tmp_path / "summary.json"
    with FaultServer() as srv:
        _site(srv)
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "indexer", "crawl", srv.url("/"), "--out", str(out),
             "--data-dir", str(tmp_path / "data"), "--timeout", str(TIMEOUT),
             "--delay", "0.1", "--summary-json", str(summary), "-q"],
            capture_output=True, text=True, timeout=600,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        elapsed = time.monotonic() - start
        hits = srv.log()
    assert proc.returncode == 0, proc.stderr
    assert elapsed < 30 * TIMEOUT, elapsed  # 300 s at the issue's --timeout 10
    indexed = {str(json.loads(line)["url"]) for line in out.read_text("utf-8").splitlines()}
    assert {srv.url(p) for p in NORMAL} <= indexed
    report = subprocess.run(
        [sys.executable, "-m", "indexer", "report", "--urls", "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    rows = [line.split("\t") for line in report.stdout.splitlines()]
    outcomes = {url: (outcome, reason) for url, outcome, reason in rows}
    assert all(o not in ("queued", "fetching") for o, _ in outcomes.values())
    assert all(r for o, r in outcomes.values() if o != "indexed"), outcomes
    counts = json.loads(summary.read_text("utf-8"))["outcomes"]
    assert counts.get("host-failing", 0) >= 10, counts  # the rule ended the rest
    slow = [
        h
        for h in hits
        if "/bad/" in h.path and any(k in h.path for k in ("trickle", "stall", "headers"))
    ]
    by_path: dict[str, int] = {}
    for h in slow:
        by_path[h.path] = by_path.get(h.path, 0) + 1
    assert max(by_path.values()) <= 2, by_path  # a timed-out request is retried once at most
    # each request's deadline covers connect, headers and body together: the client gave
    # up on every trickling body (1 byte/s, 400+ s in all) within its deadline
    trickled = [h for h in hits if "/trickle/" in h.path and h.end]
    assert trickled and all(h.end - h.start < TIMEOUT + 2 for h in trickled)
