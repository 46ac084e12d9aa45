"""``indexer detect`` (indexer.cli.detect_cmd)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli import main


def test_detect_prints_one_json_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_bytes("<p>髙橋さん、①番です。</p>".encode("cp932"))
    assert main(["detect", "--content-type", "text/html; charset=x-sjis", str(page)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "encoding": "cp932",
        "source": "header",
        "replacements": 0,
    }


def test_detect_text_prints_utf8(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    page = tmp_path / "page.txt"
    page.write_bytes("こんにちは、せかい。ありがとう。".encode("euc_jp"))
    assert main(["detect", "--text", str(page)]) == 0
    assert capsysbinary.readouterr().out == "こんにちは、せかい。ありがとう。".encode()


def test_detect_binary_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "x.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert main(["detect", str(image)]) == 0
    assert json.loads(capsys.readouterr().out)["encoding"] == "binary"


def test_detect_unreadable_file_exits_2(tmp_path: Path) -> None:
    assert main(["detect", str(tmp_path / "missing.html")]) == 2
