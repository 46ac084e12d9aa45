"""End to end: real pages from the shared corpus served over HTTP, crawled into a real Solr."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.webhost import serve_folder

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "extract-ja"
WEB_LABEL = {
    "cp932": "Shift_JIS",
    "euc_jp": "EUC-JP",
    "iso2022_jp": "ISO-2022-JP",
    "utf-8": "UTF-8",
}


def _corpus_rows() -> list[dict[str, str]]:
    if not (CORPUS / "index.tsv").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"shared corpus missing at {CORPUS} (required in CI)")
        pytest.skip(f"shared corpus not found at {CORPUS}")
    with (CORPUS / "index.tsv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _crawl(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", "crawl", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.solr
def test_every_corpus_page_is_indexed_cleanly(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base_url, core = solr_core
    rows = _corpus_rows()
    # Half of the pages get their true charset in the header, the other half none.
    charsets = {f"{r['id']}.html": WEB_LABEL[r["codec"]] for i, r in enumerate(rows) if i % 2 == 0}
    with serve_folder(CORPUS / "pages", charsets) as site:
        seeds = [f"{site}/{r['id']}.html" for r in rows]
        proc = _crawl(
            [
                "--solr",
                base_url,
                "--core",
                core,
                "--data-dir",
                str(tmp_path / "d"),
                "--delay",
                "0",
                "--max-depth",
                "0",
                "-q",
                "--ignore-noindex",
                "--summary-json",
                str(tmp_path / "s.json"),
                *seeds,
            ],
            tmp_path,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
    assert summary["outcomes"].get("indexed") == len(rows), summary
    resp = requests.get(
        f"{base_url}/{core}/select",
        params={"q": "*:*", "rows": 1000, "fl": "id,title,content,encoding"},
        timeout=30,
    )
    docs = {d["id"]: d for d in resp.json()["response"]["docs"]}
    assert len(docs) == len(rows)
    for row in rows:
        doc = docs[f"{site}/{row['id']}.html"]
        assert doc.get("title"), f"{row['id']} has no title"
        assert doc.get("content"), f"{row['id']} has no content"
        assert "\ufffd" not in doc["content"] + doc["title"], f"{row['id']}: U+FFFD in text"


def test_out_file_without_solr_and_exit_codes(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[1] / "indexer" / "demo" / "sample_site"
    with serve_folder(sample) as site:
        out = tmp_path / "docs.jsonl"
        proc = _crawl(
            [
                "--out",
                str(out),
                "--data-dir",
                str(tmp_path / "d"),
                "--delay",
                "0",
                "-q",
                f"{site}/index.html",
            ],
            tmp_path,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        docs = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
        urls = {d["url"] for d in docs}
        assert f"{site}/rules/leave.html" in urls
        assert not any("/private/" in u for u in urls), "robots.txt Disallow ignored"
        for doc in docs:
            assert {"id", "url", "title", "text", "encoding", "fetched_at"} <= doc.keys()
            assert "\ufffd" not in doc["text"]
        leave = next(d for d in docs if d["url"].endswith("/rules/leave.html"))
        assert leave["encoding"] == "cp932" and "9:00～13:00" in leave["text"]
        assert "よく使うリンク" not in leave["text"], "sidebar leaked into main content"

        bad = _crawl(["--delay", "-1", "--data-dir", str(tmp_path / "e"), f"{site}/"], tmp_path)
        assert bad.returncode == 2 and "fetch.delay" in bad.stderr
        none = _crawl(["--data-dir", str(tmp_path / "e")], tmp_path)
        assert none.returncode == 2 and "crawl.seeds" in none.stderr
