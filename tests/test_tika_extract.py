"""``indexer extract`` on the Tika-service formats and OpenDocument: Japanese title and text
of each LibreOffice fixture; without java or the built service those formats end
``unsupported-format`` naming what is missing, and the rest is parsed as before."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from indexer.errors import DocumentError
from indexer.extract.formats import ParsedDocument
from indexer.extract.formats.tika import tika_extracted
from indexer.extract.formats.tika_service import TikaProcess, find_java, service_classpath
from indexer.pipeline.docworkers import Answer, Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import EXPECTED, FIXTURES, SERVICE_DIR, built_service, path_without_java

ROOT = Path(__file__).resolve().parents[1]
FILES = [FIXTURES / name for name in EXPECTED]


def _extract(files: list[Path], **env: str) -> dict[str, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "extract", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    return {Path(r["file"]).name: r for r in records}


def _escapes_rtf(folder: Path) -> Path:
    """Japanese as cp932 ``\\'xx`` escapes (title, first line) and as ``\\uN`` (second)."""
    rtf = folder / "escapes.rtf"
    rtf.write_bytes(
        b"{\\rtf1\\ansi\\ansicpg932{\\fonttbl{\\f0\\fnil\\fcharset128 MS Mincho;}}"
        b"{\\info{\\title \\'8e\\'d0\\'93\\'e0\\'95\\'f1}}\\f0 "
        b"\\'89\\'ef\\'8b\\'63\\'8e\\'ba\\'82\\'cc\\'97\\'5c\\'96\\'f1\\par "
        b"\\u26481?\\u20140?\\u12391?\\u12377?\\u12290?\\par}"
    )
    return rtf


@pytest.mark.slow
def test_each_format_gives_its_japanese_title_and_text(tmp_path: Path) -> None:
    built_service()
    broken = tmp_path / "broken.doc"
    broken.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16le"))
    records = _extract([*FILES, _escapes_rtf(tmp_path), broken])
    for name, (fmt, title, phrases) in EXPECTED.items():
        record = records[name]
        assert (record.get("format"), record.get("title")) == (fmt, title), record
        for phrase in phrases:
            assert phrase in record["text"], (name, phrase, record["text"])
    assert records["sample.xls"]["text"].index("五月") > records["sample.xls"]["text"].index("四月")
    assert records["sample.ods"]["page_count"] == 2 and records["sample.odp"]["page_count"] == 2
    assert "質疑応答は最後に" in records["sample.ppt"]["text"]  # the second slide's notes
    assert records["sample.doc"]["lang"] == "ja"
    assert (records["escapes.rtf"]["title"], records["escapes.rtf"]["format"]) == ("社内報", "rtf")
    assert records["escapes.rtf"]["text"] == "会議室の予約\n東京です。"
    assert records["broken.doc"]["outcome"] == "parse-error", records["broken.doc"]
    assert records["broken.doc"]["error"].startswith("Tika: "), records["broken.doc"]


def _parse(extract: ExtractSettings, name: str, body: bytes | None = None) -> Answer:
    async def run() -> Answer:
        data = (FIXTURES / name).read_bytes() if body is None else body
        return await tika.parse(Job(EXPECTED[name][0], data, "http://127.0.0.1/" + name, None))

    tika = TikaDocuments(extract, 1)
    try:
        return asyncio.run(run())
    finally:
        tika.close()


def test_without_java_or_the_service_the_tika_formats_are_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = str(tmp_path / "no-jdk" / "bin" / "java")
    cases = (
        ({"tika_java": missing}, f"extract.tika_java={missing} is not an executable file"),
        ({"tika_service_dir": tmp_path}, f"not built and cannot be: {tmp_path}/pom.xml"),
        ({}, "extract.tika_java=java is not on PATH"),
    )
    for overrides, reason in cases:
        if not overrides:
            monkeypatch.setenv("PATH", path_without_java(tmp_path))
        extract = ExtractSettings(tika_service_dir=SERVICE_DIR).model_copy(update=overrides)
        for name in ("sample.doc", "sample.xls"):
            answer = _parse(extract, name)
            assert isinstance(answer, DocumentError), answer
            assert answer.outcome == "unsupported-format", answer.reason
            assert reason in answer.reason and EXPECTED[name][0] in answer.reason, answer.reason


@pytest.mark.slow
def test_a_document_over_the_timeout_ends_parse_timeout_and_the_jvm_goes() -> None:
    extract = ExtractSettings(tika_service_dir=built_service(), document_timeout=0.01)
    tika = TikaDocuments(extract, 1)
    job = Job("ppt", (FIXTURES / "sample.ppt").read_bytes(), "http://127.0.0.1/a.ppt", None)
    try:
        answer = asyncio.run(tika.parse(job))
        assert isinstance(answer, DocumentError) and answer.outcome == "parse-timeout", answer
        assert "extract.document_timeout=0.01" in answer.reason
        assert tika.restarts == 1 and tika.pid is None  # replaced: the next document starts one
    finally:
        tika.close()


@pytest.mark.slow
def test_a_service_named_by_tika_url_is_used_and_never_stopped() -> None:
    classpath = service_classpath(built_service())
    running = TikaProcess(find_java("java"), classpath, "256m", 1)
    try:
        for timeout, outcome in ((60.0, None), (0.000_1, "parse-timeout")):
            extract = ExtractSettings(tika_url=running.url, tika_java="/nowhere/java")
            answer = _parse(extract.model_copy(update={"document_timeout": timeout}), "sample.rtf")
            if outcome is None:
                assert isinstance(answer, ParsedDocument), answer
                assert answer.extracted.title == EXPECTED["sample.rtf"][1]
            else:
                assert isinstance(answer, DocumentError) and answer.outcome == outcome, answer
        assert running.alive()  # not ours to replace or stop
    finally:
        running.stop()


def test_the_answer_becomes_a_document_record() -> None:
    answer = {
        "text": "\n\t部署\n\t担当者\n\n本文です。\n",
        "truncated": True,
        "metadata": {
            "dc:title": ["  "],
            "dc:creator": ["総務部"],
            "dcterms:created": ["1601-01-01T00:00:00Z"],
            "dcterms:modified": ["2024-04-01T09:30:00Z"],
            "meta:page-count": ["3"],
        },
    }
    doc = tika_extracted("doc", answer)
    assert doc.text == "部署\n担当者\n\n本文です。"
    assert (doc.title, doc.author, doc.page_count) == ("部署", "総務部", 3)
    assert (doc.created, doc.modified) == (None, "2024-04-01T09:30:00Z")
    assert doc.note.startswith("text cut at") and doc.format == "doc"


def test_the_image_runs_the_built_service_on_a_java_runtime() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "openjdk-17-jre-headless" in dockerfile  # the service's release (pom: 17)
    assert (
        "COPY tika-service/pom.xml" in dockerfile and "dependency:copy-dependencies" in dockerfile
    )
    assert "ENV INDEXER_EXTRACT_TIKA_SERVICE_DIR=/app/tika-service" in dockerfile
    pom = (SERVICE_DIR / "pom.xml").read_text(encoding="utf-8")
    assert "<maven.compiler.release>17</maven.compiler.release>" in pom
    assert "<artifactId>junrar</artifactId>" in pom  # excluded: not an open-source licence


def test_an_rtf_saved_with_a_utf8_bom_is_still_rtf() -> None:
    body = b"\xef\xbb\xbf" + (FIXTURES / "sample.rtf").read_bytes()
    answer = _parse(ExtractSettings(), "sample.rtf", body)
    assert isinstance(answer, ParsedDocument), answer
    assert answer.extracted.title == EXPECTED["sample.rtf"][1]
