"""Where a kept block stands in the chosen content: before, inside or after its prose.

The rules that drop a kind of block (:mod:`indexer.extract.extras`) look at a block's
position as much as at its text: a dateline or a notice stands before the article's
first sentence or after its last one, a teaser follows the article. The *body* of the
content is the run from its first to its last prose block (:func:`is_prose`: a few
sentences, few links); the blocks before it are its *header*, those after it its
*trailer*.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from indexer.extract.segment import Block, Segmentation

# Prose: at least this many sentence marks, this weight (Latin-equivalent characters)
# and at most this link density.
_PROSE_PUNCT = 2
_PROSE_WEIGHT = 80.0
_PROSE_LINKS = 0.3
_ROOT_TAGS = frozenset({"body", "html"})


def is_prose(block: Block) -> bool:
    """True for a running-text block: not a heading, ``_PROSE_PUNCT`` sentence marks,
    ``_PROSE_WEIGHT`` of text, at most ``_PROSE_LINKS`` of it links."""
    return (
        not block.heading
        and block.punct >= _PROSE_PUNCT
        and block.weight >= _PROSE_WEIGHT
        and block.link_density <= _PROSE_LINKS
    )


def folded(text: str) -> str:
    """``text`` in NFKC, lower case: the form the kinds' cue patterns are written for."""
    return unicodedata.normalize("NFKC", text).lower()


@dataclass(frozen=True, slots=True)
class Zones:
    """The chosen content of one page and its prose body.

    Attributes:
        seg: the segmented page.
        kept: the kept blocks, in document order.
        first: the first prose block of ``kept`` (its first block when none is prose).
        last: the last prose block of ``kept`` (its last block when none is prose).
    """

    seg: Segmentation
    kept: tuple[int, ...]
    first: int
    last: int

    def outside(self, index: int) -> bool:
        """True for a block before the body's first prose block or after its last."""
        return index < self.first or index > self.last

    def body_weight(self, indexes: Collection[int] | None = None) -> float:
        """Weight of the kept (or the given) blocks that are not headings."""
        chosen = self.kept if indexes is None else indexes
        return sum(self.seg.blocks[i].weight for i in chosen if not self.seg.blocks[i].heading)


def zones(seg: Segmentation, kept: Sequence[int], ignore: Collection[int] = ()) -> Zones:
    """The :class:`Zones` of ``kept``; blocks of ``ignore`` never count as prose (a
    notice written in sentences must not make itself the body's edge)."""
    prose = [i for i in kept if i not in ignore and is_prose(seg.blocks[i])]
    if not prose:
        first, last = (kept[0], kept[-1]) if kept else (0, -1)
    else:
        first, last = prose[0], prose[-1]
    return Zones(seg, tuple(kept), first, last)


def names(element: etree._Element) -> str:
    """The lower-cased class and id of ``element``, space-separated."""
    return f"{element.get('class', '')} {element.get('id', '')}".lower()


def lineage(element: etree._Element | None, levels: int) -> Iterator[etree._Element]:
    """``element`` and its ancestors, at most ``levels`` of them, ``<body>`` excluded."""
    for _ in range(levels):
        if element is None or element.tag in _ROOT_TAGS:
            return
        yield element
        element = element.getparent()
