"""Turn an lxml subtree into plain text the way a browser lays it out (blocks → lines)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lxml import etree

from indexer.extract.tags import BLOCK_TAGS, CELL_TAGS, DROP_TAGS

# Wide (East Asian Width W/F) script ranges: CJK symbols and punctuation, kana, CJK
# ideographs, compatibility ideographs, Hangul, full-width forms (UAX #11).
_WIDE = (
    "\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff01-\uff60\uffe0-\uffe6"
)
# WHATWG/CSS Text §4.1.3 segment-break transformation: a line break between two wide
# characters is removed rather than turned into a space.
_WIDE_BREAK = re.compile(rf"(?<=[{_WIDE}])[ \t\r\f]*\n\s*(?=[{_WIDE}])")
_SPACES = re.compile(r"[ \t\n\r\f\v\u00a0\u200b]+")
_SPACE_CHARS = " \t\n\r\f\v\u00a0\u200b"  # the characters of _SPACES
BREAK = "\x00"  # a line-break marker that never occurs in parsed HTML text


def collapse(text: str) -> str:
    """Collapse white space as CSS ``white-space: normal`` does; drop wide-wide breaks."""
    if "\n" in text:
        text = _WIDE_BREAK.sub("", text)
    return _SPACES.sub(" ", text)


def drop_wide_breaks(text: str) -> str:
    """``text`` with its wide-wide line breaks dropped (the rest of :func:`collapse`: its
    spaces are collapsed when the pieces are joined by :func:`join_lines`)."""
    return _WIDE_BREAK.sub("", text) if "\n" in text else text


def visible_chars(text: str) -> int:
    """Characters of ``text`` that are not collapsible white space (as counted after
    :func:`collapse`, less its spaces)."""
    return len(text) - sum(map(text.count, _SPACE_CHARS))


def _pieces(node: etree._Element, pre: bool) -> Iterator[str]:
    tag = node.tag
    if not isinstance(tag, str):  # comment or processing instruction: keep only its tail
        return
    if tag in DROP_TAGS:
        return
    if tag == "br":
        yield BREAK
        return
    block = tag in BLOCK_TAGS
    pre = pre or tag in ("pre", "textarea", "listing", "plaintext", "xmp")
    if block:
        yield BREAK
    elif tag in CELL_TAGS:
        yield " "
    if node.text:
        yield _pre_text(node.text) if pre else drop_wide_breaks(node.text)
    for child in node:
        yield from _pieces(child, pre)
        if child.tail:
            yield _pre_text(child.tail) if pre else drop_wide_breaks(child.tail)
    if block:
        yield BREAK


def _pre_text(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", BREAK)


def node_text(node: etree._Element) -> str:
    """Return the text of ``node`` (its tail excluded) as lines.

    Block elements and ``<br>`` start new lines, table cells are separated by a space,
    ``<pre>`` keeps its line breaks, white space is collapsed, empty lines dropped and
    dropped tags (script, style, form controls, ``<rt>``/``<rp>`` furigana) skipped.
    """
    return join_lines(_pieces(node, False))


def nodes_text(nodes: Iterable[etree._Element]) -> str:
    """Return the text of several nodes, each starting on a new line."""
    parts = (node_text(node) for node in nodes)
    return "\n".join(part for part in parts if part)


def join_lines(pieces: Iterable[str]) -> str:
    """Join text pieces, split at break markers, strip and drop empty lines."""
    raw = _SPACES.sub(" ", "".join(pieces))
    if BREAK not in raw:
        return raw.strip(" ")
    lines = (line.strip(" ") for line in raw.split(BREAK))
    return "\n".join(line for line in lines if line)
