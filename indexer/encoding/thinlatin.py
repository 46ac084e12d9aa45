"""How plausible a Latin reading of thin evidence is (:mod:`indexer.encoding.sparse`).

The typographic placement of :mod:`indexer.encoding.singlebyte` judges each non-ASCII
character; with only a few of them, these rules also count as misplaced what one or two
Japanese double-byte characters read as in windows-1252 or ISO-8859-1/-15:

- a word made only of two or more non-ASCII characters with a letter among them (``²ñ``,
  ``Â±``) or of different signs (``»÷``, ``’†``): accented letters sit in words of ASCII
  letters, and signs do not stack unless repeated (``——``) or a dash joins numbers
  (``½–¾``); one EUC-JP kanji is two such characters;
- a word made only of pairs shaped like Shift_JIS double-byte characters, one led by a
  letter or mark of windows-1252's bytes 80–9F (``—l``, ``‰w``, ``ŽO``, ``Žp’‹``: a quote,
  dash or bullet glued to one letter), unless each such pair is typographic (``“I’m``,
  ``’s``);
- a sign opening a word that Latin text writes after one (``‡@Note``: ① in Shift_JIS),
  ``¡`` before a sign or a lower-case accented letter (``¡úNew``: ★ in EUC-JP).
"""

from __future__ import annotations

import re
import unicodedata

from indexer.encoding import charclass, singlebyte
from indexer.encoding.decoders import decode_as

# A run of non-ASCII characters standing as a word: no ASCII letter or digit touches it.
_NON_ASCII_WORD = re.compile("(?<![A-Za-z])[^\x00-\x7f\\s]{2,}(?![A-Za-z])")


def _windows_1252(first: int, last: int) -> str:
    return decode_as(bytes(range(first, last + 1)), "windows-1252")[0]


# How windows-1252 reads Shift_JIS's double-byte characters (WHATWG Shift_JIS decoder:
# lead bytes 81–9F and E0–FC, trail bytes 40–7E and 80–FC): a token of the reading made
# only of such pairs, one led by a byte 80–9F (a quote, dash, bullet, ‰, ™, Š, Œ), is
# one or more Shift_JIS kanji, not Latin typography.
_C1_RANGE = frozenset(_windows_1252(0x80, 0x9F))
_SJIS_LEADS = re.escape(_windows_1252(0x81, 0x9F) + _windows_1252(0xE0, 0xFC))
_SJIS_TRAILS = re.escape(_windows_1252(0x40, 0x7E) + _windows_1252(0x80, 0xFC))
_PAIRS = re.compile(f"(?:[{_SJIS_LEADS}][{_SJIS_TRAILS}])+")
_OPENING_MARKS = frozenset("\u2018\u201a\u201c\u201e\u2013\u2014\u2026")
# A token: a run of characters none of which is ASCII 00–3F (space, digit, punctuation,
# markup), which no Shift_JIS double-byte character holds.
_TOKEN_EDGE = re.compile("[\x00-\x3f]")


def _typographic_pair(lead: str, trail: str) -> bool:
    """An opening quote, a dash or an ellipsis before one of English's one-letter words
    (``“I``, ``‘A``, ``—a``), or an apostrophe before a clitic (``’s``, ``’d``)."""
    if lead == "\u2019":
        return trail in "sdtmSDTM"
    return lead in _OPENING_MARKS and trail in "aAIO"


def _shift_jis_shaped(token: str) -> bool:
    """``token`` (of a windows-1252 reading) is made of Shift_JIS pairs, one of them led
    by a byte 80–9F and not typographic (:func:`_typographic_pair`)."""
    if _PAIRS.fullmatch(token) is None:
        return False
    pairs = (token[i : i + 2] for i in range(0, len(token), 2))
    return any(p[0] in _C1_RANGE and not _typographic_pair(p[0], p[1]) for p in pairs)


# Signs glued to the start of a word that Latin text writes after one (†, ‡, ‰, ™ and the
# spacing accents ˆ ˜), ¡ before a non-ASCII character other than Spanish capitals (Á É
# Í Ó Ú Ñ Ü) and ¿, ¢ before a letter: one Japanese symbol glued to an English word
# (★New in EUC-JP reads ¡úNew, ①Note in Shift_JIS ‡@Note).
_OPENING_GLUED = re.compile(
    "(?<![A-Za-z0-9\x80-\uffff])(?:[\u2020\u2021\u2030\u2122\u02c6\u02dc](?=[^\\s<])"
    "|\xa1(?=[^\x00-\x7f\\s\xc1\xc9\xcd\xd3\xda\xd1\xdc\xbf])|\xa2(?=[A-Za-z\xc0-\xff]))"
)


def _tokens_with_non_ascii(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each token of ``text`` that holds a non-ASCII character (the
    page's ASCII words are not looked at: the text is mostly ASCII)."""
    spans: list[tuple[int, int]] = []
    for match in charclass.NON_ASCII.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue
        start = match.start()
        while start > 0 and not _TOKEN_EDGE.match(text[start - 1]):
            start -= 1
        edge = _TOKEN_EDGE.search(text, match.end())
        spans.append((start, edge.start() if edge else len(text)))
    return spans


def latin_plausibility(text: str) -> float:
    """Share (0–1) of the non-ASCII characters of ``text`` (a single-byte code page's
    reading of a sample with few of them) placed as Latin text places them: the
    typography of :func:`singlebyte.placement_counts`, less the characters this module's
    rules find misplaced (module docstring); 0 when there are none."""
    judged, plausible = singlebyte.placement_counts(text)
    if not judged:
        return 0.0
    misplaced = {
        i
        for m in _NON_ASCII_WORD.finditer(text)
        if _stacked(m.group())
        for i in range(m.start(), m.end())
    }
    for start, end in _tokens_with_non_ascii(text):
        if _shift_jis_shaped(text[start:end]):
            misplaced.update(i for i in range(start, end) if not text[i].isascii())
    misplaced.update(m.start() for m in _OPENING_GLUED.finditer(text))
    return max(plausible - len(misplaced), 0) / judged


def _stacked(word: str) -> bool:
    """A word of non-ASCII characters only is not Latin text: letters sit among ASCII
    ones, and signs do not stack, unless one is repeated (``——``, ``……``) or dashes join
    numbers (``½–¾``: a range)."""
    if all(unicodedata.category(c) in ("No", "Pd") for c in word):
        numbers = word[::2]
        if all(unicodedata.category(c) == "No" for c in numbers) and len(word) % 2:
            return False
    return any(c.isalpha() for c in word) or len(set(word)) > 1
