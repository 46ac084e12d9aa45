"""A page reached both directly and through a redirect is indexed once, and fetched once."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.crawl.frontier import Frontier
from tests.faultserver import FaultServer, Reply, crawl, html


@pytest.mark.parametrize("links", [["/a", "/r"], ["/r", "/a"]])
async def test_redirect_target_is_indexed_once(tmp_path: Path, links: list[str]) -> None:
    with FaultServer() as srv:
        srv.page("/", "home", links)
        srv.route("/a", Reply(body=html("target page")))
        srv.route("/r", Reply(301, headers={"Location": "/a"}))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=1)
    urls = [doc["url"] for doc in run.docs]
    assert sorted(urls) == sorted(set(urls)) == [srv.url("/"), srv.url("/a")]
    assert run.stats.indexed == 2
    if links[0] == "/a":  # fetched already when the redirect names it: not requested again
        assert srv.paths().count("/a") == 1, f"the target fetched twice: {srv.paths()}"
        outcome, reason = run.outcomes[srv.url("/r")]
        assert outcome == "redirected" and "left to its own visit" in reason, reason


@pytest.mark.parametrize(("before", "per_host"), [(0, 1), (0, 2), (8, 1), (12, 2)])
async def test_a_target_fetched_through_a_redirect_is_not_fetched_again(
    tmp_path: Path, before: int, per_host: int
) -> None:
    """``/r`` redirects to ``/a`` and ``/a`` is queued too: either is fetched first, or both
    are claimed at once (two per host), and ``/a`` is requested once. ``before`` pages
    first: among a host's first pages (whose documents are held back for the site-wide
    check, :data:`~indexer.pipeline.sitewide.HOLD_PAGES`) and past them."""
    with FaultServer() as srv:
        others = [f"/p{i}" for i in range(before)]
        srv.page("/", "home", [*others, "/r", "/a"])
        for i, path in enumerate(others):
            srv.route(path, Reply(body=html(f"page {i}", f"本文その{i}です。" * 20)))
        srv.route("/a", Reply(body=html("target page")))
        srv.route("/r", Reply(301, headers={"Location": "/a"}))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=per_host)
    assert srv.paths().count("/a") == 1, f"the target fetched twice: {srv.paths()}"
    assert run.outcomes[srv.url("/a")][0] == "indexed", run.outcomes
    assert [d["url"] for d in run.docs].count(srv.url("/a")) == 1


async def test_redirect_target_loses_session_parameters(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.page("/", "home", ["/a", "/r"])
        srv.route("/a", Reply(body=html("target page")))
        srv.route("/r", Reply(301, headers={"Location": "/a?sid=123"}))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=1)
    urls = sorted(doc["url"] for doc in run.docs)
    assert urls == [srv.url("/"), srv.url("/a")]
    outcome, reason = run.outcomes[srv.url("/r")]
    assert outcome in ("duplicate", "redirected") and "sid=" not in reason, (outcome, reason)


async def test_same_content_under_two_urls_is_indexed_once(tmp_path: Path) -> None:
    with FaultServer() as srv:
        home = html("home", "社内ポータルのトップページです。", ["/index.html", "/other"])
        srv.route("/", Reply(body=home))
        srv.route("/index.html", Reply(body=home))
        srv.route("/other", Reply(body=html("other page")))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=1)
    assert sorted(doc["url"] for doc in run.docs) == [srv.url("/"), srv.url("/other")]
    outcome, reason = run.outcomes[srv.url("/index.html")]
    assert outcome == "duplicate" and srv.url("/") in reason


async def test_each_hop_of_a_chain_is_requested_once(tmp_path: Path) -> None:
    """``/c1`` → ``/c2`` → ``/c3``, each also linked, and ``/e`` → ``/c2``: every URL is
    requested once in the run, the hops end ``redirected``, ``/c3`` is the one document;
    a second crawl asks ``/c3`` itself, once, with its validators."""
    etag = {"ETag": '"v1"'}
    with FaultServer() as srv:
        srv.page("/", "home", ["/c1", "/e", "/c2", "/c3"])
        srv.route("/c1", Reply(301, headers={"Location": "/c2"}))
        srv.route("/c2", Reply(302, headers={"Location": "/c3"}))
        srv.route("/e", Reply(301, headers={"Location": "/c2"}))
        srv.route("/c3", Reply(body=html("chain end", "本文です。" * 30), headers=etag))
        run = await crawl([srv.url("/")], tmp_path / "a", fetch__per_host=1)
        paths = [p for p in srv.paths() if p not in ("/robots.txt", "/sitemap.xml")]
        assert sorted(paths) == sorted(set(paths)), f"requested twice: {paths}"
        assert [d["url"] for d in run.docs].count(srv.url("/c3")) == 1
        for path in ("/c1", "/c2", "/e"):
            assert run.outcomes[srv.url(path)][0] == "redirected", run.outcomes
        before = len(srv.log())
        await crawl([srv.url("/")], tmp_path / "a", fetch__per_host=1)
        again = srv.log()[before:]
    asked = [h for h in again if h.path == "/c3"]
    assert len(asked) == 1, [h.path for h in again]
    assert asked[0].headers.get("If-None-Match") == '"v1"', "the end of the chain asked itself"


async def test_a_page_reached_by_a_redirect_keeps_its_links_for_its_304(tmp_path: Path) -> None:
    """``/d`` → ``/d/`` (new: followed inline), whose links are only there; next crawl
    ``/d/`` answers 304 and its links are still followed (stored under ``/d/``)."""
    with FaultServer() as srv:
        srv.page("/", "home", ["/d"])
        srv.route("/d", Reply(301, headers={"Location": "/d/"}))
        srv.route(
            "/d/", Reply(body=html("dir", "本文です。" * 30, ["/d/x"]), headers={"ETag": '"1"'})
        )
        srv.route("/d/x", Reply(body=html("x", "中身です。" * 30)))
        await crawl([srv.url("/")], tmp_path / "a", fetch__per_host=1)
        srv.route("/d/", Reply(304, headers={"ETag": '"1"'}))
        before = len(srv.log())
        run = await crawl([srv.url("/")], tmp_path / "a", fetch__per_host=1)
        again = [h.path for h in srv.log()[before:]]
    assert run.outcomes[srv.url("/d/")][0] == "not-modified", run.outcomes
    assert "/d/x" in again, f"the 304 page's links were lost: {again}"
    with Frontier(tmp_path / "a") as frontier:
        assert frontier.stored_outlinks(srv.url("/d/")) == [srv.url("/d/x")]
        assert frontier.stored_outlinks(srv.url("/d")) == [], "kept under the redirect"


async def test_an_indexed_login_page_is_fetched_once(tmp_path: Path) -> None:
    """With ``crawl.index_login_pages``, pages redirecting to a login URL end
    ``login-required`` and each login page is requested once, by its own visit."""
    form = html("ログイン", '<form><input type="password" name="pw"></form>')
    with FaultServer() as srv:
        srv.page("/", "home", ["/a", "/b", "/c"])
        for page in ("/a", "/b", "/c"):
            srv.route(page, Reply(302, headers={"Location": "/login"}))
        srv.route("/login", Reply(body=form))
        run = await crawl([srv.url("/")], tmp_path, crawl__index_login_pages=True)
    assert srv.paths().count("/login") == 1, srv.paths()
    assert {run.outcomes[srv.url(p)][0] for p in ("/a", "/b", "/c")} == {"login-required"}
    assert srv.url("/login") in [d["url"] for d in run.docs]


async def test_a_redirect_to_a_deleted_url_does_not_request_it(tmp_path: Path) -> None:
    """``indexer delete --url`` buried ``/gone``; ``/old`` → ``/gone`` is not followed."""
    with FaultServer() as srv:
        srv.page("/", "home", ["/old"])
        srv.route("/old", Reply(301, headers={"Location": "/gone"}))
        srv.route("/gone", Reply(body=html("gone", "消したページ。" * 30)))
        with Frontier(tmp_path) as frontier:
            frontier.tombstones.bury_url(srv.url("/gone"))
        run = await crawl([srv.url("/")], tmp_path)
    assert "/gone" not in srv.paths(), srv.paths()
    assert run.outcomes[srv.url("/old")][0] == "redirected", run.outcomes


async def test_each_hop_before_a_failing_end_is_requested_once(tmp_path: Path) -> None:
    """``/r`` → ``/m`` → ``/x`` (404), and ``/m`` is linked later (from ``/later``): ``/m``
    answered a redirect under ``/r``'s visit and is not asked again."""
    with FaultServer() as srv:
        srv.page("/", "home", ["/r", "/later"])
        srv.page("/later", "later", ["/m"])
        srv.route("/r", Reply(301, headers={"Location": "/m"}))
        srv.route("/m", Reply(301, headers={"Location": "/x"}))
        srv.route("/x", Reply(404, body="gone"))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=1)
    assert srv.paths().count("/m") == 1, srv.paths()
    assert run.outcomes[srv.url("/m")][0] == "redirected", run.outcomes


async def test_a_maintenance_page_reached_by_a_redirect_is_judged_with_its_host(
    tmp_path: Path,
) -> None:
    """Every page of the host answers one maintenance page, one of them through a redirect:
    the redirect's target is judged a site-wide duplicate like the rest (the hash the
    site-wide check counted moves to the document's URL), not left indexed."""
    body = html("メンテナンス中", "ただいまメンテナンス中です。しばらくお待ちください。" * 5)
    pages = [f"/p{i}" for i in range(8)]
    with FaultServer() as srv:
        srv.page("/", "home", ["/r", *pages])
        srv.route("/r", Reply(301, headers={"Location": "/a"}))
        for path in ["/a", *pages]:
            srv.route(path, Reply(body=body, headers={"ETag": '"m"'}))
        run = await crawl([srv.url("/")], tmp_path, fetch__per_host=1)
    outcome = run.outcomes[srv.url("/a")][0]
    assert outcome == "sitewide-duplicate", run.outcomes
