"""The crawl's own stop of the Tika service: no death logged, nothing asked again."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable
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


def _stop_while(tika: TikaDocuments, started: Callable[[], bool]) -> tuple[object, float]:
    """Parse one document, call close() once ``started()``; (its answer, seconds from the
    close to the end of both)."""

    async def run() -> tuple[object, float]:
        job = Job("rtf", marked_rtf("停止中の文書"), "http://127.0.0.1/a.rtf", None)
        parse = asyncio.create_task(tika.parse(job))
        for _ in range(500):
            if started():
                break
            await asyncio.sleep(0.01)
        assert started(), "the wait never began"
        await asyncio.sleep(0.3)  # well inside the wait
        began = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, tika.close)
        answer = await parse
        return answer, time.monotonic() - began

    return asyncio.run(run())


def test_a_stop_ends_the_start_check_of_a_tika_url_that_never_answers() -> None:
    with socket.socket() as mute:  # accepts (the kernel's backlog) and never answers
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)
        url = f"http://127.0.0.1:{mute.getsockname()[1]}"
        began = time.monotonic()
        tika = TikaDocuments(ExtractSettings(tika_url=url, document_timeout=60), 1)
        assert time.monotonic() - began < 1.0  # the event loop does not wait on the check
        answer, took = _stop_while(tika, lambda: True)
    assert took < 2.0, took
    assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
    assert "the Tika service was stopped" in answer.reason, answer.reason


def test_a_stop_ends_the_wait_on_a_slow_java(tmp_path: Path) -> None:
    java = tmp_path / "slow-java"  # a Java that takes a minute to listen
    pidfile = tmp_path / "pid"
    java.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nexec sleep 60\n", encoding="ascii")
    java.chmod(0o755)
    extract = ExtractSettings(tika_java=str(java), tika_service_dir=built_service())
    tika = TikaDocuments(extract, 1)
    answer, took = _stop_while(tika, pidfile.exists)
    assert took < 2.0, took
    assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
    assert "the Tika service was stopped" in answer.reason, answer.reason
    pid = int(pidfile.read_text(encoding="ascii"))
    with pytest.raises(ProcessLookupError):  # killed by its pid and reaped
        os.kill(pid, 0)
