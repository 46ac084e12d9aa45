"""`indexer reindex --repair` against a real Solr: a truncated outbox is refused by every
command with the way out; the repair recreates it and re-sends exactly the documents Solr
lacks or holds at an older content hash, saying how many."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from indexer.pipeline.resend import stale_documents
from tests.faultserver import FaultServer, Reply, html

PAGES = 12
ROOT = Path(__file__).resolve().parents[1]


def test_stale_documents_are_the_missing_and_the_older() -> None:
    indexed = [("u1", "u1", "h1"), ("u2", "u2", "h2"), ("u3", "u3", "h3"), ("r", "t", "h4")]
    in_solr = {"u1": "h1", "u2": "old", "t": "h4", "other": "x"}
    assert stale_documents(indexed, in_solr) == ["u2", "u3"]
    assert stale_documents([], in_solr) == []


def _indexer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _hashes(base: str, core: str) -> dict[str, str]:
    resp = requests.get(
        f"{base}/{core}/select",
        params={"q": "*:*", "rows": 1000, "fl": "id,content_hash"},
        timeout=30,
    )
    return {d["id"]: d["content_hash"] for d in resp.json()["response"]["docs"]}


def _update(base: str, core: str, body: object) -> None:
    resp = requests.post(f"{base}/{core}/update", params={"commit": "true"}, json=body, timeout=30)
    resp.raise_for_status()


@pytest.mark.solr
def test_repair_after_a_truncated_outbox(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    data = tmp_path / "data"
    pages = [f"/p{i}" for i in range(PAGES)]
    with FaultServer() as srv:
        srv.route("/", Reply(body=html("Home", "All the pages.", links=pages)))
        srv.route("/robots.txt", Reply(status=404, body="no"))
        for i, path in enumerate(pages):
            srv.route(path, Reply(body=html(f"Page {i}", f"Text of page {i}. " * 30)))
        common = ["--solr", base, "--core", core, "--data-dir", str(data), "--delay", "0", "-q"]
        first = _indexer("crawl", srv.url("/"), *common)
        assert first.returncode == 0, first.stderr
        good = _hashes(base, core)
        assert len(good) == PAGES + 1
        # what a lost outbox leaves: 4 documents never arrived, 3 arrived at an older hash
        lost = [srv.url(p) for p in pages[:4]]
        older = [srv.url(p) for p in pages[4:7]]
        _update(base, core, {"delete": lost})
        _update(base, core, [{"id": u, "content_hash": {"set": "0" * 40}} for u in older])
        (data / "outbox.sqlite3").write_bytes(b"")
        for args in (["crawl", "--resume", *common], ["reindex", *common]):
            refused = _indexer(*args)
            assert refused.returncode == 2, refused.stderr
            assert "outbox.sqlite3" in refused.stderr and "reindex --repair" in refused.stderr
        before = len(srv.log())
        fixed = _indexer("reindex", "--repair", *common)
        assert fixed.returncode == 0, fixed.stderr
        assert "re-sent 7 of 7 documents" in fixed.stderr, fixed.stderr
        assert "outbox.sqlite3.broken-1" in fixed.stderr
        fetched = {h.path for h in srv.log()[before:]}
        assert fetched <= {"/", "/robots.txt", *pages[:7]}, fetched  # no recrawl
        assert set(pages[:7]) <= fetched
        assert _hashes(base, core) == good
        again = _indexer("reindex", "--repair", *common)
        assert again.returncode == 0 and "re-sent 0 of 0" in again.stderr, again.stderr
        resumed = _indexer("crawl", "--resume", *common)
        assert resumed.returncode == 0, resumed.stderr
        for side in ("", "-wal", "-shm"):  # an outbox deleted by hand: its changes are lost
            (data / f"outbox.sqlite3{side}").unlink(missing_ok=True)
        gone = _indexer("crawl", "--resume", *common)
        assert gone.returncode == 2 and "outbox.sqlite3: missing" in gone.stderr, gone.stderr
        assert "reindex --repair" in gone.stderr
        assert _indexer("reindex", "--repair", *common).returncode == 0
        assert (data / "outbox.sqlite3").exists()
