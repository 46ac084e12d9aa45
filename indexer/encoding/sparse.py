"""Thin evidence: a page with a handful of multibyte sequences among ASCII.

With a few non-ASCII bytes (one kanji in an English page, a lone katakana word, a line of
curly quotes) neither chardet nor the Japanese score has enough to go on, and each
candidate decodes the bytes: one EUC-JP kanji (two bytes 0xA1–0xFE) is also two
half-width katakana in Shift_JIS and two Latin letters or symbols in windows-1252. Here each
candidate reading is weighed by whether its characters are what text in that encoding
holds, sequence by sequence (:func:`plausibility`):

- a Japanese reading (cp932, EUC-JP): :mod:`indexer.encoding.thinjapanese`;
- a Latin reading (windows-1252, ISO-8859-1/-15) or another single-byte code page's:
  :mod:`indexer.encoding.thinlatin`;
- a Chinese or Korean reading: its kanji prior, and spaced hangul words
  (:func:`_chinese_korean_plausibility`).

A reading must be plausible by :data:`MARGIN` more than the detector's answer (cp932,
EUC-JP, a Latin code page or none) to replace it (a lone ``©`` is one half-width katakana
``ｩ`` in Shift_JIS, which real text writes in words of several); against a Chinese,
Korean or other-script answer a tie goes to Japanese (the pages this tool reads are
Japanese), and a Korean sentence of spaced hangul words stays Korean
(:func:`weigh_sparse`). Johab, outside the WHATWG Encoding Standard, counts as no answer.
"""

from __future__ import annotations

import functools
import re

from indexer.encoding import charclass, thinjapanese, thinlatin
from indexer.encoding.decoders import decode_as, strict_text
from indexer.encoding.prior import kanji_prior

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
        return thinlatin.latin_plausibility(read) if charclass.NON_ASCII.search(read) else None
    text = strict_text(sample, encoding)
    if text is None or not charclass.NON_ASCII.search(text):
        return None
    return thinjapanese.japanese_plausibility(text, encoding)


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
    return bool(letters) and not any(charclass.script(c) == "LATIN" for c in letters)


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
    return max(share, 0.5) if _HANGUL_SYLLABLE.search(text) else share


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


def weigh_japanese(sample: bytes) -> str | None:
    """The more plausible Japanese reading of ``sample`` (:func:`plausibility`), when it is
    at least :data:`MARGIN` plausible; None when neither decodes it strictly."""
    return _more_plausible(sample, JAPANESE, None)
