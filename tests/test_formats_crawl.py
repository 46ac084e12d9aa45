"""A crawl of a local site of documents into the real Solr: each format indexed with its
Japanese title and text and found by ``indexer search``; each hostile document ends with its
outcome; the crawl and its worker processes stay under 1.5 GB of summed RSS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import psutil
import pytest
import requests

from indexer.cli import main
from indexer.crawl.frontier import Frontier
from tests.faultserver import FaultServer, Reply
from tests.formats_fixtures import EXPECTED, hostile, site

ROOT = Path(__file__).resolve().parents[1]
RSS_LIMIT = 1536 * 1024 * 1024


class RssSampler:
    """Peak of the summed RSS of a process and its descendants, sampled every 100 ms."""

    def __init__(self, pid: int) -> None:
        self.peak = 0
        self._root = psutil.Process(pid)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(0.1):
            total = 0
            try:
                for proc in [self._root, *self._root.children(recursive=True)]:
                    total += proc.memory_info().rss
            except psutil.Error:
                continue  # a worker that just ended
            self.peak = max(self.peak, total)

    def stop(self) -> int:
        self._done.set()
        self._thread.join(5)
        return self.peak


def _serve(srv: FaultServer) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    documents, bad = site(), hostile()
    srv.page("/", "資料室", [*documents, *bad])
    for path, (body, media) in documents.items():
        srv.route(path, Reply(body=body, content_type=media))
    for path, (body, media, _outcome) in bad.items():
        srv.route(path, Reply(body=body, content_type=media))
    return EXPECTED, {path: outcome for path, (_b, _m, outcome) in bad.items()}


@pytest.mark.solr
@pytest.mark.slow
def test_a_site_of_documents_is_indexed_and_searchable(
    solr_core: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base_url, core = solr_core
    data = tmp_path / "data"
    with FaultServer() as srv:
        expected, outcomes = _serve(srv)
        cmd = [sys.executable, "-m", "indexer", "crawl", "--solr", base_url, "--core", core]
        cmd += ["--data-dir", str(data), "--delay", "0", "-q", srv.url("/")]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "INDEXER_EXTRACT_WORKERS": "2"}
        proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
        sampler = RssSampler(proc.pid)
        try:
            _out, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            peak = sampler.stop()
    assert proc.returncode == 0, err[-2000:]
    assert peak < RSS_LIMIT, f"summed RSS peaked at {peak / 2**20:.0f} MiB"
    with Frontier(data) as frontier:
        got = {url.removeprefix(srv.base()): (o, r) for url, _h, o, r in frontier.outcomes()}
    for path in expected:
        assert got[path][0] == "indexed", (path, got[path])
    for path, outcome in outcomes.items():
        assert got[path][0] == outcome, (path, got[path])
    assert got["/bad/many.pdf"][1] == "text of the first 2000 of 3000 pages"

    _check_index(base_url, core, srv.base(), expected, capsys)


def _check_index(
    base_url: str,
    core: str,
    site: str,
    expected: dict[str, tuple[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The stored fields, and each document found by ``indexer search`` for its phrase."""
    stored = requests.get(
        f"{base_url}/{core}/select",
        params={"q": "format:*", "rows": 100, "fl": "url,title,format,content_type,page_count"},
        timeout=30,
    ).json()["response"]["docs"]
    by_path = {d["url"].removeprefix(site): d for d in stored}
    assert by_path["/dl/octet.pdf"]["content_type"] == "application/pdf"
    assert by_path["/dl/zipped.docx"]["format"] == "docx"
    assert by_path["/bad/many.pdf"]["page_count"] == 3000
    for path, (title, phrase) in expected.items():
        assert by_path[path]["title"] == title
        assert main(["search", "--solr", base_url, "--core", core, "--json", f'"{phrase}"']) == 0
        hits = json.loads(capsys.readouterr().out)["hits"]
        assert hits and hits[0]["url"] == site + path, (phrase, hits)
