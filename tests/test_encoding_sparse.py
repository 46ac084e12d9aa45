"""Thin evidence (:mod:`indexer.encoding.sparse`): pages of ASCII with one or two
multibyte sequences decode in the encoding they were written in (issue #32)."""

from __future__ import annotations

import pytest

from indexer.encoding import decode_body

LINES = (
    "Price list for the new office chairs, updated weekly. Contact: {word}",
    "Meeting room {word} is booked from 10:00 to 11:30 by the sales team.",
    "<p>Note: the build server is down tonight. {word}</p>",
)


def _page(line: str, word: str) -> str:
    return f"<html><body><p>{line.format(word=word)}</p></body></html>"


@pytest.mark.parametrize(
    ("encoding", "word"),
    [
        *(("euc_jp", kanji) for kanji in ("価", "会", "済", "東京", "新", "品")),
        *(("cp932", kana) for kana in ("ア", "ネ", "の", "テスト", "会")),
    ],
)
@pytest.mark.parametrize("line", LINES)
def test_one_japanese_word_among_ascii_decodes_as_written(
    encoding: str, word: str, line: str
) -> None:
    """One EUC-JP kanji (two bytes that are also two half-width katakana in Shift_JIS and
    two Latin symbols in windows-1252), one Shift_JIS kana or kanji."""
    page = _page(line, word)
    decoded = decode_body(page.encode(encoding), "text/html")
    assert decoded.encoding == encoding, (page, decoded.text)
    assert decoded.text == page


@pytest.mark.parametrize(
    "line",
    [
        "The caf\u00e9 serves cr\u00e8me br\u00fbl\u00e9e \u2013 \u201cbest in town\u201d.",
        "Price: 5\u20ac per item, \u00a312 in London.",
        "He said \u201chello\u201d and left \u2014 quickly.",
        "Rendez-vous \u00e0 la gare, d\u00e9j\u00e0 vu.",
        "Se\u00f1or Pe\u00f1a, feliz a\u00f1o nuevo.",
        "\u00a9 2024 Example Inc. \u00ae \u2122",
        "Z\u00fcrich and M\u00fcnchen send Gr\u00fc\u00dfe.",
        "It\u2019s 20\u00b0C today \u2026 nice.",
    ],
)
def test_a_windows_1252_line_stays_windows_1252(line: str) -> None:
    page = _page(line, "")
    decoded = decode_body(page.encode("cp1252"), "text/html")
    assert decoded.encoding == "windows-1252", (page, decoded.text)
    assert decoded.text == page


@pytest.mark.parametrize(
    "line", ["Area: 20 m\u00b2 at \u00bd price.", "Caf\u00e9 \u00e0 la carte, 5\u00a0\u20ac."]
)
def test_a_latin_declaration_over_latin_symbols_is_honoured(line: str) -> None:
    page = _page(line, "")
    decoded = decode_body(page.encode("cp1252"), "text/html; charset=iso-8859-1")
    assert decoded.encoding == "windows-1252" and decoded.text == page
