"""Keep what a search needs inside the page's content region (the ``search`` profile).

A single-page extractor keeps the article; a search also needs the rest of the page's own
content: the lists and tables beside the prose, ``<pre>`` and ``<dl>`` blocks, figure
captions, the headings that introduce them, and on a link-list page (a sitemap, a portal,
an index) the anchor texts that are the page's content. The chain's choice is widened
over its content region:

- the region starts at the heading that repeats the page title (a page's content follows
  its title) and is the smallest element around it holding at least half of the page's
  non-furniture text after the heading; without such a heading it is the smallest
  element holding every block the chain kept; a region that would be the whole
  ``<body>`` widens nothing (a region is a box of the layout, not the page);
- only blocks that are not furniture (by markup or the host's template) and not refused
  by a chain step (comment sections, other pages' navigation) are taken;
- a link-list page (:func:`_is_listing`: mostly link text, in lists or tables, with no
  article of the chain's inside) keeps every such block of its region, but a bare link
  nested in another entry (a table of contents' lower levels, which name other pages'
  sections);
- any other page keeps the blocks between the first and last block the chain kept, and
  the structural lines (list items, table cells, ``<pre>``, ``<dl>`` lines, captions,
  headings) running on from either end, as the chain trims short lines at its edges; a
  link line ends such a run unless it is a data table's cell
  (:func:`is_data_table`: a table's cells are its data whatever they link to), so a
  "see also" or "related" list after an article stays out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from lxml import etree

from indexer.extract.blocks import block_values
from indexer.extract.comments import comment_blocks
from indexer.extract.refine import title_anchor
from indexer.extract.segment import MOSTLY_LINKS, Segmentation

# A listing's region: at least this share of its text is link text, at least this share
# of that in lists and tables, and the chain's text inside it has fewer sentence marks
# and, outside links, less than this share of the link text (see _is_listing).
_LISTING_SHARE = 0.5
_LISTED_SHARE = 0.7
_ARTICLE_PUNCT = 3
_LISTING_WEIGHT = 0.25
# A table is a data table when it has header cells, or at least this many rows with at
# least two cells, most of them of one cell count.
_MIN_ROWS = 3
_ROOT_TAGS = frozenset({"body", "html"})
_CELL_OWNERS = frozenset({"td", "th", "tr"})
# A line with at least this share of link text is a bare link line.
_BARE_LINKS = 0.98
_ITEM_TAGS = frozenset({"li", "dt", "dd"})
# Owners (or their parents) of the blocks search needs beside prose.
_STRUCTURE = frozenset(
    {"li", "dt", "dd", "dl", "td", "th", "tr", "pre", "caption", "figcaption", "figure"}
)
# The region around the title heading holds at least this share of the own text after it.
_REGION_SHARE = 0.5


def _span(seg: Segmentation, element: etree._Element | None) -> tuple[int, int] | None:
    if element is None or element.tag in _ROOT_TAGS:
        return None
    return seg.spans.get(element)


def _around_heading(seg: Segmentation, anchor: int) -> tuple[int, int] | None:
    """From the title heading: the smallest element holding ``_REGION_SHARE`` of the
    non-furniture text from the heading on (the heading's section, not its header box)."""
    weights = [0.0 if b.furniture else b.weight for b in seg.blocks[anchor + 1 :]]
    total = sum(weights)
    node: etree._Element | None = seg.blocks[anchor].owner
    while node is not None and node.tag not in _ROOT_TAGS:
        span = seg.spans.get(node)
        if span is not None and span[1] > anchor + 1:
            held = sum(weights[: span[1] - anchor - 1])
            if held >= _REGION_SHARE * total:
                return (anchor, span[1])
        node = node.getparent()
    return None


def _around_kept(seg: Segmentation, kept: Sequence[int]) -> tuple[int, int] | None:
    """The smallest element whose span holds every kept block."""
    node: etree._Element | None = seg.blocks[kept[0]].owner
    while node is not None:
        span = _span(seg, node)
        if span is None and node.tag in _ROOT_TAGS:
            return None
        if span is not None and span[0] <= kept[0] and span[1] > kept[-1]:
            return span
        node = node.getparent()
    return None


def content_region(seg: Segmentation, kept: Sequence[int], title: str) -> tuple[int, int] | None:
    """``(first, end)`` block span of the content region (module docstring), or None."""
    anchor = title_anchor(seg, title)
    if anchor is not None:
        region = _around_heading(seg, anchor)
        if region is not None:
            return region
    return _around_kept(seg, kept) if kept else None


def _is_listing(seg: Segmentation, blocks: Sequence[int], kept: Sequence[int]) -> bool:
    """True when the region is a link-list page (a sitemap, a portal, an index).

    Most of its text is link text, most of that link text stands in lists, tables or
    definition lists (the structure of an index, where a teaser column is paragraphs
    and boxes), and the chain's text inside the region (outside headings) is not an
    article: fewer than ``_ARTICLE_PUNCT`` sentence marks and, outside links, less than
    ``_LISTING_WEIGHT`` of the link text (a short article above a long link box is still
    an article).
    """
    chars = sum(seg.blocks[i].chars for i in blocks)
    links = sum(seg.blocks[i].link_chars for i in blocks)
    if chars == 0 or links < _LISTING_SHARE * chars:
        return False
    listed = sum(seg.blocks[i].link_chars for i in blocks if _structural(seg, i))
    if listed < _LISTED_SHARE * links:
        return False
    own = set(blocks)
    inside = [seg.blocks[i] for i in kept if i in own and not seg.blocks[i].heading]
    if sum(block.punct for block in inside) >= _ARTICLE_PUNCT:
        return False
    prose = sum(block.chars - block.link_chars for block in inside)
    return prose < _LISTING_WEIGHT * links


def is_data_table(table: etree._Element) -> bool:
    """True for a table of data: header cells, or ``_MIN_ROWS`` rows of like cell counts.

    Layout tables (one or two big cells per row, cells holding blocks) are not: their
    cells are split into blocks like ``<div>``s by the segmenter.
    """
    rows = [row for row in table.iter("tr") if _own_table(row, table)]
    if any(cell.tag == "th" for row in rows for cell in row):
        return True
    counts = [sum(1 for cell in row if cell.tag in ("td", "th")) for row in rows]
    wide = [count for count in counts if count >= 2]
    if len(wide) < _MIN_ROWS:
        return False
    most = max(set(wide), key=wide.count)
    return wide.count(most) * 2 > len(counts)


def _own_table(row: etree._Element, table: etree._Element) -> bool:
    """True when ``row``'s nearest table is ``table`` (not a nested one)."""
    parent = row.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent is table


def _data_table_blocks(seg: Segmentation, first: int, end: int) -> set[int]:
    blocks: set[int] = set()
    if not any(block.owner.tag in _CELL_OWNERS for block in seg.blocks[first:end]):
        return blocks  # no table in the region: the spans need no scan
    for element, (start, stop) in seg.spans.items():
        if element.tag == "table" and first <= start and stop <= end and is_data_table(element):
            blocks.update(range(start, stop))
    return blocks


def _sub_entry_link(seg: Segmentation, index: int) -> bool:
    """True for a bare link line nested in another list item: a table of contents'
    lower levels, which name the sections of other pages (their headings, found there);
    a top-level entry, and an index entry with words of its own ("add_header() (email
    method)"), are the listing's own."""
    block = seg.blocks[index]
    if block.link_density < _BARE_LINKS:
        return False
    items = 0
    node: etree._Element | None = block.owner
    while node is not None and node.tag not in _ROOT_TAGS:
        items += node.tag in _ITEM_TAGS
        node = node.getparent()
    return items >= 2


def _structural(seg: Segmentation, index: int) -> bool:
    """True for a heading, a list item, a table row or cell, a ``<pre>``, ``<dl>`` or
    figure caption line."""
    block = seg.blocks[index]
    if block.heading:
        return True
    owner = block.owner
    parent = owner.getparent()
    return owner.tag in _STRUCTURE or (parent is not None and parent.tag in _STRUCTURE)


def _runs(
    seg: Segmentation,
    kept: Sequence[int],
    own: Collection[int],
    span: tuple[int, int],
    tables: Collection[int],
) -> set[int]:
    """Own blocks between the first and last kept block, and the structural lines running
    on from either end inside the region (a list, a data table, code, a definition list
    that the chain trimmed as short lines at its edge; a link line ends the run unless it
    is a data table's cell)."""
    inside = set(range(kept[0], kept[-1] + 1))
    for step, start in ((-1, kept[0] - 1), (1, kept[-1] + 1)):
        index = start
        while span[0] <= index < span[1] and index in own and _structural(seg, index):
            if seg.blocks[index].link_density > MOSTLY_LINKS and index not in tables:
                break
            inside.add(index)
            index += step
    return inside & set(own)


def _beside_article(
    seg: Segmentation, kept: Sequence[int], own: Collection[int], region: tuple[int, int]
) -> set[int]:
    """On a page that is not a listing: :func:`_runs`' blocks, link lines only as data
    table cells or structural lines."""
    tables = _data_table_blocks(seg, *region)
    return {
        i
        for i in _runs(seg, kept, set(own), region, tables)
        if i in tables or seg.blocks[i].link_density <= MOSTLY_LINKS or _structural(seg, i)
    }


def search_blocks(
    seg: Segmentation,
    kept: Sequence[int],
    title: str,
    refused: Collection[int],
    listing_only: bool = False,
) -> tuple[int, ...]:
    """``kept`` widened over the content region for the ``search`` profile (with
    ``listing_only``, for ``precision``: only a link-list page's entries, its article).

    Args:
        seg: the segmented page; ``Block.furniture`` set (markup, and the host's template
            when known).
        kept: blocks the chain kept, in document order.
        title: the page title.
        refused: blocks dropped for good reasons (comments, other pages' navigation).

    Returns:
        block indexes in document order; added blocks in a comment section found by its
        heading over the whole result are left out.
    """
    region = content_region(seg, kept, title)
    if region is None:
        return tuple(kept)
    first, end = region
    own = [i for i in range(first, end) if not seg.blocks[i].furniture and i not in refused]
    if _is_listing(seg, own, kept):
        added = {i for i in own if not _sub_entry_link(seg, i)}
    elif kept and not listing_only:
        added = _beside_article(seg, kept, own, region)
    else:
        added = set()
    if added <= set(kept):
        return tuple(kept)
    result = sorted(set(kept) | added)
    comments = comment_blocks(seg, result, block_values(seg.blocks)) - set(kept)
    return tuple(i for i in result if i not in comments)
