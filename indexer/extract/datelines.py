"""Datelines and bylines: "Updated 5:27 am CST, Nov 20, 2019", "By Jane Doe", "2019年4月4日 配信".

A news story, a blog entry and an intranet notice open (or close) with when it was
written and by whom. The date is the document's metadata (:mod:`indexer.extract.metadata`),
the line itself is not the text: no gold of the three sets keeps it, and a search for
"November" should not find every story of the month. A dateline is known by its shape:

- a short block (at most ``_MAX_CHARS`` characters) holding a date or a time, in which,
  with dates, times, weekdays, time zones and the dateline words ("Updated", "Posted",
  "by", "公開", "配信" …) taken out, at most a name is left: ``_MAX_WORDS`` words, each
  capitalised, or ``_MAX_WIDE`` wide characters;
- or a byline: "By" and capitalised names, "文：", "執筆：" and a name;
- a leading label must be a dateline's ("更新日：", "Posted:"): "日時：3月6日 13:00" and
  "発売日：2019-04-24" are the page's data;
- it stands in the content's header or trailer (before its first prose block or after
  its last, :mod:`indexer.extract.zones`), not in a table, and not as one entry of a
  longer list (a list of references, a news list);
- a heading is a dateline only when nothing but the date is left ("2019年04月04日").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from indexer.extract.segment import Block
from indexer.extract.zones import Zones, folded

_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Japanese era names (the year of a reign: 令和6年 is 2024). The one-letter forms (R6.5.8)
# are not taken: they read as version numbers (R2.1.3).
_ERAS = "(?:令和|平成|昭和)"
_DAYS = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?"
# Dates, times and their parts (text in NFKC, lower case).
#: A date in the forms datelines and news columns use (NFKC, lower case).
DATE = re.compile(
    rf"(?<![\d.])\d{{4}}\s*[-/.年]\s*\d{{1,2}}(?:\s*[-/.月]\s*\d{{1,2}}\s*日?)?(?![\d.])"
    rf"|(?<![\d.])\d{{1,2}}\s*[/.-]\s*\d{{1,2}}\s*[/.-]\s*\d{{2,4}}(?![\d.])"
    rf"|\d{{1,2}}\s*月\s*\d{{1,2}}\s*日|\d{{1,2}}/\d{{1,2}}\s*\([月火水木金土日]\)"
    rf"|{_ERAS}\s*(?:\d{{1,2}}|元)\s*年\s*\d{{1,2}}\s*月(?:\s*\d{{1,2}}\s*日)?"
    rf"|{_ERAS}\d{{1,2}}\.\d{{1,2}}\.\d{{1,2}}(?![\d.])"
    rf"|\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\b,?(?:\s*\d{{4}})?"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}(?:,?\s*\d{{4}})?"
)
_TIME = re.compile(
    r"\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:am|pm|a\.m\.|p\.m\.))?|\d{1,2}\s*時(?:\s*\d{1,2}\s*分)?"
)
_OTHER = re.compile(
    rf"\b{_DAYS}(?=\W|$)|\b{_MONTHS}(?=\W|$)|\([月火水木金土日]\)|[月火水木金土日]曜日?"
    r"|\b(?:e[sd]t|c[sd]t|p[sd]t|m[sd]t|gmt|utc|bst|cet|cest|ist|hst|jst|kst|aest|et|pt)\b"
    r"|\b\d+\s+(?:min|mins|minutes?|hours?|hrs?|days?|weeks?|months?)(?:\s+ago)?\b"
    r"|\b\d+\s+min\s+read\b"
)
# The words of a dateline, and the labels it may start with.
_WORDS = frozenset(
    {
        "by", "posted", "updated", "published", "modified", "last", "first", "on", "at",
        "and", "date", "time", "read", "min", "written", "story", "text", "words",
        "更新", "更新日", "公開", "公開日", "掲載", "掲載日", "投稿", "投稿日", "作成",
        "作成日", "最終更新", "最終更新日", "配信", "登録日", "日付", "発行", "発行日",
        "記事", "年", "月", "日", "時", "分", "am", "pm",
    }
)  # fmt: skip
_LABEL = re.compile(r"^\s*[\[(（【]?\s*([^\d:：|/]{1,12}?)\s*[:：]")
_BYLINE = re.compile(
    r"^\s*(?:(?:written|posted|story|text|words|photos?)\s+)?by\s+\S"
    r"|^\s*[(（]?(?:文|写真|取材|執筆|著者|記者|筆者|投稿者|作成者)[^:：=＝/／]{0,4}[:：=＝/／]"
)
_TOKEN = re.compile(r"[^\W\d_]+", re.UNICODE)
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")
_MAX_CHARS = 100
_MAX_WORDS = 6
_MAX_WIDE = 14
# An entry of a list longer than this is not a dateline (a list of references).
_MAX_ITEMS = 3
_TABLE_TAGS = frozenset({"td", "th", "tr", "table"})


def _residue(form: str) -> list[str]:
    """The words of ``form`` left when dates, times and dateline words are taken out."""
    for pattern in (DATE, _TIME, _OTHER):
        form = pattern.sub(" ", form)
    return [token for token in _TOKEN.findall(form) if token not in _WORDS]


def _names_only(text: str, words: list[str]) -> bool:
    """True when ``words`` (the residue) are at most a name: few capitalised Latin words
    (in ``text`` as written) or few wide characters."""
    wide = sum(len(_WIDE.findall(word)) for word in words)
    latin = [word for word in words if not _WIDE.search(word)]
    if wide > _MAX_WIDE or len(latin) > _MAX_WORDS:
        return False
    written = {w.lower(): w for w in re.findall(r"[^\W\d_]+", text)}
    return all(written.get(word, word)[:1].isupper() for word in latin if len(word) > 1)


def is_dateline_text(text: str, heading: bool = False) -> bool:
    """True when ``text`` is a dateline or a byline by its words (module docstring)."""
    if len(text) > _MAX_CHARS:
        return False
    form = folded(text)
    label = _LABEL.match(form)
    if label and not set(_TOKEN.findall(label.group(1))) <= _WORDS:
        return False
    dated = DATE.search(form) is not None or _TIME.search(form) is not None
    words = _residue(form)
    if heading:
        return dated and not words
    if dated or _BYLINE.match(form):
        return _names_only(text, words)
    return False


def _listed(block: Block) -> bool:
    """True for a table cell or row, or an entry of a list of more than ``_MAX_ITEMS``
    or of one in which two entries or more are a date and what happened on it (a
    chronology, a news list; a list of the article's metadata holds dates, times and
    dateline words only: "Published May 8", "Updated May 9")."""
    owner = block.owner
    if owner.tag in _TABLE_TAGS or any(a.tag in _TABLE_TAGS for a in owner.iterancestors()):
        return True
    if owner.tag in ("li", "dd", "dt"):
        parent = owner.getparent()
        if parent is None:
            return False
        entries = [i for i in parent if isinstance(i.tag, str)]
        if len(entries) > _MAX_ITEMS:  # at most _MAX_ITEMS texts joined per entry below
            return True
        return len(_dates(folded("".join(map(str, i.itertext()))) for i in entries)) >= 2
    return False


def dateline_blocks(zones: Zones) -> set[int]:
    """Kept blocks that are datelines or bylines in the header or trailer (module
    docstring)."""
    found = set()
    for index in zones.kept:
        block = zones.seg.blocks[index]
        if not zones.outside(index) or _listed(block) or _events(block.text) >= 2:
            continue
        if is_dateline_text(block.text, block.heading):
            found.add(index)
    return found - _paragraph_chronology(zones, found)


def _events(text: str) -> int:
    """Distinct dates of the lines of ``text`` that are a date and what happened on it
    ("平成15年10月 大阪支店開設"); a dateline repeated ("Nov 12, 2018 | By: X") is one."""
    return len(_dates(folded(line) for line in text.split("\n")))


# How a chronology's entry may open besides a :data:`DATE`: a month and a year (March
# 2016), a year alone (1998:, 1998 -, 1998年).
_ENTRY_START = re.compile(
    rf"^\s*(?:{_MONTHS}\s+)?(?:1[89]|20)\d{{2}}(?![\d.])\s*(?:年|[:：.\-–—])?"
)


def _date_only(text: str) -> str:
    """``text`` (NFKC, lower case, stripped) when it is a date alone: a :data:`DATE`, a
    month and a year or a year (``1985年6月``, ``March 2016``, ``1998``), else ''."""
    form = folded(text).strip()
    month = form.removesuffix("月")  # 1985年6月: DATE reads the year and month as 1985年6
    if DATE.fullmatch(form) or DATE.fullmatch(month) or _ENTRY_START.fullmatch(form):
        return form
    return ""


def _entry_date(text: str) -> str:
    """The date of ``text`` (a block's) when it is a date and what happened on it: a
    :data:`DATE` with words besides (``2008年10月 大阪支社を開設``), or opening with a month
    and year or a year (``March 2016 Archive opened``, ``1998: company founded``); else
    ''."""
    form = folded(text)
    date = _event(form)
    if date:
        return date
    start = _ENTRY_START.match(form)
    return start.group().strip() if start is not None and _residue(form[start.end() :]) else ""


def is_chronology(entries: Sequence[Block]) -> bool:
    """True when the list entries ``entries`` (``li``, ``dt``, ``dd`` blocks, in order)
    are a chronology: each a date and what happened on it (``2015年4月 本社倉庫を開設``,
    ``March 2016 Archive opened``), or a ``dt`` that is a date alone followed by its
    ``dd`` (``<dt>1985年6月</dt><dd>会社を設立``), of two dates or more."""
    dates = set()
    term = False
    for block in entries:
        if date := _entry_date(block.text):
            dates.add(date)
            term = False
        elif block.owner.tag == "dt" and (date := _date_only(block.text)):
            dates.add(date)
            term = True
        elif block.owner.tag == "dd" and term:
            term = False
        else:
            return False
    return len(dates) >= 2


def _dates(forms: Iterable[str]) -> set[str]:
    """The distinct dates of the ``forms`` (NFKC, lower case) that are a date and an event."""
    return {date for form in forms if (date := _event(form))}


def _event(form: str) -> str:
    """The date of ``form`` when it is a date and an event, else ''."""
    found = DATE.search(form)
    return found.group() if found is not None and _residue(form) else ""


def _paragraph_chronology(zones: Zones, found: set[int]) -> set[int]:
    """Of the dateline-shaped blocks ``found``, those that are entries of a chronology
    written as paragraphs: two or more under one parent, each a date and an event, of
    different dates (a dateline shown twice has one)."""
    by_parent: dict[int, dict[str, int]] = {}
    for index in found:
        block = zones.seg.blocks[index]
        date = _event(folded(block.text))
        if date:
            by_parent.setdefault(id(block.owner.getparent()), {})[date] = index
    return {i for group in by_parent.values() if len(group) >= 2 for i in group.values()}
