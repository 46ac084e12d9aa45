"""Thin evidence: a page with a handful of multibyte sequences among ASCII.

With a few non-ASCII bytes (one kanji in an English page, a lone katakana word, a line of
curly quotes) neither chardet nor the Japanese score has enough to go on, and each
candidate decodes the bytes: one EUC-JP kanji (two bytes 0xA1–0xFE) is also two
half-width katakana in Shift_JIS and two Latin letters or symbols in windows-1252. Here each
candidate reading is weighed by whether its characters are what text in that encoding
holds, sequence by sequence (:func:`plausibility`):

- a Japanese reading (cp932, EUC-JP): full-width kana and punctuation, and the kyōiku
  kanji (:data:`indexer.encoding.prior.COMMON_KANJI`) are plausible; other kanji count
  half (JIS level 2 is where a misread pair lands); half-width katakana count half (real
  ones are words of their own, a misread EUC-JP pair is exactly two of them); a
  character glued between two ASCII letters (``S鰍nce``) is not;
- windows-1252: the typographic placement of :mod:`indexer.encoding.singlebyte`, and a
  word made only of two or more non-ASCII characters with a letter among them (``²ñ``,
  ``Â±``) is not Latin text (accented letters sit in words of ASCII letters).

A Japanese reading must be plausible by :data:`MARGIN` more than the detector's answer
(cp932, EUC-JP, windows-1252 or none) to replace it; a Latin reading is never chosen here
(a lone ``±`` or ``ｱ`` is the detector's call), nor is a Chinese or Korean answer replaced,
except one no web page is written in (Johab: not in the WHATWG Encoding Standard).
"""

from __future__ import annotations

import re

from indexer.encoding import charclass, singlebyte
from indexer.encoding.decoders import decode_as, strict_text
from indexer.encoding.prior import COMMON_KANJI

#: The readings a thin-evidence answer may move to, in the order a tie is settled.
JAPANESE = ("euc_jp", "cp932")
#: The answers weighed against them: these and the usual single-byte code page.
CANDIDATES = (*JAPANESE, "windows-1252")
#: Answers a web page is not written in: encodings outside the WHATWG Encoding Standard
#: (browsers cannot decode them), such as Johab, a DOS-era Korean code page, which the
#: detector gives for a few Shift_JIS kanji or half-width katakana.
NOT_WEB = frozenset({"johab"})
#: A reading replaces the detector's answer when its plausibility is this much higher.
MARGIN = 0.25
# A run of non-ASCII characters standing as a word: no ASCII letter or digit touches it.
_NON_ASCII_WORD = re.compile("(?<![A-Za-z0-9])[^\x00-\x7f]{2,}(?![A-Za-z0-9])")


def _japanese_weight(char: str, before: str, after: str) -> float:
    """How plausible one non-ASCII character of a Japanese reading is (0–1)."""
    if before.isascii() and after.isascii() and before.isalpha() and after.isalpha():
        return 0.0
    if charclass.KANA.match(char) or charclass.FULLWIDTH.match(char) or char in COMMON_KANJI:
        return 1.0
    if charclass.KANJI.match(char) or charclass.HALFWIDTH.match(char):
        return 0.5
    return 0.0


def _japanese_plausibility(text: str) -> float:
    weights = [
        _japanese_weight(m.group(), text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1])
        for m in charclass.NON_ASCII.finditer(text)
    ]
    return sum(weights) / len(weights) if weights else 0.0


def _single_byte_plausibility(text: str) -> float:
    judged, plausible = singlebyte.placement_counts(text)
    if not judged:
        return 0.0
    lettered = sum(
        len(m.group())
        for m in _NON_ASCII_WORD.finditer(text)
        if any(c.isalpha() for c in m.group())
    )
    return max(plausible - lettered, 0) / judged


def plausibility(sample: bytes, encoding: str) -> float | None:
    """Share (0–1) of the non-ASCII characters of ``sample`` read as ``encoding`` that sit
    where text in that encoding puts them (module docstring); None when ``encoding`` does
    not decode ``sample`` strictly (a Japanese one) or has no such characters."""
    if encoding == "windows-1252":
        latin = decode_as(sample, encoding)[0]
        return _single_byte_plausibility(latin) if charclass.NON_ASCII.search(latin) else None
    text = strict_text(sample, encoding)
    if text is None or not charclass.NON_ASCII.search(text):
        return None
    return _japanese_plausibility(text)


def weigh_sparse(sample: bytes, answer: str | None) -> str | None:
    """The Japanese reading to use instead of the detector's ``answer`` on thin evidence,
    or None to keep it: the most plausible of :data:`JAPANESE` (a tie: the first), when it
    beats ``answer``'s own plausibility (0 for no answer) by :data:`MARGIN`. An answer
    outside :data:`CANDIDATES` (a Cyrillic or Chinese code page the detector kept on its
    own evidence) is kept; one in :data:`NOT_WEB` counts as no answer."""
    if answer in NOT_WEB:
        answer = None  # not what a page is written in: weighed as no answer
    if answer is not None and answer not in CANDIDATES:
        return None
    scores = {c: s for c in JAPANESE if (s := plausibility(sample, c)) is not None}
    if not scores:
        return None
    best = max(scores, key=lambda c: scores[c])  # dicts keep JAPANESE's order
    if best == answer:
        return None
    own = (scores.get(answer) if answer in JAPANESE else _own(sample, answer)) or 0.0
    return best if scores[best] >= own + MARGIN else None


def _own(sample: bytes, answer: str | None) -> float | None:
    return None if answer is None else plausibility(sample, answer)


#: Characters no text writes as a word of their own: Latin Extended-B (U+0180–U+024F),
#: standing between spaces, markup or sentence punctuation (IPA between slashes or
#: brackets is phonetics, and the IPA block is left alone). One EUC-JP kanji of JIS rows
#: 38–57 (bytes C6–C9, A1–BF) is also a valid two-byte UTF-8 sequence here (峠 → ƽ).
_STRAY_LATIN = re.compile("(?<![^\\s<>,.:;!?])[\u0180-\u024f](?![^\\s<>,.:;!?])")


def utf8_misread(sample: bytes) -> str | None:
    """The Japanese encoding of valid UTF-8 ``sample`` with few non-ASCII bytes, or None
    when it is UTF-8: every non-ASCII character of the UTF-8 reading stands alone and is
    one of :data:`_STRAY_LATIN`, and EUC-JP or Shift_JIS reads the bytes strictly and
    plausibly (:func:`weigh_sparse` against no answer, at least 0.5 by
    :func:`plausibility`)."""
    text = sample.decode("utf-8", "ignore")
    non_ascii = charclass.NON_ASCII.findall(text)
    if not non_ascii or len(_STRAY_LATIN.findall(text)) != len(non_ascii):
        return None
    best = weigh_sparse(sample, None)
    return best if best is not None and (plausibility(sample, best) or 0.0) >= 0.5 else None
