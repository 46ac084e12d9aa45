"""An ``extract.tika_url`` service that dies mid-crawl: its documents are not at fault."""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest

from indexer.errors import DocumentError
from indexer.extract.formats import ParsedDocument
from indexer.extract.formats.tika_service import TikaProcess, service_classpath
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service, marked_rtf


@pytest.mark.slow
def test_a_tika_url_that_dies_ends_its_documents_unsupported_with_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    classpath = service_classpath(built_service())
    service = TikaProcess(shutil.which("java") or "java", classpath, "256m", 1)
    try:
        tika = TikaDocuments(ExtractSettings(tika_url=service.url), 2)
        jobs = [
            Job("rtf", marked_rtf(t), f"http://127.0.0.1/{i}.rtf", None)
            for i, t in enumerate(("生きている間の文書", "停止後の文書一", "停止後の文書二"))
        ]
        first = asyncio.run(tika.parse(jobs[0]))
        assert isinstance(first, ParsedDocument), first
        service.stop()  # the service someone else runs is gone
        with caplog.at_level(logging.INFO, "indexer.pipeline.tikadocs"):
            answers = [asyncio.run(tika.parse(job)) for job in jobs[1:]]
        tika.close()
    finally:
        service.stop()
    for answer in answers:
        assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
        assert f"extract.tika_url={service.url} is gone" in answer.reason, answer.reason
        assert "refused" in answer.reason.lower(), answer.reason
    said = [r.getMessage() for r in caplog.records]
    assert not [m for m in said if "replaced" in m], said
    assert len([m for m in said if "is gone" in m and service.url in m]) == 1, said
    assert tika.restarts == 0
