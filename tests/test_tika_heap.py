"""A bad ``extract.tika_heap`` is named, with what the JVM said, not blamed on tika_java."""

from __future__ import annotations

import asyncio

import pytest

from indexer.errors import DocumentError
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service, marked_rtf


@pytest.mark.parametrize(
    ("heap", "said"),
    [("1k", "Too small maximum heap"), ("99999g", "Could not reserve enough space")],
)
def test_a_heap_the_jvm_refuses_names_tika_heap_and_the_jvm_s_words(heap: str, said: str) -> None:
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service(), tika_heap=heap), 1)
    try:
        answer = asyncio.run(tika.parse(Job("rtf", marked_rtf("本文"), "http://127.0.0.1/a", None)))
    finally:
        tika.close()
    assert isinstance(answer, DocumentError) and answer.outcome == "unsupported-format"
    assert f"extract.tika_heap={heap}: " in answer.reason, answer.reason
    assert said in answer.reason, answer.reason
    assert "tika_java" not in answer.reason and "printed nothing" not in answer.reason
