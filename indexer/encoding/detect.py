"""Statistical detection: chardet (≥ 7.7), checked by a Japanese plausibility score.

chardet answers a single-byte code page (ISO-8859-5, KOI8-R, …) for short or
half-width-kana Japanese, and Shift_JIS for EUC-JP text made only of hiragana (both are
valid byte sequences there). So its answer is checked: the sample is strictly decoded as
cp932 and as EUC-JP and each reading is scored by how much of its non-ASCII text is
kana, kanji and full-width forms (see :func:`japanese_score`).
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import dataclass

import chardet

from indexer.encoding import charclass, singlebyte, sparse
from indexer.encoding.decoders import decode_as, strict_text
from indexer.encoding.labels import lookup_label
from indexer.encoding.prior import kanji_prior

#: chardet sees at most this many bytes (it costs time linear in its input).
DETECT_BYTES = 64 * 1024
#: A Japanese reading scoring at least this beats a non-Japanese chardet answer.
JAPANESE_MIN_SCORE = 0.6
#: A Japanese reading beats chardet's other Japanese answer by at least this margin.
JAPANESE_MARGIN = 0.2

_JAPANESE = ("cp932", "euc_jp")
#: Fewer non-ASCII bytes than this in a sample is thin evidence: the answer is a guess,
#: and an answer outside UTF-8, the Japanese encodings and windows-1252 is not taken.
STRONG_EVIDENCE_BYTES = 64
#: A Japanese reading whose ideographs are at least this share common kanji
#: (:func:`prior.kanji_prior`) beats a Chinese or Korean answer …
PRIOR_MIN_SHARE = 0.75
#: … when that answer's own reading scores at least this much lower.
PRIOR_MARGIN = 0.3
_USUAL_SINGLE_BYTE_ANSWERS = frozenset({"windows-1252", "cp1252", "iso8859-1", "iso8859-15"})
_MULTIBYTE_CJK = frozenset({"big5", "gb18030", "euc_kr", "johab", "euc_tw"})
_MIN_KANA_SHARE = 0.05
_SURE_KANA_SHARE = 0.2
_SURE_SCORE = 0.8
#: A reading at least this much kana, kanji and full-width forms (kanji counted fully)
#: beats a single-byte code page whose reading is implausible.
DOUBLE_BYTE_MIN_SHARE = 0.8
#: Non-ASCII characters of a reading that are scored (a proportion: a prefix will do).
SCORE_CHARS = 8192
_LATIN_ISO = frozenset({"iso8859-1", "iso8859-15", "latin-1"})
_C1_BYTES = re.compile(rb"[\x80-\x9f]")
# chardet's "nothing fit" sentinel: its no_match_encoding (default cp1252) at confidence 0.10.
_CHARDET_NO_MATCH = "cp1252"
_USUAL_SINGLE_BYTE = "windows-1252"
_NO_MATCH = 0.10
# A half-width katakana or punctuation character next to a full-width character.
_GLUED_HALFWIDTH = re.compile(
    "(?<=[^\x00-\x7f\uff61-\uff9f])[\uff61-\uff9f]|[\uff61-\uff9f](?=[^\x00-\x7f\uff61-\uff9f])"
)
_ASCII_RUNS = re.compile("[\x00-\x7f]+")

# chardet's Python codec names for the Japanese family → ours (decoded the browser way).
_CHARDET_NAMES = {
    "shift_jis": "cp932",
    "shift_jis_2004": "cp932",
    "shift_jisx0213": "cp932",
    "cp932": "cp932",
    "euc_jp": "euc_jp",
    "euc_jis_2004": "euc_jp",
    "euc_jisx0213": "euc_jp",
    "iso2022_jp": "iso2022_jp",
    "iso2022_jp_1": "iso2022_jp",
    "iso2022_jp_2": "iso2022_jp",
    "iso2022_jp_2004": "iso2022_jp",
    "iso2022_jp_3": "iso2022_jp",
    "iso2022_jp_ext": "iso2022_jp",
    "utf-16": "utf-16le",
    "utf-16-le": "utf-16le",
    "utf-16-be": "utf-16be",
    "big5hkscs": "big5",
    "cp950": "big5",
    "cp949": "euc_kr",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "hz": "gb18030",
}


@dataclass(frozen=True, slots=True)
class Reading:
    """One Japanese encoding that strictly decodes a sample, and how Japanese it looks.

    Attributes:
        encoding: ``cp932`` or ``euc_jp``.
        score: :func:`japanese_score` of the text (0–1).
        kana: share of full-width kana among its non-ASCII characters (0–1).
        cjk: :func:`cjk_share` of the text (0–1).
    """

    encoding: str
    score: float
    kana: float
    cjk: float


@dataclass(frozen=True, slots=True)
class _Counts:
    """Character counts of a text's non-ASCII part, as :func:`japanese_score` weighs them."""

    total: int
    kana: int
    kanji: int
    others: float  # full-width forms, half-width katakana and punctuation, weighted

    @classmethod
    def of(cls, text: str) -> _Counts:
        others = (
            len(charclass.FULLWIDTH.findall(text))
            + 0.7 * len(charclass.HALFWIDTH_KANA.findall(text))
            + 0.2 * len(charclass.HALFWIDTH_PUNCT.findall(text))
        )
        total = len(charclass.NON_ASCII.findall(text))
        return cls(
            total, len(charclass.KANA.findall(text)), len(charclass.KANJI.findall(text)), others
        )

    def score(self, kanji_weight: float | None = None) -> float:
        if not self.total:
            return 0.0
        if kanji_weight is None:
            kanji_weight = 1.0 if self.kana * 20 >= self.total else 0.3
        return (self.kana + self.others + kanji_weight * self.kanji) / self.total


def japanese_score(text: str) -> float:
    """Score 0–1: how Japanese the non-ASCII part of ``text`` looks.

    Kana and full-width forms weigh 1, kanji 1 when the text also has kana (≥ 5 % of the
    non-ASCII characters) and 0.3 otherwise (a cp932 page read as EUC-JP, or Chinese,
    gives kanji without kana), half-width katakana 0.7, half-width punctuation 0.2,
    anything else 0. Text without non-ASCII characters scores 0.
    """
    return _Counts.of(text).score()


def cjk_share(text: str) -> float:
    """:func:`japanese_score` with kanji weighing 1 even without kana (0–1): how much of
    the non-ASCII part of ``text`` is kana, kanji and full-width forms, whatever the
    language."""
    return _Counts.of(text).score(1.0)


def glued_halfwidth_share(text: str) -> float:
    """Share (0–1) of the non-ASCII characters of ``text`` that are half-width katakana or
    punctuation (U+FF61–FF9F) touching a full-width character (0 if none).

    Real text writes half-width katakana in words of their own (``ﾊﾟｽﾜｰﾄﾞを``: one
    contact); UTF-8 read as Shift_JIS scatters them between kanji (``莨第･ｭ譌･``), as do
    EUC-JP bytes read as Shift_JIS.
    """
    total = len(charclass.NON_ASCII.findall(text))
    return len(_GLUED_HALFWIDTH.findall(text)) / total if total else 0.0


def chardet_encoding(sample: bytes) -> str | None:
    """chardet's answer for ``sample`` mapped to our codec names, or None for no answer."""
    result = chardet.detect(sample, compat_names=False, max_bytes=max(1, len(sample)))
    name = (result.get("encoding") or "").lower()
    no_match = name == _CHARDET_NO_MATCH and math.isclose(result["confidence"], _NO_MATCH)
    if not name or no_match:
        return None
    ours = _CHARDET_NAMES.get(name) or lookup_label(name)
    if ours is not None:
        return ours
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def japanese_readings(sample: bytes) -> list[Reading]:
    """Each Japanese encoding that strictly decodes ``sample``, scored on its first
    :data:`SCORE_CHARS` non-ASCII characters."""
    readings = []
    for encoding in _JAPANESE:
        text = strict_text(sample, encoding)
        if text is not None:
            counts = _Counts.of(_ASCII_RUNS.sub("", text)[:SCORE_CHARS])
            kana = counts.kana / counts.total if counts.total else 0.0
            readings.append(Reading(encoding, counts.score(), kana, counts.score(1.0)))
    return readings


def surely_japanese(readings: list[Reading]) -> str | None:
    """The Japanese encoding when one reading settles it without chardet: ≥ 20 % full-width
    kana, score ≥ 0.8, and any other reading scoring :data:`JAPANESE_MARGIN` lower."""
    for reading in readings:
        others = [r.score for r in readings if r is not reading]
        if (
            reading.kana >= _SURE_KANA_SHARE
            and reading.score >= _SURE_SCORE
            and all(score + JAPANESE_MARGIN <= reading.score for score in others)
        ):
            return reading.encoding
    return None


def prefer_japanese(readings: list[Reading], guess: str | None) -> str | None:
    """The Japanese encoding to use instead of ``guess``, or None to keep ``guess``.

    - ``guess`` Japanese: the other reading must score :data:`JAPANESE_MARGIN` higher.
    - ``guess`` another multi-byte CJK encoding (Big5, GB 18030, EUC-KR decode kana-less
      text as well): the reading must score :data:`JAPANESE_MIN_SCORE` and be ≥ 5 % kana.
    - otherwise (a single-byte code page, or no answer): the reading must score
      :data:`JAPANESE_MIN_SCORE`.
    """
    if not readings:
        return None
    best = max(readings, key=lambda r: r.score)
    if guess in _JAPANESE:
        guessed = next((r.score for r in readings if r.encoding == guess), 0.0)
        beaten = best.score >= guessed + JAPANESE_MARGIN
        return best.encoding if best.encoding != guess and beaten else None
    if best.score < JAPANESE_MIN_SCORE:
        return None
    if guess in _MULTIBYTE_CJK and best.kana < _MIN_KANA_SHARE:
        return None
    return best.encoding


def japanese_over_single_byte(sample: bytes, readings: list[Reading], codec: str) -> str | None:
    """The Japanese encoding to use instead of the single-byte ``codec``, or None.

    Kanji-only Japanese (names in an English page, a short notice) scores low in
    :func:`japanese_score`, which cannot tell it from Chinese. It wins here when a reading
    is at least :data:`DOUBLE_BYTE_MIN_SHARE` double-byte Japanese (cjk) and ``codec``'s
    own reading of ``sample`` is implausible as text (:func:`singlebyte.implausible`:
    quotes glued inside words, runs of accented capitals, C1 controls), and so is the
    windows-1252 reading (chardet misnames short Latin text as another code page).
    """
    if codec in _JAPANESE or codec in _MULTIBYTE_CJK or not readings:
        return None
    best = max(readings, key=lambda r: (r.cjk, r.score))
    if best.cjk < DOUBLE_BYTE_MIN_SHARE:
        return None
    for single_byte in dict.fromkeys((codec, _USUAL_SINGLE_BYTE)):
        try:
            text = decode_as(sample, single_byte)[0]
        except LookupError:
            continue
        if not singlebyte.implausible(text):
            return None
    return best.encoding


#: :func:`evidence_sample`: ASCII bytes kept on each side of a run of non-ASCII bytes.
EVIDENCE_CONTEXT = 32
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")


def evidence_sample(data: bytes) -> bytes:
    """The bytes detection weighs: the first :data:`DETECT_BYTES` of ``data``, unless they
    hold thin evidence (fewer than :data:`STRONG_EVIDENCE_BYTES` non-ASCII bytes) and
    ``data`` goes on: then every run of non-ASCII bytes of ``data`` with
    :data:`EVIDENCE_CONTEXT` bytes on each side, joined by newlines, up to
    :data:`DETECT_BYTES` in all (a long ASCII page with Japanese in its footer). A window
    starts and ends in ASCII, so no multi-byte character is cut (a Shift_JIS trail byte
    in ASCII follows its lead inside the window)."""
    head = data[:DETECT_BYTES]
    if len(data) <= DETECT_BYTES or non_ascii_bytes(head) >= STRONG_EVIDENCE_BYTES:
        return head
    spans: list[list[int]] = []
    total = 0
    for match in _NON_ASCII_RUN.finditer(data):
        start = max(match.start() - EVIDENCE_CONTEXT, 0)
        stop = min(match.end() + EVIDENCE_CONTEXT, len(data))
        if spans and start <= spans[-1][1]:  # overlapping windows are one
            total += stop - spans[-1][1]
            spans[-1][1] = stop
        else:
            spans.append([start, stop])
            total += stop - start
        if total >= DETECT_BYTES:
            break
    return b"\n".join(data[start:stop] for start, stop in spans)[:DETECT_BYTES]


def non_ascii_bytes(sample: bytes) -> int:
    """Bytes 0x80–0xFF in ``sample``: the evidence statistical detection has."""
    return len(sample) - len(sample.translate(None, bytes(range(0x80, 0x100))))


def japanese_over_cjk(sample: bytes, readings: list[Reading], codec: str) -> str | None:
    """The Japanese encoding to use instead of a Chinese or Korean ``codec``, or None.

    Kanji-only EUC-JP decodes as GB 18030 and EUC-KR too, and kana-less text gives
    :func:`prefer_japanese` nothing to go on. The character-frequency prior
    (:func:`prior.kanji_prior`) decides: the Japanese reading's ideographs must be at least
    :data:`PRIOR_MIN_SHARE` common kanji and ``codec``'s reading :data:`PRIOR_MARGIN` less.
    """
    if codec not in _MULTIBYTE_CJK or not readings:
        return None
    try:
        other = kanji_prior(decode_as(sample, codec)[0])[0]
    except LookupError:
        return None
    best: tuple[float, str] | None = None
    for reading in readings:
        text = strict_text(sample, reading.encoding) or ""
        share, count = kanji_prior(text)
        if count and share >= PRIOR_MIN_SHARE and share >= other + PRIOR_MARGIN:
            best = max(best or (share, reading.encoding), (share, reading.encoding))
    return best[1] if best else None


def usual_single_byte(sample: bytes, codec: str) -> str:
    """windows-1252 instead of a rarer single-byte ``codec`` (cp1250, cp862, KOI8-R, …)
    answered on thin evidence (fewer than :data:`STRONG_EVIDENCE_BYTES` non-ASCII bytes),
    unless windows-1252 reads as implausible text (:func:`singlebyte.implausible`)."""
    if codec in _USUAL_SINGLE_BYTE_ANSWERS or codec in _MULTIBYTE_CJK or codec in _JAPANESE:
        return codec
    if non_ascii_bytes(sample) >= STRONG_EVIDENCE_BYTES:
        return codec
    if singlebyte.implausible(decode_as(sample, _USUAL_SINGLE_BYTE)[0]):
        return codec
    return _USUAL_SINGLE_BYTE


def widen_latin(data: bytes, encoding: str) -> str:
    """ISO-8859-1/-15 → windows-1252 when ``data`` has bytes 0x80–0x9F: C1 controls in
    ISO-8859, punctuation (€ … “ ” –) in windows-1252. chardet sees only the first
    64 KiB, so it cannot know about them further on."""
    if encoding in _LATIN_ISO and _C1_BYTES.search(data) is not None:
        return "windows-1252"
    return encoding


def detect(data: bytes) -> str | None:
    """Detect the encoding of non-ASCII, non-UTF-8 ``data`` from :func:`evidence_sample`.

    A sample that reads as unmistakable Japanese (:func:`surely_japanese`) settles it
    without chardet; otherwise chardet answers and :func:`prefer_japanese` checks it, then
    :func:`japanese_over_single_byte` when it answered a single-byte code page and
    :func:`japanese_over_cjk` (the kanji prior) when it answered Chinese or Korean; a rare
    single-byte answer on thin evidence becomes windows-1252 (:func:`usual_single_byte`).
    On thin evidence (fewer than :data:`STRONG_EVIDENCE_BYTES` non-ASCII bytes) each
    candidate is then weighed sequence by sequence (:mod:`indexer.encoding.sparse`).

    Returns:
        Our codec name, or None when neither chardet nor the Japanese check finds one.
    """
    sample = evidence_sample(data)
    answer = _detect(data, sample)
    if non_ascii_bytes(sample) >= STRONG_EVIDENCE_BYTES:
        return answer
    return sparse.weigh_sparse(sample, answer) or answer


def _detect(data: bytes, sample: bytes) -> str | None:
    """:func:`detect` before the thin-evidence check."""
    readings = japanese_readings(sample)
    sure = surely_japanese(readings)
    if sure is not None:
        return sure
    guess = chardet_encoding(sample)
    if guess in ("utf-8", "utf-16le", "utf-16be", "iso2022_jp"):
        if strict_text(sample, guess) is not None:
            return guess
        guess = None  # a Unicode answer for bytes that are not (one cut lead at the end)
    if guess is None:
        return prefer_japanese(readings, guess)
    japanese = (
        prefer_japanese(readings, guess)
        or japanese_over_single_byte(sample, readings, guess)
        or japanese_over_cjk(sample, readings, guess)
    )
    return japanese or widen_latin(data, usual_single_byte(sample, guess))
