"""A page reached both directly and through a redirect is indexed once."""

from __future__ import annotations

from pathlib import Path

import pytest

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
