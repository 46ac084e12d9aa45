"""The Tika service built at first need, as a crawl meets it: a build that fails names
Maven's cause in the documents' outcome; a stop during the build starts no second one."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest

from indexer.errors import DocumentError
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings

SERVICE = Path(__file__).resolve().parent.parent / "tika-service"


def _unbuilt_service(tmp_path: Path) -> Path:
    """A copy of the service's sources with nothing built."""
    copy = tmp_path / "tika-service"
    copy.mkdir()
    shutil.copy2(SERVICE / "pom.xml", copy / "pom.xml")
    shutil.copytree(SERVICE / "src", copy / "src")
    return copy


def _fake_mvn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> Path:
    """``mvn`` on PATH running ``body`` (sh), each call appended to the file returned."""
    if shutil.which("java") is None:
        pytest.skip("the Tika service needs java on PATH")
    bin_dir, calls = tmp_path / "bin", tmp_path / "mvn-calls"
    bin_dir.mkdir()
    mvn = bin_dir / "mvn"
    mvn.write_text(f'#!/bin/sh\necho "$$" >> {calls}\n{body}\n', encoding="ascii")
    mvn.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return calls


def _jobs(count: int) -> list[Job]:
    return [
        Job("doc", b"\xd0\xcf\x11\xe0", f"http://127.0.0.1/{i}.doc", None) for i in range(count)
    ]


def test_a_failed_build_names_mavens_cause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = (
        'echo "[ERROR] Failed to execute goal on project tika-service: Could not resolve '
        'dependencies for project"\necho "[ERROR] "\necho "[ERROR] -> [Help 1]"\nexit 1'
    )
    _fake_mvn(tmp_path, monkeypatch, failing)
    tika = TikaDocuments(ExtractSettings(tika_service_dir=_unbuilt_service(tmp_path)), 1)
    try:
        answer = asyncio.run(tika.parse(_jobs(1)[0]))
    finally:
        tika.close()
    assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
    assert "mvn exit 1" in answer.reason and "Could not resolve dependencies" in answer.reason
    assert "\n" not in answer.reason and "extract.tika_service_dir=" in answer.reason


def test_a_stop_during_the_build_starts_no_second_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _fake_mvn(tmp_path, monkeypatch, "exec sleep 30")
    tika = TikaDocuments(ExtractSettings(tika_service_dir=_unbuilt_service(tmp_path)), 8)

    async def run() -> tuple[list[object], float]:
        parses = [asyncio.create_task(tika.parse(job)) for job in _jobs(8)]
        for _ in range(500):
            if calls.exists():
                break
            await asyncio.sleep(0.01)
        assert calls.exists(), "the build never began"
        await asyncio.sleep(0.3)
        began = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, tika.close)
        answers = list(await asyncio.gather(*parses))
        return answers, time.monotonic() - began

    answers, took = asyncio.run(run())
    assert took < 3.0, took
    assert len(calls.read_text(encoding="ascii").split()) == 1  # one build, killed
    for answer in answers:
        assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
        assert "stopped" in answer.reason, answer.reason
