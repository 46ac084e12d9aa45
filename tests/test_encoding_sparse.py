"""Thin evidence (:mod:`indexer.encoding.sparse`): pages of ASCII with one or two
multibyte sequences decode in the encoding they were written in (issue #32)."""

from __future__ import annotations

import random

import pytest

from indexer.encoding import decode_body
from indexer.encoding.prior import COMMON_KANJI

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
        # found by an attack: a JIS level-1 name kanji outside the kyōiku list is two
        # half-width katakana in Shift_JIS (辻 → ﾄﾔ), which tied; half-width words stay
        *(("euc_jp", kanji) for kanji in ("辻", "堀", "浜", "菊", "亀", "禅")),
        *(("cp932", kana) for kana in ("ﾒﾓ", "ｶﾞ", "ﾃｽﾄ")),
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
        "Caf\u00e9 \u00e0 la carte.",
        "Norwegian: \u00e5 v\u00e6re.",
        "Area of a circle: \u03c0 r\u00b2, with \u03b1 and \u03bc.",
        "\u00a9 2024 and \u00b6 and \u00a7 4.",
        "Stress \u02c8 and the vowel \u026a in kit.",
        "Raise \u03b1\u00b2 to the power.",
        "Author: \u0418\u0432\u0430\u043d",
        "Written by \u0418\u0432\u0430\u043d \u041f\u0435\u0442\u0440\u043e\u0432.",
        "Say \u0434\u0430 (yes).",
        "Source<sup>\u00b9</sup> and 50 m<sup>\u00b2</sup>.",
    ],
)
def test_utf8_with_rare_latin_or_other_scripts_stays_utf8(text: str) -> None:
    """Lone Latin-1 vowels are words (à, å); Greek letters, IPA and signs are notation."""
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


def _decodes_as_written(word: str, encoding: str, line: str) -> bool:
    page = _page(line, word)
    return decode_body(page.encode(encoding), "text/html").text == page


@pytest.mark.parametrize(("encoding", "least"), [("euc_jp", 0.9), ("cp932", 0.98)])
def test_one_kyoiku_kanji_among_ascii_decodes_as_written(encoding: str, least: float) -> None:
    """Each of the 1,026 kanji taught in primary school, alone in an English line: one
    EUC-JP kanji is also two Latin-1 signs (``»÷``), a valid UTF-8 letter (単 → ñ) or a
    word of a DOS code page; one Shift_JIS kanji is a windows-1252 quote or dash glued to
    one letter (様 → ``—l``, 駅 → ``‰w``). Before: 81 % and 64 %. What is left is the
    ambiguity itself (息 → ©, 的 → ``“I``)."""
    line = LINES[1]
    right = sum(_decodes_as_written(k, encoding, line) for k in sorted(COMMON_KANJI))
    assert right >= least * len(COMMON_KANJI), right


@pytest.mark.parametrize("encoding", ["euc_jp", "cp932"])
def test_two_kyoiku_kanji_among_ascii_decode_as_written(encoding: str) -> None:
    """Two-kanji words (部長, 予定 and 200 pairs drawn with a fixed seed): the detector
    answers a DOS or Mac code page (cp850, mac-roman) for some, weighed by its reading."""
    kanji = sorted(COMMON_KANJI)
    draw = random.Random(32)
    words = ["部長", "予定", *(draw.choice(kanji) + draw.choice(kanji) for _ in range(200))]
    wrong = [w for w in words if not _decodes_as_written(w, encoding, LINES[0])]
    assert len(wrong) <= 4, wrong


@pytest.mark.parametrize(
    "line",
    [
        "\u00a9 2024 Example Inc.",
        "Stra\u00dfe 5, Berlin",
        "It is 20\u00b0C outside.",
        "Add \u00bd cup of milk.",
        "\u00ab Bonjour \u00bb, dit-il.",
        "See \u00a7 3 of the contract.",
        "<b>McDonald</b>\u2019s opens at nine.",
        "\u201cI\u2019m sure,\u201d she said.",
        "Play some rock \u2019n\u2019 roll \u2014 loud.",
        "The \u201990s were \u2018different\u2019.",
        "Permalink \u00b6",
        "Home \u00b7 About \u00b7 Contact",
        "Preheat to 180 \u00b0C (350 \u00b0F).",
        "<td>25 \u00b0C</td><td>77 \u00b0F</td>",
        "Temp (\u00b0C): 21",
        "Ratio A\u00b7B",
        "<td>\u00acp</td>",
        "Add \u00bd\u2013\u00be cup of milk.",
    ],
)
def test_a_windows_1252_line_with_few_signs_stays_windows_1252(line: str) -> None:
    """One Latin-1 sign is one half-width katakana in Shift_JIS (© → ｩ), which the
    detector took before (a lone ©, °, ½, ß decoded as Shift_JIS); apostrophes before
    clitics and quotes before one-letter words are typography, not Shift_JIS pairs."""
    page = _page(line, "")
    decoded = decode_body(page.encode("cp1252"), "text/html")
    assert (decoded.encoding, decoded.text) == ("windows-1252", page)


@pytest.mark.parametrize("word", ["単", "長", "予", "状"])
@pytest.mark.parametrize("line", LINES)
def test_one_euc_jp_kanji_read_as_a_lone_letter_decodes_as_euc_jp(word: str, line: str) -> None:
    """EUC-JP bytes that are a valid UTF-8 letter standing alone, which no text writes
    so: a Latin-1 consonant (単 → ñ), Latin Extended-A (長 → Ĺ), a Greek sign (予 → ͽ),
    Cyrillic (状 → С)."""
    page = _page(line, word)
    decoded = decode_body(page.encode("euc_jp"), "text/html")
    assert (decoded.encoding, decoded.text) == ("euc_jp", page)


@pytest.mark.parametrize(
    ("encoding", "line"),
    [
        *(
            (encoding, line)
            for encoding in ("euc_jp", "cp932")
            for line in (
                "\u203b Prices include tax.",
                "Tanaka \u30fb Sato",
                "<li>Ref \u203b12</li>",
                "Release owner: \u4f0a\u85e4",
                "Thanks for reading. \u4f50\u85e4",
                "Release owner: \u4e09\u6d66",
                'The product is called "\u8aad\u58f2" in the catalogue.',
                # found by a second attack: a symbol glued to a word, an apostrophe
                "<li>\u2605New arrivals</li>",
                "\u6e0b\u8c37 office: it\u2019s open.",
            )
        ),
        ("euc_jp", "<li>\u30fbnew</li>"),
        ("cp932", "<li>\u2460Note</li>"),
        ("cp932", "\u3231ABC Holdings"),
        ("euc_jp", "Model: \uff7a\uff9d\uff8b\uff9f\uff6d\uff70\uff80"),
        ("euc_jp", "See the \uff8f\uff86\uff6d\uff71\uff99."),
        ("cp932", "Mode: \uff8a\uff9f\uff7d\uff9c\uff70\uff84\uff9e"),
        ("cp932", "Step \u2460 then \u2461."),
        ("euc_jp", "Updated: 2024\u5e74"),
        ("euc_jp", "<li>Ref \u670912</li>"),
    ],
)
def test_japanese_symbols_names_and_dates_among_ascii_decode_as_written(
    encoding: str, line: str
) -> None:
    """Found by an attack: JIS symbols (※ ① ・) were not counted as Japanese, a kanji
    beside digits read as UTF-8 (年 → ǯ), and a Korean, Chinese or Arabic answer of the
    detector was never weighed (伊藤 → 검튁, 三浦 → 窻发, 読売 → ئةال)."""
    page = _page(line, "")
    decoded = decode_body(page.encode(encoding), "text/html")
    assert (decoded.encoding, decoded.text) == (encoding, page)


@pytest.mark.parametrize("encoding", ["euc_jp", "cp932"])
def test_japanese_after_64_kib_of_ascii_decodes_as_written(encoding: str) -> None:
    """A long ASCII page whose only Japanese is in its footer, past the bytes the
    detector reads: the evidence is gathered from the whole body."""
    line = "<p>This section describes the configuration options of the service.</p>\n"
    page = _page(line * 1200 + "<footer>\u62c5\u5f53: \u7530\u4e2d</footer>", "")
    decoded = decode_body(page.encode(encoding), "text/html")
    assert (decoded.encoding, decoded.text) == (encoding, page)


def test_a_latin_sign_that_iso_8859_15_reads_as_a_lone_letter_stays_windows_1252() -> None:
    """The detector answers ISO-8859-15 for ½ in a title, whose reading is a lone œ (found
    by an attack): without a euro or its letters inside words, windows-1252 it is."""
    page = (
        "<!DOCTYPE html>\n<html><head><title>Gr\u00f6\u00dfe: \u00bd m\u00b2 - Project Notes"
        "</title></head>\n<body>\n<h1>Weekly update</h1>\n<p>The build server was upgraded "
        "on Monday.</p>\n</body></html>\n"
    )
    decoded = decode_body(page.encode("cp1252"), "text/html")
    assert (decoded.encoding, decoded.text) == ("windows-1252", page)


@pytest.mark.parametrize(
    ("encoding", "words"),
    [
        ("euc_kr", "대한민국 정부는 국민의 안전을 위해"),
        ("euc_kr", "회의실 예약 안내"),
        ("euc_jp", "田中 太郎"),
        ("euc_jp", "伊藤 博文"),
    ],
)
@pytest.mark.parametrize("line", LINES)
def test_a_korean_sentence_stays_korean_and_a_japanese_name_japanese(
    encoding: str, words: str, line: str
) -> None:
    """Korean writes spaces between its words, so three spaced hangul words are Korean
    (CI found a Korean sentence decoded as EUC-JP once a tie went to Japanese); a
    Japanese name spaced as family and given name stays Japanese. One Korean word alone
    (안녕하세요) still reads as Japanese on thin evidence: no prior here ranks hangul."""
    page = _page(line, words)
    decoded = decode_body(page.encode(encoding), "text/html")
    assert (decoded.encoding, decoded.text) == (encoding, page)


@pytest.mark.parametrize(
    ("body", "encoding"),
    [
        (b"Thanks,\nAndr\xe9", "windows-1252"),
        ("Best regards,\n\uff76\uff8c\uff6a".encode("cp932"), "cp932"),
        ("see \uff83\uff7d\uff84".encode("cp932"), "cp932"),
        ("Hello (\u015f)".encode(), "utf-8"),
    ],
)
def test_a_body_ending_in_its_only_multibyte_character_decodes_as_written(
    body: bytes, encoding: str
) -> None:
    """Found by a second attack: a short body is whole, so a lead byte ending it is not a
    character cut by a sample (``Andr\\xe9`` read as UTF-8 with U+FFFD)."""
    decoded = decode_body(body, "text/plain")
    assert decoded.encoding == encoding, decoded
    assert "\ufffd" not in decoded.text


def test_a_korean_sentence_after_english_stays_korean() -> None:
    """Found by a second attack: after 1.5 KB of English the detector answers windows-1252
    and the kanji-only rule EUC-JP; a sentence of spaced hangul words is Korean."""
    english = "<p>The quarterly report covers sales, hiring and the new office.</p>" * 25
    page = _page(
        english + "<p>\uc624\ub298 \ub0a0\uc528\uac00 \uc815\ub9d0 \uc88b\ub124\uc694</p>", ""
    )
    decoded = decode_body(page.encode("euc_kr"), "text/html")
    assert (decoded.encoding, decoded.text) == ("euc_kr", page)
