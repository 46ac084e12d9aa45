"""The crawl's own stop of the Tika service: no death logged, nothing asked again."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from indexer.errors import DocumentError
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service, held_pids, hold_env, marked_rtf


@pytest.mark.slow
def test_stopping_the_service_mid_document_is_no_death(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    hold = tmp_path / "hold"
    for name, value in hold_env(hold).items():
        monkeypatch.setenv(name, value)
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 1)

    async def run() -> object:
        job = Job("rtf", marked_rtf("停止中の文書"), "http://127.0.0.1/a.rtf", None)
        parse = asyncio.create_task(tika.parse(job))
        for _ in range(4500):  # at most 90 s for the JVM to start and hold it
            if held_pids(hold):
                break
            await asyncio.sleep(0.02)
        assert held_pids(hold), "the document was never held"
        await asyncio.get_running_loop().run_in_executor(None, tika.close)
        return await parse

    with caplog.at_level(logging.INFO, "indexer.pipeline.tikadocs"):
        answer = asyncio.run(run())
    assert isinstance(answer, DocumentError) and answer.outcome == "parse-error", answer
    assert answer.reason == "the Tika service was stopped"
    said = [r.getMessage() for r in caplog.records]
    assert not [m for m in said if "died" in m or "replaced" in m or "asked again" in m], said
    assert tika.restarts == 0 and tika.pid is None
    assert len(held_pids(hold)) == 1  # not asked again of a new JVM
