"""``extract.worker_memory``: its minimum is a limit under which a document worker starts
and parses every kind of document (measured: ~112 MiB; the minimum is 256 MiB), and a
smaller value fails at settings load with one line naming the setting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from indexer.errors import ConfigError
from indexer.extract.formats import Limits, ParsedDocument
from indexer.pipeline.docworkers import DocumentWorkers, Job
from indexer.settings import load_settings
from tests.formats_fixtures import EXPECTED, LIBREOFFICE_PDF, site

ROOT = Path(__file__).resolve().parents[1]
MINIMUM = (
    type(load_settings(None, None, environ={}).settings.extract)
    .model_fields["worker_memory"]
    .metadata[0]
    .ge
)


def test_the_minimum_is_validated_at_load_with_one_line() -> None:
    assert MINIMUM >= 256 << 20
    with pytest.raises(ConfigError, match=r"extract\.worker_memory"):
        load_settings(None, {"extract.worker_memory": 64 << 20}, environ={})
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "extract", str(LIBREOFFICE_PDF)],
        env={"PYTHONPATH": str(ROOT), "INDEXER_EXTRACT_WORKER_MEMORY": str(64 << 20)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "extract.worker_memory" in proc.stderr


async def test_a_worker_at_the_minimum_parses_every_kind() -> None:
    documents = site()
    kinds = {"pdf": "pdf", "docx": "docx", "xlsx": "xlsx", "pptx": "pptx"}
    kinds.update({"txt": "text", "csv": "csv"})
    with DocumentWorkers(1, Limits(), 60, MINIMUM) as workers:
        for path, (body, media) in documents.items():
            fmt = kinds.get(path.rsplit(".", 1)[-1])
            if fmt is None:
                continue
            answer = await workers.parse(Job(fmt, body, "http://127.0.0.1" + path, media))
            assert isinstance(answer, ParsedDocument), (path, answer)
            assert answer.extracted.title == EXPECTED[path][0]
        assert workers.replaced == 0
