"""Field values every document parser shares: title from the first line, language, dates."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

#: Longest title taken from a document's first line (characters).
FIRST_LINE_CHARS = 100
#: Placeholder metadata that generators write when nothing was set (ReportLab, Word
#: templates): not a title or an author.
PLACEHOLDERS = frozenset({"untitled", "anonymous", "unknown", "unspecified", "none", "title"})
_KANA = re.compile("[\u3041-\u3096\u30a1-\u30fa]")
_KANJI = re.compile("[\u4e00-\u9fff]")
#: Frequent forms of simplified (们 这 说 …) and traditional (們 這 說 …) Chinese that
#: modern Japanese does not write (its forms: 説, 没, 発, 経, 様, 対, 会, 来 …).
_CHINESE_ONLY = re.compile(
    "[们这说么吗没个对发现种样经问题进长门东车书为买卖乐爱见语话让认识应该关开时过还"
    "們這說麼嗎沒發經樣對會來]"
)
_NON_ASCII_LETTER = re.compile(r"[^\x00-\x7f\s]")
_PDF_DATE = re.compile(
    r"D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?"
)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
_BLANK_LINES = re.compile(r"\n{3,}")


def meta_value(value: object) -> str | None:
    """A metadata string stripped, or None when empty or a placeholder."""
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value if value and value.lower() not in PLACEHOLDERS else None


def first_line(text: str) -> str:
    """The first non-empty line of ``text``, at most :data:`FIRST_LINE_CHARS` characters."""
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            return line[:FIRST_LINE_CHARS]
    return ""


def guess_lang(text: str) -> str | None:
    """``ja`` when kana are at least 5 % of the first 20,000 characters' non-ASCII part
    (kana occur only in Japanese), or, without kana, when kanji are most of it and no
    Chinese-only form shows (:func:`_kanji_only_japanese`); else None: no guess for other
    languages."""
    sample = text[:20_000]
    others = len(_NON_ASCII_LETTER.findall(sample))
    kana = len(_KANA.findall(sample))
    if kana >= 2 and kana * 20 >= others:
        return "ja"
    return "ja" if kana == 0 and _kanji_only_japanese(sample, others) else None


def _kanji_only_japanese(sample: str, others: int) -> bool:
    """Text without kana but of kanji (a sheet of names, departments, places, item labels:
    氏名, 部署, 金額) is taken for Japanese: the content this crawler indexes is a Japanese
    intranet's, where Chinese documents are rare, and such text is best searched with the
    Japanese analysis anyway. Not when a form only Chinese writes (simplified 们 这 说, or
    traditional 們 這 說) is among them, nor when kanji are under half of the non-ASCII
    letters (Hangul, other scripts)."""
    kanji = len(_KANJI.findall(sample))
    if kanji < 2 or kanji * 2 < others:
        return False
    return len(_CHINESE_ONLY.findall(sample)) * 50 < kanji


def document_lang(text: str, declared: str | None) -> str | None:
    """The language of a document: the text's evidence over its metadata (``dc:language``
    is the template's or the author's locale, often ``en-US`` over Japanese text).

    ``ja`` when :func:`guess_lang` finds Japanese; None when ``declared`` says Japanese but
    a text of at least 200 letters holds no kana or kanji; else ``declared``.
    """
    guessed = guess_lang(text)
    if guessed is not None:
        return guessed
    if declared and declared.lower().startswith("ja"):
        sample = text[:20_000]
        letters = sum(1 for char in sample if char.isalpha())
        if letters >= 200 and not _KANA.search(sample) and not _KANJI.search(sample):
            return None
    return declared


def clean_text(text: str) -> str:
    """Newlines unified, control characters dropped, runs of blank lines cut to one."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    lines = [line.rstrip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def pdf_date(value: object) -> str | None:
    """A PDF date string (ISO 32000-1 §7.9.4, ``D:YYYYMMDDHHmmSSOHH'mm'``) as ISO 8601 in
    UTC, or None when it is not one."""
    if not isinstance(value, str):
        return None
    match = _PDF_DATE.match(value.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, sign, off_h, off_m = match.groups()
    offset = timedelta(hours=int(off_h or 0), minutes=int(off_m or 0))
    zone = timezone(-offset if sign == "-" else offset)
    try:
        parsed = datetime(
            int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0),
            int(second or 0), tzinfo=zone,
        )  # fmt: skip
    except ValueError:
        return None
    parsed = parsed.astimezone(UTC)
    return parsed.strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_date(value: object) -> str | None:
    """A ``datetime`` (naive taken as UTC, as OOXML core properties are W3CDTF UTC) as
    ISO 8601 in UTC, or None."""
    if not isinstance(value, datetime):
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
