"""Split a parsed page into text blocks in document order; remember which elements span which."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from indexer.extract.boilerplate import is_furniture, is_hidden
from indexer.extract.tags import BLOCK_TAGS, BOILERPLATE_TAGS, CELL_TAGS, DROP_TAGS, HEADING_TAGS
from indexer.extract.text import BREAK, collapse, join_lines

# Sentence punctuation, Japanese and Latin (Latin only before a space or at the end, so
# that URLs, decimals and abbreviations inside words do not count).
#: Link density (share of a block's characters inside links) above which text is mostly
#: links: navigation, a teaser's linked headline, a link list. One threshold for every step.
MOSTLY_LINKS = 0.5
_PUNCT = re.compile(r"[。、．，！？!?]|[.,;:](?=\s|$)")
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
    """

    blocks: list[Block] = field(default_factory=list)
    spans: dict[etree._Element, tuple[int, int]] = field(default_factory=dict)
    furniture: list[etree._Element] = field(default_factory=list)
    skipped: list[tuple[int, etree._Element, str]] = field(default_factory=list)


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
            if acc.pieces:
                self.acc = _Acc()
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
        self.seg.blocks.append(
            Block(
                text=text,
                owner=self.owner,
                chars=chars,
                weight=chars + 1.5 * wide,
                link_chars=min(acc.link_chars, chars),
                punct=len(_PUNCT.findall(text)),
                tags=acc.tags,
                heading=self.heading,
                depth=self.depth,
            )
        )

    def add_text(self, text: str | None, in_link: bool) -> None:
        if not text:
            return
        if text.isspace():
            self.acc.pieces.append(" ")
            return
        # <pre> keeps its line breaks (HTML §4.4.3; white-space: pre), as node_text does.
        text = text.replace("\r\n", "\n").replace("\n", BREAK) if self.in_pre else collapse(text)
        self.acc.pieces.append(text)
        self.acc.has_text = True
        if in_link:
            self.acc.link_chars += len(text) - text.count(" ")

    def walk(self, node: etree._Element, in_link: bool, in_article: bool, depth: int) -> None:
        tag = node.tag
        if not isinstance(tag, str) or tag in DROP_TAGS:
            return
        if tag in _SKIP_TAGS:
            self.seg.skipped.append((len(self.seg.blocks), node, "navigation"))
            return
        keys = node.keys()
        has_attributes = bool(keys)
        if has_attributes and _MAY_HIDE.intersection(keys) and is_hidden(node):
            self.seg.skipped.append((len(self.seg.blocks), node, "hidden"))
            return
        if tag == "br":
            self.acc.pieces.append(BREAK)
            return
        seg = self.seg
        start = len(seg.blocks)
        blockish = tag in _BLOCKISH and not (self.in_row and tag in CELL_TAGS)
        saved = (self.owner, self.heading, self.depth, self.in_row, self.in_pre)
        self.in_pre = self.in_pre or tag == "pre"
        if blockish:
            if self.acc.pieces:
                self.flush()
            self.owner, self.depth = node, depth
            self.heading = self.heading or tag in HEADING_TAGS
        else:
            self.acc.tags += 1
        furniture = (
            (has_attributes or tag in BOILERPLATE_TAGS)
            and tag not in _PHRASING_TAGS
            and is_furniture(node)
        )
        if furniture and in_article:
            furniture = not _holds_title(node)
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
            if child.tail:
                self.add_text(child.tail, in_link)
        if blockish and self.acc.pieces:
            self.flush()
        self.owner, self.heading, self.depth, self.in_row, self.in_pre = saved
        end = len(seg.blocks)
        if end > start:
            seg.spans[node] = (start, end)
            if furniture:
                seg.furniture.append(node)


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
