"""How plausible a Japanese reading of thin evidence is (:mod:`indexer.encoding.sparse`).

Each non-ASCII character of a cp932 or EUC-JP reading weighs what text in Japanese makes
likely: full-width kana, punctuation and JIS symbols (※, ①) and the kyōiku kanji
(:data:`indexer.encoding.prior.COMMON_KANJI`) weigh 1; other JIS level-1 kanji half and
level 2 a quarter (where a misread pair lands); half-width katakana by their words (two
standing alone are one EUC-JP kanji read as Shift_JIS); a character glued between two
ASCII letters (``S鰍nce``) nothing, unless it is an apostrophe (``it’s``).
"""

from __future__ import annotations

import functools
import re

from indexer.encoding import charclass
from indexer.encoding.prior import COMMON_KANJI


def _japanese_weight(char: str, before: str, after: str) -> float:
    """How plausible one non-ASCII character of a Japanese reading is (0–1), half-width
    katakana aside (:func:`japanese_plausibility`)."""
    if before.isascii() and after.isascii() and before.isalpha() and after.isalpha():
        return 1.0 if char == "\u2019" else 0.0  # an apostrophe (it’s), JIS row 1
    if charclass.KANA.match(char) or charclass.FULLWIDTH.match(char) or char in COMMON_KANJI:
        return 1.0
    if _jis_symbol(char):
        return 1.0
    if charclass.KANJI.match(char):
        return 0.5 if _jis_level_1(char) else 0.25
    if charclass.HALFWIDTH.match(char):
        return 0.5
    return 0.0


@functools.lru_cache(maxsize=1024)
def _jis_level_1(char: str) -> bool:
    """A kanji of JIS X 0208 level 1 (the 2,965 in common use, rows 16–47: Shift_JIS
    889F–9872); level 2 and the extensions are rarer, and where a misread pair lands."""
    try:
        code = char.encode("cp932")
    except UnicodeEncodeError:
        return False
    return b"\x88\x9f" <= code <= b"\x98\x72"


@functools.lru_cache(maxsize=1024)
def _jis_symbol(char: str) -> bool:
    """A symbol of JIS X 0208 rows 1–2 and 8 or NEC row 13 (※ × ・ ○ ★ → ─ ① ㈱): Shift_JIS
    lead byte 81, 84 with a trail from 9F (box drawing) or 87, kana and kanji aside."""
    try:
        code = char.encode("cp932")
    except UnicodeEncodeError:
        return False
    if len(code) != 2:
        return False
    return code[0] in (0x81, 0x87) or (code[0] == 0x84 and code[1] >= 0x9F)


# Two half-width katakana standing alone: exactly what one EUC-JP kanji reads as, unless
# the second is a voicing mark after a kana that takes it (ｶﾞ, ﾊﾟ: a written syllable).
_HALFWIDTH_PAIR = re.compile(
    "(?<![^\x00-\x7f])(?![\uff76-\uff84\uff8a-\uff8e\uff73]\uff9e|[\uff8a-\uff8e]\uff9f)"
    "[\uff61-\uff9f]{2}(?![^\x00-\x7f])"
)


# A word of half-width katakana, three or more, written as the syllabary is: no voicing
# mark, long-vowel mark or small kana first, a voicing mark only after a kana that takes
# it (ｶﾞ ﾊﾟ ｳﾞ), a small ya/yu/yo only after an i-column kana (ｷｬ ｼｭ, with its mark: ｼﾞｮ).
_HALFWIDTH_WORD = re.compile(
    "(?<![\uff61-\uff9f])(?![\uff67-\uff70\uff9e\uff9f])"
    "(?:[\uff66\uff71-\uff9d]|(?<=[\uff73\uff76-\uff84\uff8a-\uff8e])\uff9e"
    "|(?<=[\uff8a-\uff8e])\uff9f|(?<=[\uff77\uff7c\uff81\uff86\uff8b\uff90\uff98\uff9e\uff9f])"
    "[\uff6c-\uff6e]|(?<=[\uff66-\uff9f])[\uff67-\uff6b\uff6f\uff70]){3,}"
    "(?![\uff61-\uff9f])"
)


def japanese_plausibility(text: str, encoding: str) -> float:
    """The mean :func:`_japanese_weight` of the non-ASCII characters of ``text`` read as
    ``encoding``, half-width katakana weighed by their words: two standing alone a
    quarter each (a word of them is rarely two long, one EUC-JP kanji is two of them:
    辻 → ﾄﾔ); an odd number, three or more, written as the syllabary is
    (:data:`_HALFWIDTH_WORD`) three quarters (an even one may be EUC-JP kanji). In a
    Shift_JIS reading, kanji of two or more Shift_JIS pairs in a row led by 8E with trails
    A1–DF weigh nothing (EUC-JP half-width katakana: ﾏﾆｭｱﾙ → 煮屡鹿竺勺)."""
    special = _halfwidth_weights(text) if charclass.HALFWIDTH.search(text) else {}
    if encoding == "cp932":
        special.update(dict.fromkeys(_euc_halfwidth_kanji(text), 0.0))
    weights = [
        special[m.start()]
        if m.start() in special
        else _japanese_weight(
            m.group(), text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
        )
        for m in charclass.NON_ASCII.finditer(text)
    ]
    return sum(weights) / len(weights) if weights else 0.0


def _halfwidth_weights(text: str) -> dict[int, float]:
    """``{position: weight}`` of the half-width katakana of ``text`` weighed by their
    words (:func:`japanese_plausibility`)."""
    special: dict[int, float] = {}
    for match in _HALFWIDTH_PAIR.finditer(text):
        special.update({match.start(): 0.25, match.start() + 1: 0.25})
    for match in _HALFWIDTH_WORD.finditer(text):
        if (match.end() - match.start()) % 2:  # an even run may be EUC-JP kanji (三浦: ｻｰｱｺ)
            special.update(dict.fromkeys(range(match.start(), match.end()), 0.75))
    return special


def _euc_halfwidth_kanji(text: str) -> list[int]:
    """Positions of kanji in runs of two or more whose Shift_JIS bytes are 8E A1–DF."""
    found: list[int] = []
    run: list[int] = []
    for match in charclass.KANJI.finditer(text):  # the text is mostly ASCII: kanji only
        index = match.start()
        if not _euc_halfwidth_pair(match.group()):
            continue
        if run and run[-1] != index - 1:
            found += run if len(run) >= 2 else []
            run = []
        run.append(index)
    return found + (run if len(run) >= 2 else [])


@functools.lru_cache(maxsize=1024)
def _euc_halfwidth_pair(char: str) -> bool:
    try:
        code = char.encode("cp932")
    except UnicodeEncodeError:
        return False
    return len(code) == 2 and code[0] == 0x8E and 0xA1 <= code[1] <= 0xDF
