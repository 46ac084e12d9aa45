"""Snippets of a ``/search`` hit: pick the highlighted field, bound the length.

The handler highlights ``content`` (Kuromoji words) and ``content_bigram`` (fragments) with
``<em>…</em>`` (Solr's unified highlighter, sentence passages). A sentence can run to
hundreds of characters, so each snippet is cut to about ``limit`` visible characters at
sentence or clause ends (。、！？, full-width and ASCII stops, line breaks) around its first
mark, never inside a word when such an end is near; ``…`` shows where text was left out.
What a hit shows (title, snippets) leaves out bidirectional embedding, override and isolate
controls (U+202A–U+202E, U+2066–U+2069; Unicode UAX #9): crawled text holding U+202E would
otherwise turn the rest of a line around ("Trojan Source"), on a web page as in a terminal.
"""

from __future__ import annotations

import re

SNIPPET_CHARS = 160
PRE, POST = "<em>", "</em>"
_BOUNDARY = frozenset("。、．，！？!?\n")
_LINE_BREAKS = re.compile(r"[\t\n\r]+")  # table cells and lines of documents: one space
_MARK = re.compile(re.escape(PRE) + "(.*?)" + re.escape(POST), re.S)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_bidi(text: str) -> str:
    """``text`` without bidirectional embedding, override and isolate controls."""
    return _BIDI.sub("", text)


def pick(fields: dict[str, list[str]], limit: int = SNIPPET_CHARS) -> list[str]:
    """Snippets for one hit from the handler's ``highlighting`` entry.

    Marked ``content`` snippets come first, then marked ``content_bigram`` ones with other
    text; a hit with no mark anywhere gets its default summary (leading text). Returns at
    most three snippets, each bounded by :func:`bound`, line breaks and tabs (the cells
    of a sheet or a CSV) turned into one space.
    """
    content = fields.get("content", [])
    bigram = fields.get("content_bigram", [])
    marked = [s for s in content if PRE in s]
    seen = {_plain(s)[0] for s in marked}
    for snippet in bigram:
        if PRE in snippet and _plain(snippet)[0] not in seen:
            marked.append(snippet)
            seen.add(_plain(snippet)[0])
    chosen = marked or content[:1] or bigram[:1]
    return [_LINE_BREAKS.sub(" ", bound(s, limit)).strip() for s in chosen[:3]]


def bound(snippet: str, limit: int = SNIPPET_CHARS) -> str:
    """``snippet`` cut to about ``limit`` visible characters around its first mark."""
    text, spans = _plain(snippet)
    if len(text) <= limit:
        return snippet
    anchor = spans[0][0] if spans else 0
    start = _start(text, anchor, limit)
    end = _end(text, start, max(anchor + 1, spans[0][1] if spans else 0), limit)
    body = _marked(text, spans, start, end)
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else "")


def _plain(snippet: str) -> tuple[str, list[tuple[int, int]]]:
    """The visible text and the (start, end) spans of its marks."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    length = 0
    for match in _MARK.finditer(snippet):
        parts.append(snippet[pos : match.start()])
        length += match.start() - pos
        spans.append((length, length + len(match.group(1))))
        parts.append(match.group(1))
        length += len(match.group(1))
        pos = match.end()
    parts.append(snippet[pos:])
    return "".join(parts), spans


def _start(text: str, anchor: int, limit: int) -> int:
    """Just after the last clause end before ``anchor``, at most ``limit // 2`` back."""
    low = max(0, anchor - limit // 2)
    for i in range(anchor - 1, low - 1, -1):
        if text[i] in _BOUNDARY:
            return i + 1
    return low if anchor - low == limit // 2 else 0


def _end(text: str, start: int, must_reach: int, limit: int) -> int:
    """After the last clause end within ``limit`` of ``start`` that keeps the first mark;
    else a hard cut at ``start + limit``, also inside a mark longer than the bound (a pasted
    passage is marked whole: it is shown cut, its mark closed)."""
    high = min(len(text), start + limit)
    for i in range(high - 1, must_reach - 1, -1):
        if text[i] in _BOUNDARY:
            return i + 1
    return high


def _marked(text: str, spans: list[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` with the marks that fall in it put back."""
    out: list[str] = []
    pos = start
    for s, e in spans:
        s, e = max(s, start), min(e, end)
        if s >= e:
            continue
        out += [text[pos:s], PRE, text[s:e], POST]
        pos = e
    out.append(text[pos:end])
    return "".join(out)
