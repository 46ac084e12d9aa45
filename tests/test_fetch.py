"""The fetch stage against a scripted server: limits, broken responses, redirects, conditional
GET and Basic auth. Assertions read the outcomes the crawl recorded and the server's log."""

from __future__ import annotations

import base64
import logging
import socket
from pathlib import Path

import pytest
from aiohttp import web

from indexer.report import outcome_is_known
from indexer.settings import describe, load_settings
from tests.faultserver import (
    FaultServer,
    Reply,
    content_length_lie,
    crawl,
    gzip_bomb,
    gzipped,
    html,
    malformed_chunked,
    never_finished_headers,
    reset,
    trickle,
)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # nothing listens once the socket is closed


async def test_broken_and_oversized_responses_end_with_an_outcome(tmp_path: Path) -> None:
    faults = {
        "/gzip": gzipped(html("gzip page", "compressed words in a gzip body")),
        "/deflate": gzipped(html("deflate page", "compressed words in deflate"), "deflate"),
        "/bomb": gzip_bomb(200),  # 200 MiB when inflated
        "/big": Reply(body=b"x" * 300_000),
        "/pdf": Reply(body=b"%PDF-1.4", content_type="application/pdf"),
        "/corrupt": Reply(
            body=b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage!",
            headers={"Content-Encoding": "gzip"},
        ),
        "/truncated": Reply(
            body=gzipped(html("cut")).body[:30],  # type: ignore[index]
            headers={"Content-Encoding": "gzip"},
        ),
        "/lie": content_length_lie,
        "/chunked": malformed_chunked,
        "/reset": reset,
        "/headers": never_finished_headers,
        "/trickle": trickle(b"<html><body>" + b"x" * 200, every=0.05),
        "/gone": Reply(404, "nothing here"),
        "/flaky": [Reply(503), Reply(502), Reply(body=html("flaky", "third time lucky"))],
    }
    with FaultServer() as srv:
        srv.page("/", "home", list(faults))
        for path, reply in faults.items():
            srv.route(path, reply)
        run = await crawl(
            [srv.url("/")], tmp_path, fetch__timeout=1.0, fetch__max_body_bytes=100_000
        )
        log = srv.log()
    got = {u.removeprefix(srv.base()): o for u, (o, _r) in run.outcomes.items()}
    reasons = {u.removeprefix(srv.base()): r for u, (_o, r) in run.outcomes.items()}
    assert got["/gzip"] == got["/deflate"] == got["/flaky"] == "indexed"
    texts = {d["url"]: str(d["text"]) for d in run.docs}
    assert "compressed words in a gzip body" in texts[srv.url("/gzip")]
    assert "third time lucky" in texts[srv.url("/flaky")]
    assert got["/bomb"] == got["/big"] == "too-large"
    assert got["/pdf"] == "parse-error"  # a PDF cut after its header
    assert got["/corrupt"] == got["/truncated"] == "bad-response"
    assert got["/gone"] == "http-404"
    for path in ("/lie", "/chunked", "/reset"):
        assert got[path] == "retries-exhausted" and reasons[path].startswith("connection-error")
    for path in ("/headers", "/trickle"):
        assert got[path] == "retries-exhausted" and reasons[path].startswith("timeout")
    assert all(outcome_is_known(o) for o, _ in run.outcomes.values())
    assert all("\n" not in r for _, r in run.outcomes.values())
    # 3 attempts (the default) for each retryable fault, not one more
    assert sum(1 for h in log if h.path == "/reset") == 3
    assert sum(1 for h in log if h.path == "/gone") == 1
    assert all(h.headers.get("Accept-Encoding") == "gzip, deflate" for h in log)


async def test_redirects_are_followed_and_checked_hop_by_hop(tmp_path: Path) -> None:
    closed = _closed_port()
    with FaultServer(hosts=2) as srv:
        srv.route(
            "/robots.txt",
            Reply(body="User-agent: *\nDisallow: /secret\n", content_type="text/plain"),
        )

        def moved(to: str, status: int = 301) -> Reply:
            return Reply(status, headers={"Location": to})

        srv.route("/r1", moved("/r2", 302))
        srv.route("/r2", moved(srv.url("/r3"), 307))
        srv.page("/r3", "the end of the chain")
        srv.route("/loop1", moved("/loop2"))
        srv.route("/loop2", moved("/loop1"))
        for i in range(12):
            srv.route(f"/hop{i}", moved(f"/hop{i + 1}"))
        srv.route("/away", moved(srv.url("/x", 1)))
        srv.route("/tofile", moved("file:///etc/passwd"))
        srv.route("/toclosed", moved(f"http://127.0.0.1:{closed}/"))
        srv.route("/tosecret", moved("/secret/page"))
        srv.route("/nolocation", Reply(302))
        srv.page(
            "/",
            "home",
            ["/r1", "/loop1", "/hop0", "/away", "/tofile", "/toclosed", "/tosecret", "/nolocation"],
        )
        run = await crawl(
            [srv.url("/")],
            tmp_path,
            fetch__max_attempts=2,
            crawl__allow_hosts=(f"127.0.0.1:{closed}",),
        )
        paths = srv.paths()
        host1 = srv.paths(1)
    got = {u.removeprefix(srv.base()): (o, r) for u, (o, r) in run.outcomes.items()}
    assert got["/r1"] == ("redirected", f"redirected to {srv.url('/r3')}")
    assert got["/r3"][0] == "indexed"
    assert [d["url"] for d in run.docs if "chain" in str(d["title"])] == [srv.url("/r3")]
    assert paths.count("/r3") == 1
    assert got["/loop1"][0] == "redirect-error" and "loop" in got["/loop1"][1]
    assert got["/hop0"][0] == "redirect-error" and "more than 10" in got["/hop0"][1]
    assert "/hop11" not in paths and "/hop10" in paths
    assert got["/away"][0] == "out-of-scope" and host1 == []
    assert got["/tofile"][0] == "redirect-error"
    assert got["/toclosed"][0] == "retries-exhausted"
    assert "robots.txt unavailable (connection-error)" in got["/toclosed"][1]
    assert got["/tosecret"][0] == "robots-disallowed" and "/secret/page" not in paths
    assert got["/nolocation"][0] == "redirect-error"


async def test_conditional_get_and_not_modified(tmp_path: Path) -> None:
    etag, modified = '"v1"', "Sun, 01 Nov 2026 10:00:00 GMT"

    async def validated(request: web.Request) -> web.StreamResponse:
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(
            text=html("validated"),
            content_type="text/html",
            headers={"ETag": etag, "Last-Modified": modified},
        )

    async def dated(request: web.Request) -> web.StreamResponse:
        if request.headers.get("If-Modified-Since") == modified:
            return web.Response(status=304)
        return web.Response(
            text=html("dated"), content_type="text/html", headers={"Last-Modified": modified}
        )

    with FaultServer() as srv:
        srv.page("/", "home", ["/etag", "/dated"])
        srv.route("/etag", validated)
        srv.route("/dated", dated)
        first = await crawl([srv.url("/")], tmp_path)
        second = await crawl([srv.url("/")], tmp_path)
        etag_hits = srv.log(path="/etag")
        dated_hits = srv.log(path="/dated")
    assert first.outcome(srv.url("/etag")) == first.outcome(srv.url("/dated")) == "indexed"
    assert second.outcome(srv.url("/etag")) == second.outcome(srv.url("/dated")) == "not-modified"
    assert {d["url"] for d in second.docs} == {srv.url("/")}  # nothing re-extracted
    assert "If-None-Match" not in etag_hits[0].headers
    assert etag_hits[1].headers["If-None-Match"] == etag
    assert dated_hits[1].headers["If-Modified-Since"] == modified
    assert [h.status for h in etag_hits] == [200, 304]


async def test_basic_auth_is_sent_only_to_its_host_and_never_recorded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "s3cret-Passw0rd"
    expected = "Basic " + base64.b64encode(f"alice:{secret}".encode()).decode()

    async def protected(request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != expected:
            return web.Response(status=401, headers={"WWW-Authenticate": 'Basic realm="x"'})
        return web.Response(text=html("members only", links=["/denied"]), content_type="text/html")

    caplog.set_level(logging.DEBUG)
    with FaultServer(hosts=2) as srv:
        srv.route("/", protected)
        srv.page("/other", "other host", host=1)
        srv.page("/", "other host home", ["/other"], host=1)
        run = await crawl(
            [srv.url("/"), srv.url("/", 1), f"http://alice:{secret}@{srv.host(1)}/userinfo"],
            tmp_path,
            fetch__auth={srv.host(0): {"user": "alice", "password": secret}},
        )
        log = srv.log()
    assert run.outcome(srv.url("/")) == "indexed"
    assert run.outcome(srv.url("/denied")) == "http-404"
    assert all("Authorization" not in h.headers for h in log if h.host == 1)
    assert srv.url("/userinfo", 1) in run.outcomes  # userinfo removed from the URL
    stored = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert secret.encode() not in stored
    assert secret not in caplog.text and secret not in str(run.stats.summary())


def test_config_show_masks_credentials_and_header_values() -> None:
    loaded = load_settings(
        None,
        {
            "fetch.headers": {"Cookie": "session=abc123"},
            "fetch.auth": {"intra": {"user": "u", "password": "pw-xyz"}},
        },
        environ={},
    )
    shown = str(describe(loaded))
    assert "abc123" not in shown and "pw-xyz" not in shown and "Cookie" in shown
