"""Hostile input ends as a recorded outcome, never a crash, a stall or unbounded memory:
absurd nesting, link floods, huge lines, exotic URLs and crawler traps."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from aiohttp import web

from indexer.report import outcome_is_known
from tests.faultserver import FaultServer, Reply, crawl, html

NOT_PAGES = ("/robots.txt", "/sitemap.xml")


async def test_pathological_pages(tmp_path: Path) -> None:
    deep = "<html><body>" + "<div>" * 100_000 + "deep text" + "</div>" * 100_000 + "</body></html>"
    flood = html("flood", links=[f"/l{i}" for i in range(200_000)])
    with FaultServer() as srv:
        srv.page("/", "home", ["/deep", "/flood", "/longline", "/bigheader"])
        srv.route("/deep", Reply(body=deep))
        srv.route("/flood", Reply(body=flood))
        srv.route("/longline", Reply(body=b"<html><body><p>" + b"x" * 50_000_000))
        srv.route("/bigheader", Reply(body=html("h"), headers={"X-Junk": "y" * 100_000}))
        run = await crawl(
            [srv.url("/")],
            tmp_path,
            crawl__max_links_per_page=30,
            crawl__max_pages=40,
            fetch__max_attempts=1,
        )
        requested = set(srv.paths())
    assert outcome_is_known(run.outcome(srv.url("/deep")))
    assert run.outcome(srv.url("/flood")) == "indexed"
    assert run.outcome(srv.url("/longline")) == "too-large"
    assert run.outcome(srv.url("/bigheader")) == "connection-error"
    flood_links = [u for u in run.outcomes if re.search(r"/l\d+$", u)]
    assert len(flood_links) == 30  # crawl.max_links_per_page
    assert "/l30" not in requested
    assert all(outcome_is_known(o) for o, _ in run.outcomes.values())


async def test_exotic_urls_are_recorded_never_requested(tmp_path: Path) -> None:
    exotic = [
        "javascript:alert(1)",
        "mailto:someone@example.jp",
        "data:text/html,<b>x</b>",
        "tel:+81-3-0000-0000",
        "ftp://example.jp/file",
        "http://bad-port:99999/",
        "http://zero-port:0/",
        "http://[::1",
        "http://",
        "/ok?" + "q" * 3000,
        "/with\x00nul",
        "/%E3%81%82%ZZ",
        "//\udcff/x",
    ]
    anchors = "".join(f'<a href="{u}">x</a>' for u in exotic)
    page = html("exotic").replace("</main>", anchors + "</main>")
    with FaultServer() as srv:
        srv.route("/", Reply(body=page.encode("utf-8", "surrogateescape")))
        run = await crawl([srv.url("/")], tmp_path)
        requested = srv.paths()
    assert run.outcome(srv.url("/")) == "indexed"
    outcomes = [o for u, (o, _r) in run.outcomes.items() if u != srv.url("/")]
    assert outcomes and set(outcomes) <= {
        "invalid-url",
        "trap",
        "out-of-scope",
        "http-404",
        "indexed",
    }
    assert "invalid-url" in outcomes and "trap" in outcomes
    assert not [p for p in requested if p.startswith("/ok")]


async def test_calendar_and_session_id_traps_are_bounded(tmp_path: Path) -> None:
    session = itertools.count()

    async def calendar(request: web.Request) -> web.StreamResponse:
        day = int(request.query.get("d", "0"))
        links = [f"/cal?d={day + 1}", f"/cal?d={day - 1}"]
        return web.Response(text=html(f"day {day}", links=links), content_type="text/html")

    async def sessions(request: web.Request) -> web.StreamResponse:
        links = [f"/shop?token={next(session)}"]
        return web.Response(text=html("shop", links=links), content_type="text/html")

    with FaultServer() as srv:
        srv.page("/", "home", ["/cal?d=0", "/shop?token=start", "/a/b/a/b/a/b/c"])
        for path in ("/cal?d=0", *(f"/cal?d={d}" for d in range(-50, 50))):
            srv.route(path, calendar)
        srv.route("/shop?token=start", sessions)
        for i in range(100):
            srv.route(f"/shop?token={i}", sessions)
        run = await crawl([srv.url("/")], tmp_path, crawl__max_query_variants=10)
        paths = srv.paths()
    assert sum(p.startswith("/cal") for p in paths) <= 10
    assert sum(p.startswith("/shop") for p in paths) <= 10
    traps = [u for u, (o, _r) in run.outcomes.items() if o == "trap"]
    assert any("/cal?" in u for u in traps) and any("/shop?" in u for u in traps)
    assert run.outcome(srv.url("/a/b/a/b/a/b/c")) == "trap" and "/a/b/a/b/a/b/c" not in paths
