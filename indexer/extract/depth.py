"""Bound the element nesting depth of HTML source, for pages libxml2 would cut short.

libxml2's HTML parser stops at 256 nested elements (2048 with ``XML_PARSE_HUGE``) and
drops the rest of the document. Old pages reach that with one unclosed ``<font>`` per
line; hostile ones with thousands of ``<div>``. :func:`bound_depth` rewrites the source
in one regular-expression pass (no recursion, no tree): inline formatting tags are
removed (extraction unwraps them anyway), and start tags opened beyond ``limit`` open
elements are dropped with their end tags (a block tag becomes a ``<br>``, keeping the
line break). The depth count follows the HTML tree builder only roughly (HTML §13.2.6:
void elements, a ``<p>``/``<li>``/… closing an open one of its own name); it counts too
deep rather than too shallow, which only flattens more.
"""

from __future__ import annotations

import re
from collections import Counter

from indexer.extract.tags import BLOCK_TAGS, CELL_TAGS, UNWRAP_TAGS

# Void elements never hold children (HTML §13.1.2, plus obsolete ones parsers still know).
_VOID = frozenset(
    {
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
        "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
    }
)  # fmt: skip
# An open element of the same name is closed by these start tags (HTML §13.2.6.4.7).
_SELF_CLOSING_PEERS = frozenset({"p", "li", "dt", "dd", "option", "tr", "td", "th"})
_LINE_TAGS = BLOCK_TAGS | CELL_TAGS
# Raw-text and escapable raw-text elements (HTML §13.1.2) are copied whole, so that a
# "<" inside a script is not read as a tag; comments likewise.
_TOKEN = re.compile(
    r"<(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript)\b.*?</\1\s*>"
    r"|<!--.*?-->"
    r"|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*>",
    re.IGNORECASE | re.DOTALL,
)


class _Bounder:
    """Rewrites one tag token at a time, tracking the open elements."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: list[str] = []
        self.dropped: Counter[str] = Counter()

    def token(self, match: re.Match[str]) -> str:
        name = match.group(3)
        if name is None:  # raw-text element or comment
            return match.group(0)
        name = name.lower()
        if name in UNWRAP_TAGS:
            return ""
        if match.group(2):
            return self._end(name, match.group(0))
        return self._start(name, match.group(0))

    def _start(self, name: str, tag: str) -> str:
        if name in _VOID or tag.endswith("/>"):
            return tag
        if name in _SELF_CLOSING_PEERS and self.open and self.open[-1] == name:
            self.open.pop()
        if len(self.open) >= self.limit:
            self.dropped[name] += 1
            return "<br>" if name in _LINE_TAGS else ""
        self.open.append(name)
        return tag

    def _end(self, name: str, tag: str) -> str:
        if self.dropped[name] > 0:  # dropped elements are the innermost ones
            self.dropped[name] -= 1
            return "<br>" if name in _LINE_TAGS else ""
        if name in self.open:
            while self.open.pop() != name:
                pass
        return tag


def bound_depth(html: str, limit: int) -> str:
    """Return ``html`` with inline formatting tags removed and nesting cut at ``limit``.

    Args:
        html: HTML source text.
        limit: open elements allowed (0 keeps only void elements: a flat page whose
            block boundaries are ``<br>`` line breaks).

    Returns:
        the rewritten source; text, comments, scripts and tag attributes are unchanged.
    """
    return _TOKEN.sub(_Bounder(limit).token, html)
