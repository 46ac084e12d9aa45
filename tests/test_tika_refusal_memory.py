"""A document the Tika service refuses lets go of its body at once: the answer carries no
traceback that holds the request's frames (and with them the body) in a cycle that only
the cyclic garbage collector frees, after the visit gave its memory budget back."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from collections.abc import Iterator

import pytest

from indexer.errors import DocumentError
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.faultserver import FaultServer, Reply


@pytest.fixture
def refusing_url() -> Iterator[str]:
    """A service whose ``/health`` is ok and whose ``/parse`` answers 422 with its error
    JSON (a document it cannot read)."""
    error = {"error": "parse-error", "message": "not a document it can read"}
    with FaultServer() as server:
        server.route("/health", Reply(body="ok", content_type="text/plain"))
        server.route("/parse", Reply(422, json.dumps(error), content_type="application/json"))
        yield server.base()


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
