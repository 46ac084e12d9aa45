"""A document the Tika service refuses lets go of its body at once: the answer carries no
traceback that holds the request's frames (and with them the body) in a cycle that only
the cyclic garbage collector frees, after the visit gave its memory budget back."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from indexer.errors import DocumentError
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings


class _Refusing(BaseHTTPRequestHandler):
    """``/health`` is ok; ``/parse`` answers 422 with the service's error JSON."""

    def do_GET(self) -> None:
        self._reply(200, b"ok")

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        error = {"error": "parse-error", "message": "not a document it can read"}
        self._reply(422, json.dumps(error).encode())

    def _reply(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def refusing_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_refused_document_keeps_no_reference_to_its_body(refusing_url: str) -> None:
    tika = TikaDocuments(ExtractSettings(tika_url=refusing_url), 1)
    body = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1 << 20)

    async def parse() -> int:
        answer = await tika.parse(Job("doc", body, "http://127.0.0.1/x.doc", None))
        assert isinstance(answer, DocumentError) and answer.outcome == "parse-error", answer
        del answer
        await asyncio.sleep(0.2)  # the pool's thread lets go of the job
        return sys.getrefcount(body)

    before = sys.getrefcount(body)
    gc.disable()
    try:
        after = asyncio.run(parse())
    finally:
        gc.enable()
        tika.close()
    assert after == before
