"""Valid UTF-8 that is not: one or two EUC-JP kanji whose bytes form UTF-8 sequences.

A pair of EUC-JP bytes of lead C2–DF and trail A1–BF is also one valid two-byte UTF-8
sequence, so a page of ASCII with one such kanji passes the UTF-8 sniff (単 → ñ). When
every non-ASCII character of the UTF-8 reading stands as a word that no text writes
(:func:`_unlikely_word`), the Japanese readings are weighed (:mod:`.sparse`).
"""

from __future__ import annotations

import re
import unicodedata

from indexer.encoding import charclass
from indexer.encoding.sparse import plausibility, weigh_japanese

#: Letters no text writes as a word of their own, standing between spaces, digits, markup,
#: brackets or sentence punctuation: Latin Extended-A and -B letters, combining marks,
#: the rarely used Greek signs (before its letters, and archaic ones after them), Coptic,
#: Cyrillic, Armenian, Hebrew, Arabic, Syriac, Thaana and NKo letters (a text in those
#: scripts writes words of several letters) and the Latin-1 consonants ç ñ ð þ. Latin-1
#: vowels (à, é, å, í: one-letter words in French, Portuguese, Norwegian, Icelandic), the
#: Latin-1 symbols (©, §, ¶, ·, ±, «, »), Greek letters (π, μ: symbols in English text)
#: and IPA (ɪ, ʔ: phonetics) are left alone. One EUC-JP kanji of lead byte C2–DF and
#: trail A1–BF is also a valid two-byte UTF-8 sequence (単 → ñ, 長 → Ĺ, 峠 → ƽ, 予 → ͽ,
#: 年 → ǯ; 息 → © stays UTF-8).
_LONE_UNLIKELY = re.compile("[\u0100-\u024f\u0300-\u0385\u03d7-\u07ff\xe7\xf1\xf0\xfe]")
#: Spacing accents (¨ ¯ ´ ¸), superscripts and ordinals (¹ ² ³ ª º), ¦ and ¤: written
#: after a letter or digit (m², nº, α², m<sup>2</sup>), not as a word between spaces.
_GLUED_SIGNS = frozenset("\xa8\xaf\xb4\xb8\xb9\xb2\xb3\xaa\xba\xa6\xa4")
_BOUNDARY = "\\s<>,.:;!?()\"'0-9"
# A run of non-ASCII characters standing as a word of its own (between boundaries).
_STANDING = re.compile(f"(?<![^{_BOUNDARY}])[^\\x00-\\x7f\\s]+(?![^{_BOUNDARY}])")
# What stands around a sign written as a word: spaces and sentence punctuation.
_SPACING = frozenset(" \t\r\n,.:;!?()\"'")
_IPA = re.compile("[\u0250-\u02af]")


def _unlikely_word(word: str, before: str, after: str) -> bool:
    """A word of non-ASCII characters only, between ``before`` and ``after`` (a character
    each, "" at an end), that text does not write: one with an unassigned code point; one
    letter of :data:`_LONE_UNLIKELY`; one of :data:`_GLUED_SIGNS` between spaces; letters
    of different scripts (``ɑΧ``), different signs (``§«``), or Latin letters without an
    ASCII one (``ǯŷ``: accented letters sit among plain ones). A word of one other script
    (``Иван``, ``да``), two IPA letters (``ɾɬ``), a letter and a sign (``α²``) are words."""
    if any(unicodedata.category(c) == "Cn" for c in word):
        return True
    if len(word) == 1:
        if word in _GLUED_SIGNS:
            return all(c in _SPACING for c in (before, after) if c)
        return _LONE_UNLIKELY.match(word) is not None
    scripts = {charclass.script(c) for c in word if c.isalpha()}
    if not scripts:
        return len(set(word)) > 1
    latin = scripts == {"LATIN"} and all(c.isalpha() for c in word)
    return len(scripts) > 1 or (latin and not all(_IPA.match(c) for c in word))


def utf8_misread(sample: bytes) -> str | None:
    """The Japanese encoding of valid UTF-8 ``sample`` with few non-ASCII bytes, or None
    when it is UTF-8: every non-ASCII character of the UTF-8 reading stands in a word of
    its own that no text writes (:func:`_unlikely_word`), and EUC-JP or Shift_JIS reads the
    bytes strictly and plausibly (:func:`sparse.weigh_japanese`, at least 0.5 by
    :func:`sparse.plausibility`)."""
    text = sample.decode("utf-8", "ignore")
    non_ascii = len(charclass.NON_ASCII.findall(text))
    words = list(_STANDING.finditer(text))
    if not non_ascii or sum(len(m.group()) for m in words) != non_ascii:
        return None
    for m in words:
        before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
        if not _unlikely_word(m.group(), before, after):
            return None
    best = weigh_japanese(sample)
    return best if best is not None and (plausibility(sample, best) or 0.0) >= 0.5 else None
