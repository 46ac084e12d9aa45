"""Redirects across hosts keep politeness across processes (issue #20): two crawl processes
on one PostgreSQL frontier (``--processes 2``) crawl a site where many pages of host A
redirect to host B, which has its own pages, so one process holds A's lease while the other
holds B's. The kinds of hop: 301/302/303/307/308, a chain A → B → C to a host nobody holds
and no link names, a hop from B back to A. The server's log is the judge: no gap on any
host below the delay, every page requested once, every page's document written once."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from indexer import run_crawl
from indexer.crawl.frontier.opening import open_view
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.settings import load_settings
from tests.faultserver import FAST, LOG_JITTER, FaultServer, Hit, Reply, html
from tests.pg_fixtures import out_lines

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
    return [url for i in range(2) for url in out_lines(tmp / f"docs.{i}.jsonl")]


def _short_gaps(hits: list[Hit], host: int) -> list[float]:
    return [round(g, 3) for g in _gaps(hits, host) if g < DELAY - LOG_JITTER]


def test_two_processes_keep_the_delay_on_redirect_targets(pg_url: str, tmp_path: Path) -> None:
    flags = ["--frontier", pg_url, "--delay", str(DELAY), "--per-host", "1", "--processes", "2"]
    flags += ["--out", "docs.jsonl", "--data-dir", "d", "-q"]
    env = {**os.environ, "INDEXER_EXTRACT_WORKERS": "0"}
    with FaultServer(3) as srv:
        seeds = _site(srv)
        flags += ["--allow-host", srv.host(C)]  # in scope, but no seed and no link
        proc = subprocess.Popen(
            [sys.executable, "-m", "indexer", "crawl", *flags, *seeds],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _, err = proc.communicate(timeout=180)
        finally:  # the parent passes a SIGTERM on to its children (a -9 would leave them)
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(30)
        hits = srv.log()
    assert proc.returncode == 0, err[-3000:]
    for host in (A, B, C):
        assert not _short_gaps(hits, host), (host, _short_gaps(hits, host))
    fetched = [(h.host, h.path) for h in hits if h.path not in ("/robots.txt", "/sitemap.xml")]
    assert len(fetched) == len(set(fetched)), "a page was requested twice"
    docs = _docs(tmp_path)
    assert sorted(docs) == _pages(srv), "every page's document once, under its own URL"
    by_process = [out_lines(tmp_path / f"docs.{i}.jsonl") for i in range(2)]
    assert all(by_process), f"one process did all the work: {[len(d) for d in by_process]}"
    with PgFrontierView(pg_url) as view:
        outcomes = {url: outcome for url, outcome, _reason in view.urls()}
    assert outcomes[srv.url("/r3", A)] == outcomes[srv.url("/c1", A)] == "redirected"
    assert outcomes[srv.url("/t3", B)] == outcomes[srv.url("/x1", C)] == "indexed"


@pytest.mark.parametrize("frontier_kind", ["sqlite", "postgres"], indirect=True)
def test_a_hop_to_a_crawl_delay_host_keeps_its_gap_on_both_backends(
    frontier_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """One process: A's pages redirect to B, whose robots.txt asks a Crawl-delay. Every
    request to B, its robots.txt included, is a Crawl-delay apart (followed inline on
    SQLite, queued for B's lease holder on PostgreSQL), and both backends end with the same
    documents and outcomes; a hop to a login URL ends ``login-required`` on both."""
    crawl_delay = 0.4
    url = "" if frontier_kind == "sqlite" else str(request.getfixturevalue("pg_url"))
    with FaultServer(2) as srv:
        srv.page("/", "home A", ["/r0", "/r1", "/r2", "/in"])
        srv.route("/robots.txt", Reply(body=f"User-agent: *\nCrawl-delay: {crawl_delay}\n"), B)
        for i in range(3):
            srv.route(f"/r{i}", _moved(STATUSES[i], srv.url(f"/t{i}", B)), host=A)
            srv.route(f"/t{i}", Reply(body=html(f"moved page {i}")), host=B)
        srv.route("/in", _moved(302, srv.url("/login?next=/in", B)), host=A)
        srv.route("/login?next=/in", Reply(body=html("sign in")), host=B)
        values = {**FAST, "crawl.seeds": (srv.url("/"),), "crawl.data_dir": tmp_path / "d"}
        values |= {"frontier.url": url, "extract.workers": 0, "fetch.delay": 0.05}
        values |= {"crawl.allow_hosts": (srv.host(B),), "crawl.index_login_pages": True}
        settings = load_settings(None, values, environ={}).settings
        asyncio.run(run_crawl(settings, out=tmp_path / "out.jsonl", use_solr=False))
        hits = srv.log()
    gaps = [round(g, 3) for g in _gaps(hits, B)]
    # robots.txt, 3 pages, login
    assert len(gaps) >= 4 and min(gaps) >= crawl_delay - LOG_JITTER, gaps
    docs = [json.loads(line)["url"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    moved = [srv.url(f"/t{i}", B) for i in range(3)]
    assert sorted(docs) == sorted([srv.url("/", A), *moved, srv.url("/login?next=/in", B)])
    with open_view(tmp_path / "d", url) as view:
        outcomes = {u: o for u, o, _reason in view.urls()}
    assert [outcomes[srv.url(f"/r{i}", A)] for i in range(3)] == ["redirected"] * 3
    assert outcomes[srv.url("/in", A)] == "login-required"


def _gaps(hits: list[Hit], host: int) -> list[float]:
    starts = sorted(h.start for h in hits if h.host == host)
    return [b - a for a, b in itertools.pairwise(starts)]
