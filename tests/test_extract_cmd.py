"""``indexer extract``: one JSON line per file, errors as lines, decoding from bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli import main


def test_prints_one_line_per_file_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "a.html"
    first.write_bytes(
        '<html><head><meta charset="shift_jis"><title>題名</title></head>'
        '<body><p>①シフトJISの本文です。</p><a href="/x?q=日本">x</a></body></html>'.encode("cp932")
    )
    missing = tmp_path / "missing.html"
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    code = main(["extract", "--url", "http://h.example/p", str(first), str(missing), str(empty)])
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["file"] for line in lines] == [str(first), str(missing), str(empty)]
    assert lines[0]["text"] == "①シフトJISの本文です。"
    assert lines[0]["title"] == "題名"
    assert lines[0]["outlinks"] == ["http://h.example/x?q=%93%FA%96{"]
    assert lines[0]["robots"] == []
    assert "error" in lines[1] and "error" in lines[2]


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["extract"])
    assert info.value.code == 2
