"""Page titles: the whole ``<title>`` and the title without the site's name.

A ``<title>`` often carries the site's name before or after the page's own title
("休暇の申請方法 | 社内ポータル", "Site Map - Apache HTTP Server"). Which part is the
site's cannot be told from one page — "Python || Numbers" has two parts of equal right —
so a part at either end is dropped only when the page says it is the site name
(``og:site_name``, Open Graph protocol) or when the host's template statistics have
seen that part at that end of a large share of its pages' titles
(:mod:`indexer.extract.template`): each page's first and last title parts are counted
like its blocks (:func:`affix_keys`). Otherwise the title stays whole; the whole
``<title>`` is kept beside it in any case (``title_full``).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Collection

# Separators between a page title and a site name: "Title | Site", "Site - Title",
# "Title｜Site", "Site :: Title", "Title || Section".
_SEPARATORS = re.compile(r"\s+[|\-–—:：»«/／·・]\s+|\s*[｜|]+\s*|\s*[：]\s*|\s+::\s+")


# A bracketed part at a title's start or end: "【総務ポータル】規程集", "規程集（総務部）".
_OPEN, _CLOSE = "【［〔《（([", "】］〕》）)]"
_O, _C = re.escape(_OPEN), re.escape(_CLOSE)
_BRACKETED_END = re.compile(rf"^(.*?\S)(\s*)([{_O}][^{_O}{_C}]+[{_C}])$")
_BRACKETED_START = re.compile(rf"^([{_O}][^{_O}{_C}]+[{_C}])(\s*)(\S.*)$")


def _parts(raw: str) -> list[str]:
    """``raw`` split into parts and separators, alternating (parts at even indexes); a
    bracketed group opening or closing the title is a part of its own."""
    pieces: list[str] = []
    position = 0
    for match in _SEPARATORS.finditer(raw):
        if match.start() == 0 or match.end() == len(raw):
            continue  # a leading or trailing separator is no split
        pieces += [raw[position : match.start()], match.group()]
        position = match.end()
    pieces.append(raw[position:])
    if start := _BRACKETED_START.match(pieces[0]):
        pieces[:1] = list(start.groups())
    if end := _BRACKETED_END.match(pieces[-1]):
        pieces[-1:] = list(end.groups())
    return pieces


def _normalized(text: str) -> str:
    """NFKC, lower case, spaces collapsed; digits kept ("Page 2" is not "Page 3")."""
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def title_parts(raw: str) -> list[str]:
    """The parts of a title between its separators ("A | B - C" → A, B, C)."""
    return _parts(" ".join(raw.split()))[::2]


def affix_key(part: str, end: str) -> str:
    """16 hex digits naming a title part at one ``end`` (``first`` or ``last``)."""
    data = f"title-{end}\n{_normalized(part)}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def affix_keys(raw: str) -> list[str]:
    """Keys of the first and last parts of a title of two parts or more (else none)."""
    pieces = _parts(" ".join(raw.split()))
    if len(pieces) < 3:
        return []
    return [affix_key(pieces[0], "first"), affix_key(pieces[-1], "last")]


def _is_site(part: str, end: str, site_name: str | None, affixes: Collection[str]) -> bool:
    if site_name and _normalized(part.strip(_OPEN + _CLOSE)) == _normalized(site_name):
        return True
    return affix_key(part, end) in affixes


def clean_title(raw: str, site_name: str | None = None, affixes: Collection[str] = ()) -> str:
    """``raw`` without a site-name part at its start or end (see the module docstring).

    Args:
        raw: the title as the page gives it.
        site_name: the page's ``og:site_name``, or None.
        affixes: template keys of the host (:attr:`SiteTemplate.keys`); the title parts
            among them are the host's.

    Returns:
        the title, white space collapsed; never empty when ``raw`` has text (one part
        always stays).
    """
    pieces = _parts(" ".join(raw.split()))
    while len(pieces) >= 3 and _is_site(pieces[0], "first", site_name, affixes):
        pieces = pieces[2:]
    while len(pieces) >= 3 and _is_site(pieces[-1], "last", site_name, affixes):
        pieces = pieces[:-2]
    return "".join(pieces).strip()
