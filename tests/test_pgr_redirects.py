"""Redirects across hosts keep politeness across processes (issue #20): two crawl processes
on one PostgreSQL frontier (``--processes 2``) crawl a site where many pages of host A
redirect to host B, which has its own pages, so one process holds A's lease while the other
holds B's. The kinds of hop: 301/302/303/307/308, a chain A → B → C to a host nobody holds
and no link names, a hop from B back to A. The server's log is the judge: no gap on any
host below the delay, every page requested once, every page's document written once."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from indexer.crawl.frontier.postgres.view import PgFrontierView
from tests.faultserver import FaultServer, Hit, Reply, html

A, B, C = 0, 1, 2
DELAY = 0.3
MOVED = 20  # A's pages redirecting to B (/r{i} → B /t{i})
CHAINS = 4  # A /c{i} → B /m{i} → C /x{i}
BACKS = 4  # B /back{i} → A /a{i}
OWN = 20  # B's own pages
STATUSES = (301, 302, 303, 307, 308)


def _moved(status: int, location: str) -> Reply:
    return Reply(status=status, headers={"Location": location}, body="moved")


def _site(srv: FaultServer) -> list[str]:
    srv.page("/", "home A", [f"/r{i}" for i in range(MOVED)] + [f"/c{i}" for i in range(CHAINS)])
    for i in range(MOVED):
        srv.route(f"/r{i}", _moved(STATUSES[i % 5], srv.url(f"/t{i}", B)), host=A)
        srv.route(f"/t{i}", Reply(body=html(f"moved page {i}")), host=B)
    for i in range(CHAINS):
        srv.route(f"/c{i}", _moved(301, srv.url(f"/m{i}", B)), host=A)
        srv.route(f"/m{i}", _moved(308, srv.url(f"/x{i}", C)), host=B)
        srv.route(f"/x{i}", Reply(body=html(f"chained page {i}")), host=C)
    links = [f"/p{i}" for i in range(OWN)] + [f"/back{i}" for i in range(BACKS)]
    srv.page("/", "home B", links, host=B)
    for i in range(OWN):
        srv.route(f"/p{i}", Reply(body=html(f"B page {i}")), host=B)
    for i in range(BACKS):
        srv.route(f"/back{i}", _moved(307 if i % 2 else 302, srv.url(f"/a{i}", A)), host=B)
        srv.route(f"/a{i}", Reply(body=html(f"A page {i} reached back")), host=A)
    return [srv.url("/", A), srv.url("/", B)]


def _pages(srv: FaultServer) -> list[str]:
    """Every URL that answers with a page (each is one document)."""
    a = ["/", *[f"/a{i}" for i in range(BACKS)]]
    b = ["/", *[f"/p{i}" for i in range(OWN)], *[f"/t{i}" for i in range(MOVED)]]
    c = [f"/x{i}" for i in range(CHAINS)]
    return sorted(
        [srv.url(p, A) for p in a] + [srv.url(p, B) for p in b] + [srv.url(p, C) for p in c]
    )


def _docs(tmp: Path) -> list[str]:
    urls = []
    for i in range(2):
        path = tmp / f"docs.{i}.jsonl"
        lines = path.read_text("utf-8").splitlines() if path.exists() else []
        urls += [json.loads(line)["url"] for line in lines if line.strip().endswith("}")]
    return urls


def _short_gaps(hits: list[Hit], host: int) -> list[float]:
    starts = sorted(h.start for h in hits if h.host == host)
    return [round(b - a, 3) for a, b in itertools.pairwise(starts) if b - a < DELAY - 0.02]


def test_two_processes_keep_the_delay_on_redirect_targets(pg_url: str, tmp_path: Path) -> None:
    flags = ["--frontier", pg_url, "--delay", str(DELAY), "--per-host", "1", "--processes", "2"]
    flags += ["--out", "docs.jsonl", "--data-dir", "d", "-q"]
    env = {**os.environ, "INDEXER_EXTRACT_WORKERS": "0"}
    with FaultServer(3) as srv:
        seeds = _site(srv)
        flags += ["--allow-host", srv.host(C)]  # in scope, but no seed and no link
        proc = subprocess.run(
            [sys.executable, "-m", "indexer", "crawl", *flags, *seeds],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        hits = srv.log()
    assert proc.returncode == 0, proc.stderr[-3000:]
    for host in (A, B, C):
        assert not _short_gaps(hits, host), (host, _short_gaps(hits, host))
    fetched = [(h.host, h.path) for h in hits if h.path not in ("/robots.txt", "/sitemap.xml")]
    assert len(fetched) == len(set(fetched)), "a page was requested twice"
    docs = _docs(tmp_path)
    assert sorted(docs) == _pages(srv), "every page's document once, under its own URL"
    with PgFrontierView(pg_url) as view:
        outcomes = {url: outcome for url, outcome, _reason in view.urls()}
    assert outcomes[srv.url("/r3", A)] == outcomes[srv.url("/c1", A)] == "redirected"
    assert outcomes[srv.url("/t3", B)] == outcomes[srv.url("/x1", C)] == "indexed"
