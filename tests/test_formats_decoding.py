"""Plain text that is UTF-8 but for a few stray legacy bytes (a cp932 fragment pasted into a
UTF-8 file) decodes as UTF-8 with replacement characters, not as cp932 mojibake; legacy
Japanese text still decodes as what it is."""

from __future__ import annotations

import pytest

from indexer.encoding import decode_body
from indexer.extract.formats import Limits, parse_document

LINES = (
    "社内報のお知らせです。来週の会議は午後三時から第二会議室で行います。",
    "資料は各自で印刷してください。出席できない方は総務課まで連絡をお願いします。",
    "新しい旅費規程は四月一日から適用されます。",
    "Meeting room 3, 15:00 — 議事録は共有フォルダに置きます。",
)
FRAGMENTS = ("（株）", "①②", "髙橋", "ﾃｽﾄ", "～", "№")


def _with_strays(lines: int, strays: int) -> tuple[bytes, list[str]]:
    """UTF-8 text of ``lines`` lines with ``strays`` cp932 fragments between characters;
    also the pieces of text that must come out whole."""
    text = "\n".join(LINES[i % len(LINES)] for i in range(lines))
    step = len(text) // (strays + 1)
    pieces = [text[i * step : (i + 1) * step] for i in range(strays)] + [text[strays * step :]]
    body = b""
    for i, piece in enumerate(pieces[:-1]):
        body += piece.encode("utf-8") + FRAGMENTS[i % len(FRAGMENTS)].encode("cp932")
    return body + pieces[-1].encode("utf-8"), pieces


@pytest.mark.parametrize(("lines", "strays"), [(1, 1), (1, 2), (2, 1), (4, 3), (20, 5), (80, 12)])
def test_utf8_with_a_few_stray_cp932_bytes_is_utf8(lines: int, strays: int) -> None:
    body, pieces = _with_strays(lines, strays)
    decoded = decode_body(body, "text/plain")
    assert decoded.encoding == "utf-8", (lines, strays, decoded.text[:40])
    assert 0 < decoded.replacements <= 4 * strays
    for piece in pieces:
        for line in piece.splitlines():
            assert line in decoded.text
    parsed = parse_document("text", body, "http://127.0.0.1/n.txt", "text/plain", Limits())
    assert parsed.decoded.encoding == "utf-8" and LINES[0][:10] in parsed.extracted.text


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
@pytest.mark.parametrize("lines", [1, 3, 40])
def test_legacy_japanese_text_is_not_taken_for_utf8(codec: str, lines: int) -> None:
    text = "\n".join(LINES[i % len(LINES)].replace("—", "-") for i in range(lines))
    decoded = decode_body(text.encode(codec), "text/plain")
    assert decoded.encoding == codec and decoded.text == text
