"""``indexer reindex --refresh``: documents stamped by older code are sent again, and the
refreshed index answers like a fresh one (real Solr, real local web server)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from indexer.index.versions import EXTRACTOR_VERSION, SCHEMA_VERSION
from indexer.pipeline.refresh import refresh_need
from indexer.settings import SolrSettings
from indexer.solr.connection import SolrConnection
from indexer.solr.search import search
from tests.webhost import serve_folder

pytestmark = pytest.mark.solr

TEXTS = {
    "jazz": "ノラ・ジョーンズが約2年半ぶりのアルバムを発表しました。ハイレゾ配信も始まります。",
    "grease": "サーマルグリスを塗り直すと、冷却性能が上がります。",
    "tokyo": "東京都庁の展望室は無料で、誰でも入れます。",
    "uniform": "野球部の新しいユニフォームとネットワークインターフェイスの話。",
}
QUERIES = ("ノラジョーンズ", "ハイレゾ", "京都", "グリス", "ユニホーム", "インターフェース")


def _write_site(root: Path) -> None:
    links = "".join(f'<a href="/{name}.html">{name}</a>' for name in TEXTS)
    (root / "index.html").write_text(f"<html><body>{links}</body></html>", "utf-8")
    for name, text in TEXTS.items():
        (root / f"{name}.html").write_text(
            f"<html><head><title>{name}</title></head><body><article><h1>{name}</h1>"
            f"<p>{text}</p><p>{text}</p></article></body></html>",
            "utf-8",
        )


def _cli(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr


def _answers(cfg: SolrSettings) -> dict[str, list[tuple[str, list[str]]]]:
    return {q: [(h["id"], h["snippets"]) for h in search(cfg, q)["hits"]] for q in QUERIES}


def _stored(base: str, core: str) -> list[dict[str, Any]]:
    resp = requests.get(
        f"{base}/{core}/select", params={"q": "*:*", "rows": 100, "fl": "*"}, timeout=30
    )
    docs: list[dict[str, Any]] = resp.json()["response"]["docs"]
    return docs


def _make_old(base: str, core: str) -> None:
    """Rewrite every document as older code would have sent it: other text, old stamps."""
    old = []
    for doc in _stored(base, core):
        doc = {k: v for k, v in doc.items() if k not in ("_version_", "content_bigram")}
        doc.update(content="旧版の抽出結果です。", schema_version=1, extractor_version=0)
        old.append(doc)
    resp = requests.post(f"{base}/{core}/update", params={"commit": "true"}, json=old, timeout=30)
    resp.raise_for_status()


def test_refresh_resends_old_stamped_documents(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    cfg = SolrSettings(url=base, core=core)
    conn = SolrConnection(base)
    root = tmp_path / "site"
    root.mkdir()
    _write_site(root)
    with serve_folder(root) as site:
        common = ["--solr", base, "--core", core, "--data-dir", str(tmp_path / "data")]
        common += ["--delay", "0", "-q"]
        _cli("crawl", *common, f"{site}/index.html")
        fresh = _answers(cfg)
        assert fresh["ノラジョーンズ"] and fresh["京都"] and fresh["ユニホーム"]
        assert {d["schema_version"] for d in _stored(base, core)} == {SCHEMA_VERSION}
        assert refresh_need(conn, core).stale == 0

        _make_old(base, core)
        need = refresh_need(conn, core)
        assert need.stale == need.total > 0
        assert "reindex --refresh" in need.message()
        _cli("reindex", *common)  # unchanged pages are not sent again: still old
        assert search(cfg, "ノラジョーンズ")["numFound"] == 0

        _cli("reindex", "--refresh", *common)
    assert _answers(cfg) == fresh
    stamps = {(d["schema_version"], d["extractor_version"]) for d in _stored(base, core)}
    assert stamps == {(SCHEMA_VERSION, EXTRACTOR_VERSION)}
    assert refresh_need(conn, core).stale == 0
