"""Admin leftovers of #22 on the server side: an over-long document id is a 400 saying so
(was "Solr did not answer"), an unknown one a 404; a request line or header over the
server's limit is answered 400 with one log line, no traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.web.app import MAX_REQUEST_LINE
from indexer.web.requestlog import make_runner
from tests.admin_fixtures import log_in, make_client_app, write_frontier

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_an_overlong_id_is_refused_with_its_reason(tmp_path: Path, free_port: int) -> None:
    write_frontier(tmp_path / "crawl")
    app = make_client_app(tmp_path / "crawl", f"http://127.0.0.1:{free_port}/solr")
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(max_line_size=MAX_REQUEST_LINE)  # as indexer serve listens
    async with TestClient(server) as client:  # type: ignore[arg-type]
        await log_in(client)
        resp = await client.get("/admin/doc", params={"id": "http://127.0.0.1:9/" + "a" * 18_000})
        text = await resp.text()
    assert resp.status == 400, text[:300]
    assert "18019 characters long" in text and "crawl.max_url_length (2048" in text
    assert "did not answer" not in text and "a" * 300 not in text  # not echoed whole


@pytest.mark.solr
async def test_an_unknown_id_is_not_found(solr_core: tuple[str, str], tmp_path: Path) -> None:
    write_frontier(tmp_path / "crawl")
    app = make_client_app(tmp_path / "crawl", solr_core[0])
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        resp = await client.get("/admin/doc", params={"id": "http://127.0.0.1:9/never.html"})
        text = await resp.text()
        known = await client.get("/admin/doc", params={"id": "http://127.0.0.1:9/gone.html"})
    assert resp.status == 404 and "Solr holds no document with this id" in text
    assert known.status == 200  # the frontier has its history


async def _raw(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        return await reader.read(200)
    finally:
        writer.close()


async def test_overlong_request_lines_get_a_400_and_one_log_line(
    tmp_path: Path, free_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_client_app(None, f"http://127.0.0.1:{free_port}/solr")
    runner = make_runner(app, MAX_REQUEST_LINE)
    await runner.setup()
    try:
        from aiohttp import web

        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port: Any = runner.addresses[0][1]
        with caplog.at_level(logging.DEBUG, logger="aiohttp.server"):
            line = await _raw(
                port, b"GET /?q=" + b"x" * (MAX_REQUEST_LINE + 1) + b" HTTP/1.1\r\n\r\n"
            )
            header = await _raw(port, b"GET / HTTP/1.1\r\nX-Big: " + b"y" * 20_000 + b"\r\n\r\n")
            fine = await _raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    finally:
        await runner.cleanup()
    assert line.startswith(b"HTTP/1.") and b" 400 " in line.split(b"\r\n")[0]
    assert b" 400 " in header.split(b"\r\n")[0] and b" 200 " in fine.split(b"\r\n")[0]
    records = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert len(records) == 2, [r.getMessage() for r in records]
    for record in records:
        assert record.levelno == logging.WARNING and record.exc_info is None
        assert record.getMessage().startswith("refused a request from 127.0.0.1 (HTTP 400)")
    assert f"over {MAX_REQUEST_LINE} bytes" in records[0].getMessage()
    assert "over 8190 bytes" in records[1].getMessage()
