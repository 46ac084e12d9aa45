"""Thin evidence: a page with a handful of multibyte sequences among ASCII.

With a few non-ASCII bytes (one kanji in an English page, a lone katakana word, a line of
curly quotes) neither chardet nor the Japanese score has enough to go on, and each
candidate decodes the bytes: one EUC-JP kanji (two bytes 0xA1–0xFE) is also two
half-width katakana in Shift_JIS and two Latin letters or symbols in windows-1252. Here each
candidate reading is weighed by whether its characters are what text in that encoding
holds, sequence by sequence (:func:`plausibility`):

- a Japanese reading (cp932, EUC-JP): full-width kana, punctuation and symbols (※, ①),
  and the kyōiku kanji (:data:`indexer.encoding.prior.COMMON_KANJI`) are plausible;
  other JIS level-1 kanji count half, level 2 a quarter (where a misread pair lands);
  half-width katakana count half, two standing alone a quarter (one EUC-JP kanji); a
  character glued between two ASCII letters (``S鰍nce``) is not;
- a Latin reading (windows-1252, ISO-8859-1/-15): the typographic placement of
  :mod:`indexer.encoding.singlebyte`; and a word made only of two or more non-ASCII
  characters with a letter among them (``²ñ``, ``Â±``) or of different signs (``»÷``,
  ``’†``) is not Latin text (accented letters sit in words of ASCII letters, and signs
  do not stack unless repeated, ``——``: one EUC-JP kanji is two such characters); nor is
  a word made only of pairs shaped like Shift_JIS double-byte characters, one led by a
  letter or mark of windows-1252's bytes 80–9F (``—l``, ``‰w``, ``ŽO``, ``Žp’‹``: a
  quote, dash or bullet glued to one letter), unless each such pair is typographic
  (``“I’m``, ``’s``).

A reading must be plausible by :data:`MARGIN` more than the detector's answer (cp932,
EUC-JP, a Latin code page or none) to replace it: a Japanese reading any of them, the
windows-1252 reading a Japanese answer or none (a lone ``©`` is one half-width katakana
``ｩ`` in Shift_JIS, which real text writes in words of several). A Chinese or Korean
answer is not replaced, except one no web page is written in (Johab: not in the WHATWG
Encoding Standard).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from indexer.encoding import charclass, singlebyte
from indexer.encoding.decoders import decode_as, strict_text
from indexer.encoding.prior import COMMON_KANJI, kanji_prior

#: The readings a thin-evidence answer may move to, in the order a tie is settled.
JAPANESE = ("euc_jp", "cp932")
#: The Latin code pages a detector answers on thin evidence (the WHATWG Encoding Standard
#: reads the ISO-8859-1 label as windows-1252; ISO-8859-15 differs from it in 8 letters).
LATIN = frozenset({"windows-1252", "iso8859-1", "iso8859-15"})
#: The answers weighed against them: these and the usual single-byte code pages.
CANDIDATES = frozenset({*JAPANESE, *LATIN})
_USUAL_LATIN = "windows-1252"
# A single-byte code page leaves fewer than this many of its 128 upper bytes unassigned
# (windows-1253: 17, ISO-8859-6: 45; UTF-8 read byte by byte: 128).
_FEW_UNASSIGNED = 64
#: Answers a web page is not written in: encodings outside the WHATWG Encoding Standard
#: (browsers cannot decode them), such as Johab, a DOS-era Korean code page, which the
#: detector gives for a few Shift_JIS kanji or half-width katakana.
NOT_WEB = frozenset({"johab"})
#: A reading replaces the detector's answer when its plausibility is this much higher.
MARGIN = 0.25
# A run of non-ASCII characters standing as a word: no ASCII letter or digit touches it.
_NON_ASCII_WORD = re.compile("(?<![A-Za-z])[^\x00-\x7f\\s]{2,}(?![A-Za-z])")


def _windows_1252(first: int, last: int) -> str:
    return bytes(range(first, last + 1)).decode("cp1252", "indexer-c1")


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
_TOKEN = re.compile("[^\x00-\x3f]+")


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


def _japanese_weight(char: str, before: str, after: str) -> float:
    """How plausible one non-ASCII character of a Japanese reading is (0–1), half-width
    katakana aside (:func:`_japanese_plausibility`)."""
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


def _japanese_plausibility(text: str, encoding: str) -> float:
    """The mean :func:`_japanese_weight` of the non-ASCII characters of ``text`` read as
    ``encoding``, half-width katakana weighed by their words: two standing alone a
    quarter each (a word of them is rarely two long, one EUC-JP kanji is two of them:
    辻 → ﾄﾔ); an odd number, three or more, written as the syllabary is
    (:data:`_HALFWIDTH_WORD`) three quarters (an even one may be EUC-JP kanji). In a
    Shift_JIS reading, kanji of two or more Shift_JIS pairs in a row led by 8E with trails
    A1–DF weigh nothing (EUC-JP half-width katakana: ﾏﾆｭｱﾙ → 煮屡鹿竺勺)."""
    special: dict[int, float] = {}
    for match in _HALFWIDTH_PAIR.finditer(text):
        special.update({match.start(): 0.25, match.start() + 1: 0.25})
    for match in _HALFWIDTH_WORD.finditer(text):
        if (match.end() - match.start()) % 2:  # an even run may be EUC-JP kanji (三浦: ｻｰｱｺ)
            special.update(dict.fromkeys(range(match.start(), match.end()), 0.75))
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


def _euc_halfwidth_kanji(text: str) -> list[int]:
    """Positions of kanji in runs of two or more whose Shift_JIS bytes are 8E A1–DF."""
    found: list[int] = []
    run: list[int] = []
    for index, char in enumerate(f"{text} "):
        if _euc_halfwidth_pair(char):
            run.append(index)
            continue
        if len(run) >= 2:
            found += run
        run = []
    return found


@functools.lru_cache(maxsize=1024)
def _euc_halfwidth_pair(char: str) -> bool:
    try:
        code = char.encode("cp932")
    except UnicodeEncodeError:
        return False
    return len(code) == 2 and code[0] == 0x8E and 0xA1 <= code[1] <= 0xDF


# Signs glued to the start of a word that Latin text writes after one (†, ‡, ‰, ™ and the
# spacing accents ˆ ˜), ¡ before a non-ASCII character other than Spanish capitals (Á É
# Í Ó Ú Ñ Ü) and ¿, ¢ before a letter: one Japanese symbol glued to an English word
# (★New in EUC-JP reads ¡úNew, ①Note in Shift_JIS ‡@Note).
_OPENING_GLUED = re.compile(
    "(?<![A-Za-z0-9\x80-\uffff])(?:[\u2020\u2021\u2030\u2122\u02c6\u02dc](?=[^\\s<])"
    "|\xa1(?=[^\x00-\x7f\\s\xc1\xc9\xcd\xd3\xda\xd1\xdc\xbf])|\xa2(?=[A-Za-z\xc0-\xff]))"
)


def _single_byte_plausibility(text: str) -> float:
    judged, plausible = singlebyte.placement_counts(text)
    if not judged:
        return 0.0
    misplaced = {
        i
        for m in _NON_ASCII_WORD.finditer(text)
        if _stacked(m.group())
        for i in range(m.start(), m.end())
    }
    misplaced.update(
        i
        for m in _TOKEN.finditer(text)
        if _shift_jis_shaped(m.group())
        for i in range(m.start(), m.end())
        if not text[i].isascii()
    )
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


@functools.cache
def single_byte(encoding: str) -> bool:
    """True for a code page of one byte per character (cp850, mac-roman, KOI8-R, …):
    every byte decodes to one character, at most a few bytes unassigned."""
    try:
        text = decode_as(bytes(range(256)), encoding)[0]
    except LookupError:
        return False
    return len(text) == 256 and text.count("\ufffd") < _FEW_UNASSIGNED


def plausibility(sample: bytes, encoding: str) -> float | None:
    """Share (0–1) of the non-ASCII characters of ``sample`` read as ``encoding`` that sit
    where text in that encoding puts them (module docstring): a Japanese encoding or a
    single-byte code page (:func:`single_byte`, judged by Latin typography: another
    script's words of one script pass it); None when a Japanese one does not decode
    ``sample`` strictly or there are no such characters."""
    if encoding in LATIN or single_byte(encoding):
        read = decode_as(sample, encoding)[0]
        return _single_byte_plausibility(read) if charclass.NON_ASCII.search(read) else None
    text = strict_text(sample, encoding)
    if text is None or not charclass.NON_ASCII.search(text):
        return None
    return _japanese_plausibility(text, encoding)


def weigh_sparse(sample: bytes, answer: str | None) -> str | None:
    """The reading to use instead of the detector's ``answer`` on thin evidence, or None
    to keep it.

    - ``answer`` Japanese, Latin, another single-byte code page (cp850, mac-roman) or
      none: the most plausible of :data:`JAPANESE` (a tie: the first) and, unless
      ``answer`` is Latin, windows-1252, when it beats ``answer``'s own plausibility (0
      for none) by :data:`MARGIN` (a lone half-width katakana ``ｩ`` is a Latin sign ``©``
      more often than a word; one Latin code page is not replaced by another, except
      ISO-8859-15 reading windows-1252's signs as lone letters, ½ as ``œ``:
      :func:`_latin9_misread`);
    - ``answer`` Chinese or Korean, or a single-byte code page of another script (Arabic,
      Cyrillic): :func:`_over_foreign`;
    - ``answer`` in :data:`NOT_WEB`: weighed as none; any other answer is kept;
    - whatever ``answer``, EUC-KR when it reads a Korean sentence (:func:`_korean_sentence`)
      and no Japanese reading is wholly plausible (all kana and kyōiku kanji).
    """
    if answer in NOT_WEB:
        answer = None  # not what a page is written in: weighed as no answer
    if answer != "euc_kr" and _korean_sentence(sample):
        return "euc_kr" if max(_japanese_scores(sample).values(), default=0.0) < 1 else None
    if answer is not None and _foreign(sample, answer):
        return _over_foreign(sample, answer)
    if answer is not None and answer not in CANDIDATES and not single_byte(answer):
        return None
    if answer == "iso8859-15" and _latin9_misread(sample):
        return _more_plausible(sample, JAPANESE, _USUAL_LATIN) or _USUAL_LATIN
    readings = JAPANESE if answer in LATIN else (*JAPANESE, _USUAL_LATIN)
    return _more_plausible(sample, readings, answer)


# What ISO-8859-15 reads where windows-1252 has ¤ ¦ ¨ ´ ¸ ¼ ½ ¾ (bytes A4–BE).
_LATIN9_OWN = re.compile("[\u20ac\u0160\u0161\u017d\u017e\u0152\u0153\u0178]")


def _latin9_misread(sample: bytes) -> bool:
    """True when an ISO-8859-15 answer reads windows-1252 signs as its own letters: none
    of them is the euro (why a page is written in ISO-8859-15) and none of its letters
    (Š š Ž ž Œ œ Ÿ) sits in a word (``cœur``, ``Škoda``), so ``½`` would read ``œ``."""
    text = decode_as(sample, "iso8859-15")[0]
    own = list(_LATIN9_OWN.finditer(text))
    if not own:
        return False
    for match in own:
        before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
        if match.group() == "\u20ac" or before.isalpha() or after.isalpha():
            return False
    return True


#: Chinese and Korean multi-byte encodings (WHATWG names GBK/gb18030, Big5, EUC-KR).
CHINESE_KOREAN = frozenset({"gb18030", "big5", "euc_kr", "euc_tw"})


def _foreign(sample: bytes, answer: str) -> bool:
    """``answer`` is Chinese or Korean, or a single-byte code page whose reading of
    ``sample`` has letters and none of them Latin."""
    if answer in CHINESE_KOREAN:
        return True
    if answer in CANDIDATES or not single_byte(answer):
        return False
    letters = [c for c in decode_as(sample, answer)[0] if not c.isascii() and c.isalpha()]
    return bool(letters) and not any(_script(c) == "LATIN" for c in letters)


_HANGUL_WORD = "[\uac00-\ud7a3]+"
_HANGUL_SYLLABLE = re.compile("[\uac00-\ud7a3]")
# Korean writes spaces between words: three hangul words in a row are a sentence.
_HANGUL_SENTENCE = re.compile(f"{_HANGUL_WORD}(?: {_HANGUL_WORD}){{2,}}")
_HANGUL_PAIR = re.compile(f"{_HANGUL_WORD} {_HANGUL_WORD}")


def _japanese_scores(sample: bytes) -> dict[str, float]:
    """:func:`plausibility` of each Japanese reading that decodes ``sample`` strictly."""
    return {c: s for c in JAPANESE if (s := plausibility(sample, c)) is not None}


def _korean_sentence(sample: bytes) -> bool:
    """True when EUC-KR reads ``sample`` strictly, every non-ASCII character a hangul
    syllable, three of its words or more spaced as Korean writes them (Japanese does not
    space its words: EUC-KR hangul read as EUC-JP gives ``煽拙映 乞窮 映軒``)."""
    text = strict_text(sample, "euc_kr")
    if text is None or _HANGUL_SENTENCE.search(text) is None:
        return False
    return all(_HANGUL_SYLLABLE.match(c) for c in charclass.NON_ASCII.findall(text))


def _chinese_korean_plausibility(text: str) -> float:
    """How plausible a Chinese or Korean reading is (0–1): its kanji prior
    (:func:`prior.kanji_prior`), and for hangul, which no prior here ranks, 1 for three
    words or more spaced as Korean writes them, 0.75 for two, else 0.5."""
    share = kanji_prior(text)[0]
    if _HANGUL_SENTENCE.search(text):
        return 1.0
    if _HANGUL_PAIR.search(text):
        return max(share, 0.75)
    return max(share, 0.5) if re.search(_HANGUL_WORD, text) else share


def _over_foreign(sample: bytes, answer: str) -> str | None:
    """The reading to use instead of a Chinese, Korean or other-script ``answer`` on thin
    evidence: windows-1252 when it is more plausible than the Japanese readings and beats
    ``answer`` by :data:`MARGIN`; else a Japanese one at least as plausible as
    ``answer``'s reading and at least 0.5 (the pages this tool reads are Japanese: a tie
    goes to Japanese). A Chinese or Korean reading's plausibility is
    :func:`_chinese_korean_plausibility`; another code page's is :func:`plausibility`."""
    if answer in CHINESE_KOREAN:
        own = _chinese_korean_plausibility(decode_as(sample, answer)[0])
    else:
        own = plausibility(sample, answer) or 0.0
    scores = _japanese_scores(sample)
    best = max(scores, key=lambda c: scores[c]) if scores else None
    japanese = scores[best] if best is not None else 0.0
    latin = plausibility(sample, _USUAL_LATIN) or 0.0
    if latin > japanese and latin >= own + MARGIN:
        return _USUAL_LATIN
    return best if best is not None and japanese >= max(own, 0.5) else None


def _more_plausible(sample: bytes, readings: tuple[str, ...], answer: str | None) -> str | None:
    scores = {c: s for c in readings if (s := plausibility(sample, c)) is not None}
    if not scores:
        return None
    best = max(scores, key=lambda c: scores[c])  # dicts keep the readings' order
    if best == answer:
        return None
    own = (scores.get(answer) if answer in scores else _own(sample, answer)) or 0.0
    return best if scores[best] >= own + MARGIN else None


def _own(sample: bytes, answer: str | None) -> float | None:
    return None if answer is None else plausibility(sample, answer)


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


def _script(char: str) -> str:
    return unicodedata.name(char, "?").split(" ", 1)[0]


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
    scripts = {_script(c) for c in word if c.isalpha()}
    if not scripts:
        return len(set(word)) > 1
    latin = scripts == {"LATIN"} and all(c.isalpha() for c in word)
    return len(scripts) > 1 or (latin and not all(_IPA.match(c) for c in word))


def utf8_misread(sample: bytes) -> str | None:
    """The Japanese encoding of valid UTF-8 ``sample`` with few non-ASCII bytes, or None
    when it is UTF-8: every non-ASCII character of the UTF-8 reading stands in a word of
    its own that no text writes (:func:`_unlikely_word`), and EUC-JP or Shift_JIS reads the
    bytes strictly and plausibly (:func:`weigh_sparse`'s Japanese readings against no
    answer, at least 0.5 by :func:`plausibility`)."""
    text = sample.decode("utf-8", "ignore")
    non_ascii = len(charclass.NON_ASCII.findall(text))
    words = list(_STANDING.finditer(text))
    if not non_ascii or sum(len(m.group()) for m in words) != non_ascii:
        return None
    for m in words:
        before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
        if not _unlikely_word(m.group(), before, after):
            return None
    best = _more_plausible(sample, JAPANESE, None)
    return best if best is not None and (plausibility(sample, best) or 0.0) >= 0.5 else None
