"""``extract.workers``: ``auto`` by default, ``0`` extracts pages in the crawl process while
documents still parse in a worker process; the ``--out`` record holds the main text once."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from indexer.errors import ConfigError
from indexer.pipeline.looppool import LoopPool
from indexer.pipeline.workers import page_pool, page_workers
from indexer.settings import load_settings
from tests.faultserver import FaultServer, Reply, crawl, html
from tests.formats_fixtures import LIBREOFFICE_PDF


def test_workers_setting_values() -> None:
    assert load_settings(None, {}, environ={}).settings.extract.workers == "auto"
    assert page_workers("auto") == (os.cpu_count() or 1)
    env = {"INDEXER_EXTRACT_WORKERS": "0"}
    assert page_workers(load_settings(None, {}, environ=env).settings.extract.workers) == 0
    for bad in ("-1", "many"):
        with pytest.raises(ConfigError, match=r"extract\.workers"):
            load_settings(None, {}, environ={"INDEXER_EXTRACT_WORKERS": bad})
    with page_pool(0) as inline:
        assert isinstance(inline, ThreadPoolExecutor)
    with page_pool(1) as pool:
        assert isinstance(pool, ProcessPoolExecutor)
    with page_pool(1, "loop") as loop_fed:
        assert isinstance(loop_fed, LoopPool)


def test_inline_extraction_crawls_pages_and_documents(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.page("/", "トップ", ["/a", "/b", "/doc.pdf"])
        srv.route("/a", Reply(body=html("ページA", "本文その一。")))
        srv.route("/b", Reply(body=html("ページB", "本文その二。")))
        pdf = Reply(body=LIBREOFFICE_PDF.read_bytes(), content_type="application/pdf")
        srv.route("/doc.pdf", pdf)
        run = asyncio.run(crawl([srv.url("/")], tmp_path, extract__workers=0))
        pdf_url = srv.url("/doc.pdf")
    assert run.stats.outcomes["indexed"] == 4, run.outcomes
    by_url = {str(d["url"]): d for d in run.docs}
    assert by_url[pdf_url]["format"] == "pdf" and str(by_url[pdf_url]["text"]).strip()
    for doc in run.docs:
        assert "content" not in doc and str(doc["text"]).strip()
    assert "本文その一" in str(by_url[srv.url("/a")]["text"])
