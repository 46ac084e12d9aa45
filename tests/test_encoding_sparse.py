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


@pytest.mark.parametrize("word", ["峠", "畑", "働"])
@pytest.mark.parametrize("line", LINES)
def test_one_euc_jp_kanji_that_is_also_valid_utf8_decodes_as_euc_jp(word: str, line: str) -> None:
    """Bytes C6–DF then A1–BF are one EUC-JP kanji and one valid two-byte UTF-8 sequence
    of Latin Extended-B (峠 → ƽ, 畑 → Ȫ, 働 → Ư): a letter no text writes alone."""
    page = _page(line, word)
    decoded = decode_body(page.encode("euc_jp"), "text/html")
    assert (decoded.encoding, decoded.text) == ("euc_jp", page)


@pytest.mark.parametrize(
    "text",
    [
        "Aperture \u0192 2.8 at 1/250 s.",
        "The vowel \u0259 is a schwa; stress \u02c8 comes first.",
        "Vi\u1ec7t Nam: H\u1ed3 Ch\u00ed Minh, \u01b0u ti\u00ean.",
        "\u0420\u0443\u0441\u0441\u043a\u0438\u0439 \u0432 \u0434\u043e\u043c\u0435",
        "Click consonant \u01c2 and \u01c0 in Khoekhoe.",
        "The short vowel /\u026a/ as in sit, /\u02a4/ as in jam.",
        "A tap [\u027e] and a glottal stop (\u02bb).",
    ],
)
def test_utf8_with_rare_latin_or_other_scripts_stays_utf8(text: str) -> None:
    page = _page("{word}", text)
    decoded = decode_body(page.encode("utf-8"), "text/html")
    assert (decoded.encoding, decoded.text) == ("utf-8", page)


@pytest.mark.parametrize(
    "line",
    ["Today we ate {word} for lunch.", "Lunch: {word} and rice.", "Menu of the day: {word}"],
)
def test_one_shift_jis_kanji_is_not_read_as_johab(line: str) -> None:
    """The detector answers Johab (a DOS-era Korean code page outside the WHATWG Encoding
    Standard) for 鰯 in Shift_JIS among ASCII: no web page is written in it."""
    page = _page(line, "鰯")
    decoded = decode_body(page.encode("cp932"), "text/html")
    assert (decoded.encoding, decoded.text) == ("cp932", page)
