"""``indexer extract FILE`` on each format and each hostile document: the Japanese title
and text, or the outcome a crawl gives the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.formats_fixtures import EXPECTED, hostile, site

ROOT = Path(__file__).resolve().parents[1]


def _extract(files: list[Path], *args: str, **env: str) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "extract", *args, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _write(tmp_path: Path, documents: dict[str, bytes]) -> dict[str, Path]:
    paths = {}
    for path, body in documents.items():
        target = tmp_path / path.strip("/").replace("/", "_")
        target.write_bytes(body)
        paths[path] = target
    return paths


def test_each_format_gives_its_japanese_title_and_text(tmp_path: Path) -> None:
    paths = _write(tmp_path, {p: body for p, (body, _type) in site().items()})
    records = dict(zip(paths, _extract(list(paths.values())), strict=True))
    for path, (title, phrase) in EXPECTED.items():
        record = records[path]
        assert record["title"] == title, record
        assert phrase in record["text"].replace("\n", ""), record
    assert records["/rules/shugyo.pdf"]["page_count"] == 2
    assert records["/rules/shugyo.pdf"]["author"] == "人事部"
    assert records["/rules/shugyo.pdf"]["created"]
    assert records["/lists/meibo.xlsx"]["text"].index("経理部") > 0  # the second sheet's name
    assert records["/training/security.pptx"]["page_count"] == 3
    assert "実例を見せる" in records["/training/security.pptx"]["text"]  # the third's notes
    for path, codec in (("/notice/sjis.txt", "cp932"), ("/notice/euc.txt", "euc_jp")):
        assert (records[path]["encoding"], records[path]["lang"]) == (codec, "ja")
    assert records["/export/kaigi.csv"]["encoding"] == "cp932"


def test_hostile_documents_end_with_their_outcome(tmp_path: Path) -> None:
    cases = hostile()
    paths = _write(tmp_path, {p: body for p, (body, _t, _o) in cases.items()})
    records = _extract(list(paths.values()), INDEXER_EXTRACT_MAX_PDF_PAGES="100")
    got = dict(zip(paths, records, strict=True))
    for path, (_body, _type, outcome) in cases.items():
        if outcome == "indexed":
            assert "outcome" not in got[path], got[path]
        else:  # claims.pdf too: its name stands for the missing --content-type
            assert got[path]["outcome"] == outcome, got[path]
    many = got["/bad/many.pdf"]
    assert many["page_count"] == 3000 and "第100頁" in many["text"]
    assert "第101頁" not in many["text"] and many["note"] == "text of the first 100 of 3000 pages"
    claims = _extract([paths["/bad/claims.pdf"]], "--content-type", "application/pdf")
    assert claims[0]["outcome"] == "wrong-type" and "application/pdf" in claims[0]["error"]
