"""Document workers contain hostile parsers: a hang, a crash or a runaway allocation costs
one worker, which is replaced, and the next document is parsed as usual."""

from __future__ import annotations

import os
import time

import psutil

from indexer.errors import DocumentError
from indexer.extract.formats import NOT_TEXT, Limits, ParsedDocument
from indexer.models import ExtractedDoc
from indexer.pipeline.docworkers import DocumentWorkers, Job


def misbehaving_parser(
    fmt: str, body: bytes, url: str, content_type: str | None, limits: Limits
) -> ParsedDocument:
    """Hangs, crashes, allocates or answers, as the body says (runs in the worker)."""
    if body == b"hang":
        time.sleep(3600)
    if body == b"crash":
        os.abort()
    if body == b"allocate":
        hoard = bytearray(4 * 1024 * 1024 * 1024)  # over the address-space limit
        return ParsedDocument(NOT_TEXT, ExtractedDoc("never", str(len(hoard))))
    return ParsedDocument(NOT_TEXT, ExtractedDoc(f"pid {os.getpid()}", body.decode(), format=fmt))


def _job(body: bytes) -> Job:
    return Job("pdf", body, f"http://127.0.0.1/{body.decode()}", None)


async def test_hung_crashed_and_greedy_parsers_cost_one_worker_each() -> None:
    before = {child.pid for child in psutil.Process().children()}  # Solr, servers
    workers = DocumentWorkers(
        1, Limits(), timeout=1.5, memory=512 * 1024 * 1024, parser=misbehaving_parser
    )
    with workers:
        first = await workers.parse(_job(b"fine"))
        assert isinstance(first, ParsedDocument) and first.extracted.text == "fine"
        pid = int(first.extracted.title.split()[1])

        started = time.monotonic()
        hung = await workers.parse(_job(b"hang"))
        assert isinstance(hung, DocumentError) and hung.outcome == "parse-timeout"
        assert time.monotonic() - started < 10
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie"

        crashed = await workers.parse(_job(b"crash"))
        assert isinstance(crashed, DocumentError) and crashed.outcome == "parse-error"
        assert "crashed" in crashed.reason

        greedy = await workers.parse(_job(b"allocate"))
        assert isinstance(greedy, DocumentError) and greedy.outcome == "parse-error"
        assert "memory" in greedy.reason

        after = await workers.parse(_job(b"again"))
        assert isinstance(after, ParsedDocument) and after.extracted.text == "again"
        assert int(after.extracted.title.split()[1]) != pid
        assert workers.replaced == 2  # the hung and the crashed one; MemoryError is caught
    left = [
        child
        for child in psutil.Process().children()
        if child.pid not in before
        and "resource_tracker" not in " ".join(child.cmdline())  # multiprocessing's own
    ]
    assert not left  # every worker stopped with the pool
