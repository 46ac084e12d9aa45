"""RTF's body start made explicit before Apache Tika reads the document.

Tika's RTF parser (``TextExtractor``) takes everything before the first of ``\\par``,
``\\pard``, ``\\sect``, ``\\sectd``, ``\\plain``, ``\\ltrch``, ``\\rtlch``, ``\\htmlrtf``,
``\\line``, or a ``\\fN`` after the font table, as the header, and drops the text it sees
there: a hand-written or generated RTF whose body opens with ``\\uN`` escapes (or plain
text) before any font or paragraph word loses that text. RTF 1.9.1 has no such rule: the
body starts after the header's destination groups. :func:`with_body_start` puts a
``\\pard`` (paragraph defaults, which is what a body starts with anyway) before the body's
first text when none of those words comes before it; an RTF that has one (LibreOffice and
Word write ``\\pard\\plain`` first) is left as it is.
"""

from __future__ import annotations

import re

#: Control words that end the header in Tika's RTF parser.
HEADER_ENDS = frozenset(
    {b"par", b"pard", b"sect", b"sectd", b"plain", b"ltrch", b"rtlch", b"htmlrtf", b"line"}
)
#: Destinations of the header whose text is not the body's (RTF 1.9.1, "Header").
DESTINATIONS = frozenset(
    {b"fonttbl", b"colortbl", b"stylesheet", b"info", b"listtable", b"listoverridetable"}
    | {b"rsidtbl", b"generator", b"xmlnstbl", b"filetbl", b"revtbl", b"pict", b"object"}
    | {b"header", b"footer", b"headerl", b"headerr", b"footerl", b"footerr", b"footnote"}
)
_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # a control word (1) and its parameter (2)
    rb"|\\'[0-9a-fA-F]{2}"  # a byte of the code page: text
    rb"|\\([^a-zA-Z'])"  # a control symbol (3): \* marks a destination
    rb"|([{}])"  # a group (4)
    rb"|[^\\{}]+"  # a run of text (or white space)
)
_TEXT_SYMBOLS = frozenset(b"~-_{}\\")


def _body_text_at(body: bytes) -> int | None:
    """Where the body's first text starts when no header-ending word comes before it, else
    None (nothing to do)."""
    skipped: list[bool] = []  # per open group: inside a destination
    fonts_seen, group_opened = False, False
    for token in _TOKEN.finditer(body):
        word, symbol, brace = token.group(1), token.group(3), token.group(4)
        if brace is not None:
            if brace == b"{":
                skipped.append(bool(skipped) and skipped[-1])
            elif skipped:
                skipped.pop()
            group_opened = brace == b"{"
            continue
        first, group_opened = group_opened, False
        if skipped and skipped[-1]:
            continue
        if symbol is not None and symbol != b"*" and ord(symbol) not in _TEXT_SYMBOLS:
            continue
        if (symbol == b"*" or word in DESTINATIONS) and first and skipped:
            skipped[-1] = True
            fonts_seen = fonts_seen or word == b"fonttbl"
            continue
        if word is not None and word != b"u":
            if word in HEADER_ENDS or (word == b"f" and fonts_seen):
                return None
            continue
        if word == b"u" or symbol is not None or token.group().strip():
            return token.start()
    return None


def with_body_start(body: bytes) -> bytes:
    """``body`` (an RTF document) with ``\\pard`` before its first text when Tika would
    take that text for the header's (see the module's docstring)."""
    at = _body_text_at(body)
    return body if at is None else body[:at] + b"\\pard " + body[at:]
