"""Split a parsed page into text blocks in document order; remember which elements span which."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from indexer.extract.boilerplate import is_furniture, is_hidden
from indexer.extract.tags import BLOCK_TAGS, BOILERPLATE_TAGS, CELL_TAGS, DROP_TAGS, HEADING_TAGS
from indexer.extract.text import BREAK, drop_wide_breaks, join_lines, visible_chars

#: Link density (share of a block's characters inside links) above which text is mostly
#: links: navigation, a teaser's linked headline, a link list. One threshold for every step.
MOSTLY_LINKS = 0.5
# Sentence punctuation, Japanese and Latin (Latin only before a space or at the end, so
# that URLs, decimals and abbreviations inside words do not count).
_WIDE_PUNCT = "。、．，！？!?"
_LATIN_PUNCT = re.compile(r"[.,;:](?=\s|$)")
_BLOCKISH = BLOCK_TAGS | CELL_TAGS
# Inline elements: their furniture class names (a.share-link) say nothing about blocks.
_PHRASING_TAGS = frozenset(
    {
        "a", "abbr", "b", "big", "cite", "code", "em", "font", "i", "img", "kbd", "label",
        "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var",
    }
)  # fmt: skip
# Navigation and footers are never the content: not walked at all (they are the bulk of
# many pages' markup). Other furniture is walked, as markup may mislabel a wrapper.
_SKIP_TAGS = frozenset({"nav", "footer"})
_MAY_HIDE = frozenset({"hidden", "aria-hidden", "style"})
_STRUCTURE_TAGS = frozenset({"article", "main", "table", "tr", "td", "th"})
_LAYOUT_IN_CELL = BLOCK_TAGS | {"br", "img"}
_NAMING = frozenset({"class", "id", "role"})
_SEMANTIC_TAGS = frozenset({"article", "main"})
_NOT_INLINE = _BLOCKISH | _STRUCTURE_TAGS


def punctuation(text: str) -> int:
    """Sentence punctuation marks in ``text``: Japanese ones and ``!?`` anywhere, Latin
    ``.,;:`` only before white space or at the end (not in URLs, decimals, abbreviations)."""
    marks = sum(map(text.count, _WIDE_PUNCT))
    if "." in text or "," in text or ";" in text or ":" in text:
        marks += len(_LATIN_PUNCT.findall(text))
    return marks


def _is_semantic(element: etree._Element, keys: Sequence[str | bytes]) -> bool:
    """True for ``role=main`` (WAI-ARIA) or ``itemprop=articleBody`` (schema.org)."""
    return ("role" in keys and element.get("role") == "main") or (
        "itemprop" in keys and element.get("itemprop") == "articleBody"
    )


def _holds_title(element: etree._Element) -> bool:
    """True for an article's own header: ``<header>`` or a box holding its ``<h1>``."""
    return element.tag == "header" or element.find(".//h1") is not None


def _data_row(row: etree._Element) -> bool:
    """True when a ``<tr>`` holds only short inline cells: a data row, read as one line.

    A cell holding blocks, ``<br>`` or images is a layout cell and stays its own block.
    """
    for cell in row:
        if cell.tag not in CELL_TAGS:
            continue
        for node in cell.iterdescendants():
            if node.tag in _LAYOUT_IN_CELL:
                return False
    return True


@dataclass(slots=True)
class Block:
    """One run of text between block boundaries.

    Attributes:
        text: the block's text; ``<br>`` breaks kept as newlines.
        owner: the nearest block-level element holding the text.
        chars: non-space characters.
        weight: chars with East-Asian characters counted 2.5 times (they carry about
            as much as 2–3 Latin letters); characters from U+0800 up count as wide.
        link_chars: non-space characters inside ``<a href>``.
        punct: sentence punctuation marks.
        tags: inline elements opened inside the block.
        heading: the block is a heading (``h1``–``h6``).
        furniture: the block lies inside page furniture (set by
            :func:`indexer.extract.blocks.mark_furniture`).
        depth: element depth of the owner.
    """

    text: str
    owner: etree._Element
    chars: int
    weight: float
    link_chars: int
    punct: int
    tags: int
    heading: bool
    depth: int
    furniture: bool = False

    @property
    def link_density(self) -> float:
        """Share of the block's characters inside links, 0.0–1.0."""
        return self.link_chars / self.chars if self.chars else 0.0


@dataclass(slots=True)
class Segmentation:
    """Blocks of a page in document order.

    Attributes:
        blocks: the text blocks.
        spans: element → ``(first, end)`` block indexes it covers (``end`` exclusive).
        furniture: elements that look like page furniture by markup (see
            :func:`indexer.extract.boilerplate.is_furniture`), inner ones first.
        skipped: elements not walked at all as ``(blocks before it, element, why)``, why
            ``navigation`` (``<nav>``, ``<footer>``) or ``hidden``; for explanations
            (:mod:`indexer.extract.explain`).
        semantic: walked elements marking main content (``<article>``, ``<main>``,
            ``role=main``, ``itemprop=articleBody``) in document order, found on the way
            (:mod:`indexer.extract.semantic` needs no second pass over the tree).
    """

    blocks: list[Block] = field(default_factory=list)
    spans: dict[etree._Element, tuple[int, int]] = field(default_factory=dict)
    furniture: list[etree._Element] = field(default_factory=list)
    skipped: list[tuple[int, etree._Element, str]] = field(default_factory=list)
    semantic: list[etree._Element] = field(default_factory=list)


@dataclass(slots=True)
class _Acc:
    pieces: list[str] = field(default_factory=list)
    link_chars: int = 0
    tags: int = 0
    has_text: bool = False


class _Walker:
    def __init__(self) -> None:
        self.seg = Segmentation()
        self.acc = _Acc()
        self.owner: etree._Element | None = None
        self.heading = False
        self.depth = 0
        self.in_row = False
        self.in_pre = False

    def flush(self) -> None:
        acc = self.acc
        if not acc.has_text:
            if acc.pieces:  # white space only: nothing to keep
                acc.pieces = []
                acc.tags = 0
            return
        if self.owner is None:
            self.acc = _Acc()
            return
        text = join_lines(acc.pieces)
        self.acc = _Acc()
        if not text:
            return
        chars = len(text) - text.count(" ") - text.count("\n")
        # Characters from U+0800 up (kana, kanji, Hangul, full-width forms) take three
        # UTF-8 bytes, Latin ones one or two: a C-speed estimate of the wide ones.
        wide = (len(text.encode("utf-8", "surrogatepass")) - len(text)) / 2
        links = min(acc.link_chars, chars)
        block = Block(text, self.owner, chars, chars + 1.5 * wide, links, punctuation(text),
                      acc.tags, self.heading, self.depth)  # fmt: skip
        self.seg.blocks.append(block)

    def add_text(self, text: str | None, in_link: bool) -> None:
        if not text:
            return
        acc = self.acc
        if text.isspace():
            acc.pieces.append(" ")
            return
        # <pre> keeps its line breaks (HTML §4.4.3; white-space: pre), as node_text does;
        # other white space is collapsed when the block's pieces are joined (join_lines).
        if self.in_pre:
            text = text.replace("\r\n", "\n").replace("\n", BREAK)
            if in_link:
                acc.link_chars += len(text) - text.count(" ")
        else:
            text = drop_wide_breaks(text)
            if in_link:
                acc.link_chars += visible_chars(text)
        acc.pieces.append(text)
        acc.has_text = True

    def walk(self, node: etree._Element, in_link: bool, in_article: bool, depth: int) -> None:
        tag = node.tag
        if not isinstance(tag, str) or tag in DROP_TAGS:
            return
        if tag in _SKIP_TAGS:
            self.seg.skipped.append((len(self.seg.blocks), node, "navigation"))
            return
        keys = node.keys()
        if keys and _MAY_HIDE.intersection(keys) and is_hidden(node):
            self.seg.skipped.append((len(self.seg.blocks), node, "hidden"))
            return
        if tag == "br":
            self.acc.pieces.append(BREAK)
            return
        if tag not in _NOT_INLINE and not len(node):
            # An inline leaf (a link, an image): its text joins the block, it spans none.
            self.acc.tags += 1
            if node.text:
                self.add_text(node.text, in_link or (tag == "a" and node.get("href") is not None))
            return
        if tag in _SEMANTIC_TAGS or (keys and _is_semantic(node, keys)):
            self.seg.semantic.append(node)
        blocks = self.seg.blocks
        start = len(blocks)
        blockish = tag in _BLOCKISH and not (self.in_row and tag in CELL_TAGS)
        saved = (self.owner, self.heading, self.depth, self.in_row, self.in_pre)
        if tag == "pre":
            self.in_pre = True
        if blockish:
            if self.acc.pieces:
                self.flush()
            self.owner, self.depth = node, depth
            if tag in HEADING_TAGS:
                self.heading = True
        else:
            self.acc.tags += 1
        # Furniture by tag, or by class/id/role names (is_furniture: none of them, none).
        furniture = tag in BOILERPLATE_TAGS or (
            bool(keys) and tag not in _PHRASING_TAGS and not _NAMING.isdisjoint(keys)
        )
        if furniture:
            furniture = is_furniture(node) and not (in_article and _holds_title(node))
        if tag in _STRUCTURE_TAGS:
            in_article = in_article or tag in ("article", "main")
            if tag == "tr":
                self.in_row = _data_row(node)
            elif tag == "table":
                self.in_row = False
            elif self.in_row and tag in CELL_TAGS:
                self.acc.pieces.append(" ")
        elif tag == "a" and not in_link:
            in_link = node.get("href") is not None
        if node.text:
            self.add_text(node.text, in_link)
        for child in node:
            self.walk(child, in_link, in_article, depth + 1)
            tail = child.tail
            if tail:
                self.add_text(tail, in_link)
        if blockish and self.acc.pieces:
            self.flush()
        self.owner, self.heading, self.depth, self.in_row, self.in_pre = saved
        end = len(blocks)
        if end > start:
            self.seg.spans[node] = (start, end)
            if furniture:
                self.seg.furniture.append(node)


def segment(body: etree._Element) -> Segmentation:
    """Split ``body`` into text blocks (block elements, table cells, list items, ``<br>`` runs).

    Args:
        body: the ``<body>`` element (or any root) of a cleaned lxml tree.

    Returns:
        a :class:`Segmentation`; elements without text have no entry in ``spans``.
    """
    walker = _Walker()
    walker.walk(body, False, False, 0)
    walker.flush()
    return walker.seg
