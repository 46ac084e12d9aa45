"""Nothing lost, nothing duplicated: Solr down mid-crawl, the crawler killed, a poison document."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from indexer.index.outbox import Outbox
from indexer.index.stage import IndexStage
from indexer.index.writer import SolrWriter
from indexer.settings import SolrSettings
from indexer.solr.launcher import start_solr, stop_solr
from tests.conftest import _free_port
from tests.webhost import serve_folder

pytestmark = pytest.mark.solr
PAGES = 30


def _site(root: Path) -> Path:
    root.mkdir()
    links = "".join(f'<a href="/p{i}.html">p{i}</a> ' for i in range(PAGES))
    (root / "index.html").write_text(f"<title>top</title><body>{links}</body>", "utf-8")
    for i in range(PAGES):
        (root / f"p{i}.html").write_text(
            f"<title>記事{i}</title><body><article><p>これは記事{i}の本文です。"
            f"社内の規程と手続きを説明します。</p></article></body>",
            "utf-8",
        )
    return root


def _ids(base: str, core: str) -> list[str]:
    resp = requests.get(
        f"{base}/{core}/select", params={"q": "*:*", "rows": 1000, "fl": "id"}, timeout=30
    )
    return [d["id"] for d in resp.json()["response"]["docs"]]


def _children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


def _gone(pids: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.1)
    return False


def _crawl_cmd(base: str, data: Path, site: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "indexer",
        "crawl",
        "--solr",
        base,
        "--data-dir",
        str(data),
        "-q",
        *extra,
        f"{site}/index.html",
    ]


class _StderrLines:
    """Reads a child's stderr in a thread so that a test can wait for a line."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        self._stream = proc.stderr
        self._lines: list[str] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._stream:
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()

    def wait_for(self, text: str, timeout: float) -> bool:
        """Whether a line containing ``text`` arrived within ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: any(text in x for x in self._lines), timeout)

    def join(self) -> None:
        self._thread.join(timeout=30)

    def text(self) -> str:
        with self._changed:
            return "".join(self._lines)


def test_solr_down_mid_crawl_loses_nothing(tmp_path: Path) -> None:
    port, home = _free_port(), tmp_path / "solr"
    base = start_solr(port=port, solr_home=home)
    try:
        with serve_folder(_site(tmp_path / "site")) as site:
            env = {
                **os.environ,
                "INDEXER_SOLR_BATCH_SIZE": "5",
                "INDEXER_SOLR_COMMIT_WITHIN_MS": "500",
            }
            crawl = subprocess.Popen(
                _crawl_cmd(base, tmp_path / "d", site, "--delay", "0.15"),
                env=env,
                stderr=subprocess.PIPE,
                text=True,
            )
            lines = _StderrLines(crawl)
            try:
                deadline = time.monotonic() + 60
                while not _ids(base, "pages") and time.monotonic() < deadline:
                    time.sleep(0.2)
                stop_solr(port, home)
                # the crawler noticed: its index stage waits for Solr (and retries)
                assert lines.wait_for("Solr unavailable", timeout=60), lines.text()
                assert crawl.poll() is None, "the crawl failed while Solr was down"
                start_solr(port=port, solr_home=home)
                crawl.wait(timeout=180)
            finally:
                if crawl.poll() is None:
                    crawl.kill()
                lines.join()
            assert crawl.returncode == 0, lines.text()
        ids = _ids(base, "pages")
        assert len(ids) == len(set(ids)) == PAGES + 1
    finally:
        stop_solr(port, home)


def test_kill_9_then_resume_indexes_every_page_once(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    data = tmp_path / "d"
    with serve_folder(_site(tmp_path / "site")) as site:
        crawl = subprocess.Popen(
            _crawl_cmd(base, data, site, "--delay", "0.1"),
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while len(_ids(base, core)) < 5 and time.monotonic() < deadline:
                time.sleep(0.1)
                requests.get(f"{base}/{core}/update", params={"commit": "true"}, timeout=30)
            workers = _children(crawl.pid)
        finally:
            os.kill(crawl.pid, signal.SIGKILL)
            crawl.wait(10)
        try:
            assert workers, "the crawl had no worker processes to check"
            assert _gone(workers, timeout=10), f"workers outlived the crawler: {workers}"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(crawl.pid, signal.SIGKILL)  # its session: nothing may linger
        seen = len(_ids(base, core))
        assert 0 < seen < PAGES + 1, f"kill came too late to test resume ({seen} indexed)"
        resumed = subprocess.run(
            [*_crawl_cmd(base, data, site, "--delay", "0")[:-1], "--resume"],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert resumed.returncode == 0, resumed.stderr
    ids = _ids(base, core)
    assert len(ids) == len(set(ids)) == PAGES + 1


async def test_poison_document_is_isolated(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(10):
        doc = {"id": f"http://poison.test/{i}", "host": "poison.test", "title": f"doc {i}"}
        if i == 4:
            doc["published"] = "not-a-date"  # a value Solr cannot parse: a bad document
        outbox.add(doc)
    rejected: list[tuple[str, str]] = []
    indexed: list[int] = []
    cfg = SolrSettings(url=base, core=core, batch_size=10)
    stage = IndexStage(
        outbox, SolrWriter(cfg), cfg, lambda i, m: rejected.append((i, m)), indexed.append
    )
    stage.close()
    await asyncio.wait_for(stage.run(), 60)
    assert [doc_id for doc_id, _ in rejected] == ["http://poison.test/4"]
    assert "published" in rejected[0][1]
    assert sum(indexed) == 9 and outbox.count() == 0
    assert sorted(_ids(base, core)) == sorted(
        f"http://poison.test/{i}" for i in range(10) if i != 4
    )
    outbox.close()
