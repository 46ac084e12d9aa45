"""The Tika service's ends and the reasons they give: the documents in flight when the JVM
dies are asked again of its replacement; an OutOfMemoryError names ``extract.tika_heap``; a
``tika_java`` that is not a Java says what happened; a dead ``tika_url`` is found at start."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import time
from pathlib import Path

import pytest

from indexer.errors import DocumentError
from indexer.extract.formats import ParsedDocument
from indexer.pipeline.docworkers import Answer, Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service, held_pids, hold_env, marked_rtf


async def _held_jvm(folder: Path, documents: int) -> int:
    """The pid of the JVM once it holds ``documents`` marked documents (at most 90 s)."""
    for _ in range(4500):
        pids = held_pids(folder)
        if len(pids) >= documents:
            assert len(set(pids)) == 1, pids
            return pids[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no JVM held {documents} documents: {held_pids(folder)}")


def _job(name: str, body: bytes) -> Job:
    return Job("rtf", body, f"http://127.0.0.1/{name}.rtf", None)


@pytest.mark.slow
def test_the_documents_in_flight_at_a_jvm_death_are_parsed_by_its_replacement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold = tmp_path / "hold"
    for name, value in hold_env(hold).items():
        monkeypatch.setenv(name, value)
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 2)
    texts = ("人事部からのお知らせ", "経理部の月次報告")

    async def run() -> tuple[int, list[Answer]]:
        parses = [
            asyncio.create_task(tika.parse(_job(str(i), marked_rtf(t))))
            for i, t in enumerate(texts)
        ]
        pid = await _held_jvm(hold, 2)  # both documents in flight on one JVM
        assert pid == tika.pid
        (hold / "armed").unlink()  # its replacement holds nothing
        os.kill(pid, signal.SIGKILL)
        return pid, list(await asyncio.gather(*parses))

    try:
        killed, answers = asyncio.run(run())
        for text, answer in zip(texts, answers, strict=True):
            assert isinstance(answer, ParsedDocument), answer
            assert answer.extracted.text.startswith(text), answer.extracted.text
        assert tika.restarts == 1 and tika.pid not in (None, killed)
    finally:
        tika.close()


def _big_rtf(mib: int) -> bytes:
    line = "".join(f"\\'{b:02x}" for b in "年次報告書の本文です。".encode("cp932"))
    return b"{\\rtf1\\ansi\\ansicpg932 " + (line + "\\par\n").encode() * (mib * 7000) + b"}"


@pytest.mark.slow
def test_a_document_that_exhausts_the_heap_ends_naming_tika_heap() -> None:
    extract = ExtractSettings(tika_service_dir=built_service(), tika_heap="32m")
    tika = TikaDocuments(extract, 1)
    try:
        answer = asyncio.run(tika.parse(_job("big", _big_rtf(40))))  # 25 MiB of RTF
        assert isinstance(answer, DocumentError) and answer.outcome == "parse-error", answer
        assert (
            answer.reason == "Tika service ran out of memory (extract.tika_heap=32m) while parsing"
        )
        assert tika.restarts == 2  # asked once more of a new JVM, which died of it too
    finally:
        tika.close()


def test_a_tika_java_that_is_no_java_names_the_setting_and_its_end() -> None:
    extract = ExtractSettings(tika_java="/bin/false", tika_service_dir=built_service())
    tika = TikaDocuments(extract, 1)
    try:
        answer = asyncio.run(tika.parse(_job("a", marked_rtf("本文"))))
    finally:
        tika.close()
    assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
    assert "extract.tika_java=/bin/false: " in answer.reason, answer.reason
    assert "exited with code 1 before it listened" in answer.reason, answer.reason
    assert "printed nothing" in answer.reason, answer.reason


def test_a_dead_tika_url_is_found_once_at_start(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as probe:  # a loopback port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    with caplog.at_level(logging.WARNING, "indexer.pipeline.tikadocs"):
        tika = TikaDocuments(ExtractSettings(tika_url=url), 2)
        for _ in range(250):  # at start (in its own thread: the event loop never waits)
            if [r.getMessage() for r in caplog.records if url in r.getMessage()]:
                break
            time.sleep(0.02)
        assert [r.getMessage() for r in caplog.records if url in r.getMessage()]
        try:
            answers = [asyncio.run(tika.parse(_job(n, marked_rtf("本文")))) for n in "ab"]
        finally:
            tika.close()
    for answer in answers:
        assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
        assert f"extract.tika_url={url}: it does not answer" in answer.reason, answer.reason
    assert len([r for r in caplog.records if url in r.getMessage()]) == 1  # one check
