"""The Tika-format fixtures (``fixtures/tika/``, made by its ``make_fixtures.py`` with
LibreOffice) and what each must yield; the built Tika service for the tests that need it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from indexer import formats as ids
from indexer.extract.formats.tika_service import build_tika_service

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "tika"
SERVICE_DIR = ROOT / "tika-service"

_TEXT = ("就業規則改定のお知らせ", ("有給休暇の申請は五営業日前まで", "山田太郎"))
_SHEETS = ("経費精算一覧表", ("四月", "出張旅費精算", "五月", "備品購入申請"))
_SLIDES = ("新製品発表会資料", ("新製品発表会の案内", "会場は本社三階です", "販売目標と市場分析"))


def _named(kind: tuple[str, tuple[str, ...]], label: str) -> tuple[str, tuple[str, ...]]:
    """A kind's title and phrases, the last one naming the file's format (its own)."""
    return kind[0], (*kind[1], f"{label}形式")


#: ``{file name: (format, title, phrases of its text)}``; sheet names and notes included;
#: the last phrase is the one only that file has (``make_fixtures.TARGETS``).
EXPECTED = {
    "sample.doc": ("doc", *_named(_TEXT, "ワード97")),
    "sample.rtf": ("rtf", *_named(_TEXT, "リッチテキスト")),
    "sample.odt": ("odt", *_named(_TEXT, "オープンドキュメント文書")),
    "sample.xls": ("xls", *_named(_SHEETS, "エクセル97")),
    "sample.ods": ("ods", *_named(_SHEETS, "オープンドキュメント表計算")),
    "sample.ppt": ("ppt", *_named(_SLIDES, "パワーポイント97")),
    "sample.odp": ("odp", *_named(_SLIDES, "オープンドキュメントプレゼンテーション")),
}
#: The formats that need the Tika service (the others are read in Python).
TIKA = ("doc", "xls", "ppt", "rtf")


def site() -> dict[str, tuple[bytes, str]]:
    """``{path: (body, Content-Type)}`` of the fixtures as a web site serves them."""
    return {
        f"/tika/{name}": ((FIXTURES / name).read_bytes(), ids.MEDIA_TYPES[fmt])
        for name, (fmt, _title, _phrases) in EXPECTED.items()
    }


def built_service() -> Path:
    """The Tika service's Maven project, built (skips without java or mvn)."""
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the Tika service needs java and mvn on PATH")
    build_tika_service(SERVICE_DIR)
    return SERVICE_DIR


def path_without_java(tmp: Path) -> str:
    """A PATH of one empty folder: no java on it (tests run python by its full path)."""
    folder = tmp / "bin-without-java"
    folder.mkdir(exist_ok=True)
    return str(folder)


#: The bytes that make the service's test-only hook hold a document (``TestHold.java``).
HOLD_MARKER = "INDEXER-TIKA-HOLD"


def hold_env(folder: Path) -> dict[str, str]:
    """The environment that turns the service's hold hook on, armed (``folder/armed``): a
    JVM started under it holds each marked document, creating ``folder/held-PID-N``."""
    folder.mkdir(exist_ok=True)
    (folder / "armed").touch()
    return {"JAVA_TOOL_OPTIONS": f"-Dindexer.tika.holdDir={folder}"}


def marked_rtf(text: str) -> bytes:
    """A small RTF whose text is ``text`` (cp932 escapes) and the hold marker."""
    escaped = "".join(f"\\'{b:02x}" for b in text.encode("cp932"))
    return f"{{\\rtf1\\ansi\\ansicpg932 {escaped}\\par {HOLD_MARKER}\\par}}".encode("ascii")


def held_pids(folder: Path) -> list[int]:
    """The pid of each document held so far (``held-PID-N``), one per held document."""
    return [int(p.name.split("-")[1]) for p in sorted(folder.glob("held-*"))]
