"""A frameset intranet: the frames are crawled, the empty frameset page is not indexed."""

from __future__ import annotations

from pathlib import Path

from tests.faultserver import FaultServer, Reply, crawl, html

FRAMESET = (
    "<html><head><title>社内ポータル</title></head><frameset cols='20%,80%'>"
    "<frame src='/menu.html'><frame src='/top.html'></frameset></html>"
)


async def test_frames_are_followed_and_frameset_not_indexed(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.route("/", Reply(body=FRAMESET))
        srv.route("/menu.html", Reply(body=html("menu")))
        srv.route("/top.html", Reply(body=html("就業規則", "就業規則は社内ポータルで読めます。")))
        run = await crawl([srv.url("/")], tmp_path)
    urls = {doc["url"] for doc in run.docs}
    assert urls == {srv.url("/menu.html"), srv.url("/top.html")}
    assert run.outcomes[srv.url("/")][0] == "no-content"
