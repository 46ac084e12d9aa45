"""Heuristic block scoring: value each text block, then find the best cluster of neighbours.

The value of a block follows boilerpipe (Kohlschütter et al., WSDM 2010): long text with
few links and real sentences is content; short, link-heavy blocks are boilerplate. The best
cluster is the maximum-sum run of block values (Kadane), so a weak block between two
strong ones joins them, and values decay with position so trailing comment threads lose
to the article before them.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from indexer.extract.boilerplate import is_strong_furniture
from indexer.extract.segment import MOSTLY_LINKS, Block, Segmentation
from indexer.extract.tags import CELL_TAGS

# A block must beat this weight (Latin-equivalent characters) to count as content.
_THRESHOLD = 30.0
# Bonus per sentence punctuation mark, in Latin-equivalent characters.
_PUNCT_BONUS = 12.0
# Linked headlines (teaser cards of other articles) count this many times as negative.
_LINK_HEADING_FACTOR = 3.0
# Mean characters per cell a data row needs for its cell boundaries to count as marks.
_MIN_CELL_CHARS = 3
# At the end of the page a positive value keeps this share of itself.
_DECAY_FLOOR = 0.6


# A furniture-looking element holding this share of the page's content value is a
# layout wrapper (``<form>`` around an ASP.NET page, ``div.has-sidebar``), not furniture …
_WRAPPER_SHARE = 0.75
# … and so is one holding at least this share and the page's headline or article markup.
_EVIDENCE_SHARE = 0.25
_EVIDENCE = "boolean(.//h1 | .//article | .//main | .//*[@itemprop='articleBody'])"


def _is_wrapper(element: etree._Element, share: float) -> bool:
    if share >= _WRAPPER_SHARE and not is_strong_furniture(element):
        return True
    return share >= _EVIDENCE_SHARE and bool(element.xpath(_EVIDENCE))


def mark_furniture(seg: Segmentation) -> None:
    """Set ``Block.furniture`` on blocks inside furniture elements that are not wrappers.

    Markup names are only a hint: an element that holds a good share of the page's
    content value plus the ``<h1>`` or ``<article>``, or that holds most of the value and
    is not unambiguous furniture (``div.side-by-side``, not ``div#comments``), is taken
    for a layout wrapper and its flag ignored; furniture nested inside still counts.
    """
    if not seg.furniture:
        return
    mass = [max(block_value(block), 0.0) for block in seg.blocks]
    total = sum(mass) or 1.0
    for element in seg.furniture:
        first, end = seg.spans[element]
        share = sum(mass[first:end]) / total
        if not _is_wrapper(element, share):
            for block in seg.blocks[first:end]:
                block.furniture = True


def _fields(block: Block) -> int:
    """Cell boundaries of a data row (a ``<tr>`` read as one line): a table's fields are
    its sentences. Rows of cells shorter than ``_MIN_CELL_CHARS`` on average (a
    calendar's day numbers) have none."""
    if block.owner.tag != "tr":
        return 0
    cells = sum(1 for cell in block.owner if cell.tag in CELL_TAGS)
    if cells < 2 or block.chars < _MIN_CELL_CHARS * cells:
        return 0
    return cells - 1


def block_value(block: Block) -> float:
    """Score one block: positive for content, negative for boilerplate (no upper bound).

    ``weight × ((1 − ld)² − ld / 2) + punctuation bonus × (1 − ld) − threshold`` where
    ``ld`` is the link density (a data row's cell boundaries count as punctuation):
    smooth in ``ld``, zero-ish at one half, ``−(weight / 2 + threshold)`` for pure links.
    Furniture counts fully negative; linked headlines count several times; other headings
    are slightly positive so that they join the section they introduce.
    """
    if block.furniture:
        return -max(block.weight, _THRESHOLD)
    density = block.link_density
    bonus = _PUNCT_BONUS * min(block.punct + _fields(block), 30) * (1.0 - density)
    value = block.weight * ((1.0 - density) ** 2 - density / 2.0) + bonus - _THRESHOLD
    if block.heading:
        if density > MOSTLY_LINKS:  # a linked headline points at another page: a teaser card
            return _LINK_HEADING_FACTOR * min(value, -_THRESHOLD)
        return min(value + _THRESHOLD, _THRESHOLD) * 0.5
    return value


def block_values(blocks: list[Block]) -> list[float]:
    """Return :func:`block_value` of every block, positives decayed by position."""
    total = sum(block.weight for block in blocks) or 1.0
    seen = 0.0
    values: list[float] = []
    for block in blocks:
        value = block_value(block)
        if value > 0:
            value *= 1.0 - (1.0 - _DECAY_FLOOR) * (seen / total)
        values.append(value)
        seen += block.weight
    return values


def best_run(values: Sequence[float]) -> tuple[int, int, float]:
    """Return ``(first, end, sum)`` of the maximum-sum run of ``values`` (end exclusive).

    Returns ``(0, 0, 0.0)`` when no value is positive.
    """
    best = (0, 0, 0.0)
    start, running = 0, 0.0
    for index, value in enumerate(values):
        if running <= 0:
            start, running = index, 0.0
        running += value
        if running > best[2]:
            best = (start, index + 1, running)
    return best
