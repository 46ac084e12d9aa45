"""robots.txt and sitemaps at the host's pace, sitemaps once per run (issue #20).

A robots.txt Crawl-delay governs every request to its host, the sitemap included (on both
frontier backends); after a takeover (the holder killed with -9, its lease expired) the
process taking the host over reads neither robots.txt (its answer is kept for the run in the
shared ``meta``) nor the sitemap (read once in the run). The server's log is the judge."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import time
from pathlib import Path

import pytest

from indexer import run_crawl
from indexer.crawl.politeness import Politeness
from indexer.crawl.sitemaps import fetchable
from indexer.settings import load_settings
from tests.faultserver import FAST, LOG_JITTER, FaultServer, Hit, Reply, html
from tests.pg_fixtures import kill_then_join, out_urls
from tests.test_pg_join import _crawl


def _robots(srv: FaultServer, crawl_delay: float) -> None:
    body = f"User-agent: *\nCrawl-delay: {crawl_delay}\nSitemap: {srv.url('/sitemap.xml')}\n"
    srv.route("/robots.txt", Reply(body=body, content_type="text/plain"))


def _sitemap(srv: FaultServer, paths: list[str]) -> None:
    locs = "".join(f"<url><loc>{srv.url(p)}</loc></url>" for p in paths)
    body = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    srv.route("/sitemap.xml", Reply(body=body, content_type="application/xml"))
    for p in paths:
        srv.route(p, Reply(body=html(f"page {p}")))


def _gaps(hits: list[Hit]) -> list[float]:
    starts = sorted(h.start for h in hits)
    return [b - a for a, b in itertools.pairwise(starts)]


@pytest.mark.parametrize("frontier_kind", ["sqlite", "postgres"], indirect=True)
def test_the_crawl_delay_covers_the_sitemap_request(
    frontier_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    crawl_delay = 0.5
    url = "" if frontier_kind == "sqlite" else str(request.getfixturevalue("pg_url"))
    with FaultServer(1) as srv:
        _robots(srv, crawl_delay)
        _sitemap(srv, ["/s0", "/s1"])
        srv.page("/", "home", ["/p0"])
        srv.route("/p0", Reply(body=html("linked page")))
        values = {**FAST, "fetch.delay": 0.05, "crawl.seeds": (srv.url("/"),)}
        values |= {"crawl.data_dir": tmp_path / "d", "frontier.url": url, "extract.workers": 0}
        settings = load_settings(None, values, environ={}).settings
        stats = asyncio.run(run_crawl(settings, out=tmp_path / "out.jsonl", use_solr=False))
        hits = srv.log()
    assert stats.indexed == 4
    assert [h.path for h in hits[:2]] == ["/robots.txt", "/sitemap.xml"]
    assert min(_gaps(hits)) >= crawl_delay - LOG_JITTER, [round(g, 3) for g in _gaps(hits)]


def test_a_takeover_reads_neither_robots_txt_nor_the_sitemap_again(
    pg_url: str, tmp_path: Path
) -> None:
    """A reads robots.txt and the sitemap and is killed -9; B joins and takes the host
    over when A's lease expires: it reads neither again (robots.txt's answer is the run's,
    ``postgres/robots_share.py``), keeps the host's pace, and every page is written once
    by one of them."""
    lease, delay, pages = 2.0, 0.2, 30
    env = {**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(lease)}
    env["INDEXER_EXTRACT_WORKERS"] = "0"
    common = ["--frontier", pg_url, "--delay", str(delay), "--per-host", "1"]
    paths = [f"/s{i}" for i in range(pages)]
    with FaultServer(1) as srv:
        _robots(srv, delay)
        _sitemap(srv, paths)
        srv.page("/", "home")
        where = {"cwd": tmp_path, "env": env}
        a = _crawl(*common, "--data-dir", "a", "--out", "a.jsonl", srv.url("/"), **where)
        kill_then_join(
            a,
            lambda: _wait_for_pages(srv, a, 3),
            lambda: _crawl(*common, "--join", "--data-dir", "b", "--out", "b.jsonl", **where),
        )
        hits = srv.log()
    assert len(srv.log(path="/robots.txt")) == 1, "robots.txt read again by the takeover"
    assert [h.path for h in hits].count("/sitemap.xml") == 1, "the sitemap read twice"
    assert min(_gaps(hits)) >= delay - LOG_JITTER, [round(g, 3) for g in _gaps(hits)]
    assert out_urls(tmp_path / n for n in ("a.jsonl", "b.jsonl")) == {
        srv.url(p) for p in ["/", *paths]
    }


def _wait_for_pages(srv: FaultServer, proc: subprocess.Popen[bytes], pages: int) -> None:
    """Wait until ``pages`` of the sitemap's pages were requested (the sitemap was read)."""
    deadline = time.monotonic() + 60
    while len([h for h in srv.log() if h.path.startswith("/s")]) < pages:
        assert proc.poll() is None and time.monotonic() < deadline, "the crawl ended early"
        time.sleep(0.02)


def test_on_a_shared_frontier_only_the_origin_hosts_sitemap_files_are_read() -> None:
    """Another host's sitemap (listed in robots.txt, or a child of a sitemap index) is its
    lease holder's to fetch; one process alone reads every file the scope allows."""

    def in_scope(url: str) -> bool:
        return "/out" not in url

    own, other = "http://127.0.0.1:8001", "http://127.0.0.2:8001"
    shared = fetchable(own, in_scope, shared=True)
    assert shared(f"{own}/sitemap.xml") and not shared(f"{other}/sitemap.xml")
    assert not shared(f"{own}/out/sitemap.xml")
    alone = fetchable(own, in_scope, shared=False)
    assert alone(f"{other}/sitemap.xml") and not alone(f"{own}/out/sitemap.xml")


def test_a_crawl_delay_learnt_after_a_request_spaces_the_next_from_that_request() -> None:
    """robots.txt is requested at ``fetch.delay``'s turn; the Crawl-delay it teaches moves
    the next start to a Crawl-delay after that request, not the delay its turn reserved."""
    politeness = Politeness(0.05, 1, 60.0)
    host = "127.0.0.1:8001"
    asyncio.run(politeness.turn(host))
    started = time.monotonic()
    politeness.sent(host)
    politeness.set_crawl_delay(host, 2.0)
    ready = politeness.ready_at(host)
    assert ready is not None and ready >= started + 2.0
    politeness.set_crawl_delay(host, 2.0)  # known already: nothing moves
    assert politeness.ready_at(host) == ready


@pytest.mark.parametrize("frontier_kind", ["sqlite", "postgres"], indirect=True)
def test_a_sitemap_redirect_is_followed_only_into_the_readers_reach(
    frontier_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Host A's robots.txt lists two sitemaps: one redirects to host B (in scope, no seed),
    one to host C (out of scope). C is never asked; B's file is read at B's turn by one
    process alone, and left to B's lease holder on a shared frontier (nobody holds B: it
    is never asked)."""
    delay = 0.3
    url = "" if frontier_kind == "sqlite" else str(request.getfixturevalue("pg_url"))
    with FaultServer(3) as srv:
        listed = "".join(f"Sitemap: {srv.url(p)}\n" for p in ("/sm-b.xml", "/sm-c.xml"))
        srv.route("/robots.txt", Reply(body=f"User-agent: *\n{listed}", content_type="text/plain"))
        srv.route("/sm-b.xml", Reply(status=302, headers={"Location": srv.url("/sm.xml", 1)}))
        srv.route("/sm-c.xml", Reply(status=302, headers={"Location": srv.url("/sm.xml", 2)}))
        locs = f"<url><loc>{srv.url('/b0', 1)}</loc></url>"
        body = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
        for host in (1, 2):
            srv.route("/sm.xml", Reply(body=body, content_type="application/xml"), host=host)
        srv.route("/b0", Reply(body=html("B page")), host=1)
        srv.page("/", "home")
        values = {**FAST, "fetch.delay": delay, "crawl.seeds": (srv.url("/"),)}
        values |= {"crawl.data_dir": tmp_path / "d", "frontier.url": url, "extract.workers": 0}
        values |= {"crawl.allow_hosts": (srv.host(1),)}
        settings = load_settings(None, values, environ={}).settings
        asyncio.run(run_crawl(settings, out=tmp_path / "out.jsonl", use_solr=False))
        hits = srv.log()
    assert not [h for h in hits if h.host == 2], "a redirect out of scope was followed"
    on_b = [h for h in hits if h.host == 1]
    if frontier_kind == "postgres":
        assert not on_b, "another host's sitemap was read by the holder of A"
    else:
        assert "/sm.xml" in [h.path for h in on_b] and "/b0" in [h.path for h in on_b]
        assert min(_gaps(on_b)) >= delay - LOG_JITTER, [round(g, 3) for g in _gaps(on_b)]


@pytest.mark.parametrize("frontier_kind", ["sqlite", "postgres"], indirect=True)
def test_a_robots_txt_redirect_waits_the_turn_of_the_host_it_leads_to(
    frontier_kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Host A's robots.txt redirects to host B's, and B is crawled too (one process): the
    redirected request is one of B's, a delay apart from B's others."""
    delay = 0.3
    url = "" if frontier_kind == "sqlite" else str(request.getfixturevalue("pg_url"))
    with FaultServer(2) as srv:
        srv.route("/robots.txt", Reply(status=301, headers={"Location": srv.url("/robots.txt", 1)}))
        srv.route("/robots.txt", Reply(body="User-agent: *\n", content_type="text/plain"), host=1)
        for host in (0, 1):
            srv.page("/", f"home {host}", ["/p0", "/p1"], host=host)
            for i in range(2):
                srv.route(f"/p{i}", Reply(body=html(f"page {host}-{i}")), host=host)
        values = {**FAST, "fetch.delay": delay, "extract.workers": 0, "frontier.url": url}
        values |= {"crawl.seeds": (srv.url("/"), srv.url("/", 1)), "crawl.data_dir": tmp_path}
        settings = load_settings(None, values, environ={}).settings
        asyncio.run(run_crawl(settings, out=tmp_path / "out.jsonl", use_solr=False))
        hits = srv.log(host=1)
    assert [h.path for h in hits].count("/robots.txt") >= 2, "A's redirect and B's own"
    assert min(_gaps(hits)) >= delay - LOG_JITTER, [round(g, 3) for g in _gaps(hits)]
