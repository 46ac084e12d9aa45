"""A page's own region, once its host's template is known: where the text of its own lies.

With the template's blocks set aside, the rest of a page is its own text plus page
furniture recognised by markup. The page's region is the smallest element holding at
least ``_REGION_SHARE`` of that own text (by weight, furniture left out): the content
box of the site's layout, found without any name for it. Inside it, text unique to the
page is content even when the per-page chain would drop it as a short-line tail, a
table, a box with a misleading class name (``section#cookiejar-objects``) or, on a
listing page, index entries (link lines with words of their own); unambiguous furniture
(:func:`is_strong_furniture`) and comment sections stay out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from lxml import etree

from indexer.extract.boilerplate import is_strong_furniture
from indexer.extract.comments import comment_blocks
from indexer.extract.segment import Segmentation

# Share of the page's own (non-template, non-furniture) text the region must hold.
_REGION_SHARE = 0.8
# A block with more link text than this share is a link line; inside the region it is
# the page's own only on a listing page (an index, a table of contents): one whose own
# text has at least ``_LISTING_SHARE`` link text. Elsewhere it is a "see also" list.
_LINK_LINE = 0.5
_LISTING_SHARE = 0.5
# A line with at least this share of link text is a bare link line.
_BARE_LINKS = 0.98


def _region(seg: Segmentation, own: Collection[int]) -> tuple[int, int] | None:
    """Span of the smallest element holding ``_REGION_SHARE`` of the own blocks' weight."""
    weights = [seg.blocks[i].weight if i in own else 0.0 for i in range(len(seg.blocks))]
    prefix = [0.0]
    for weight in weights:
        prefix.append(prefix[-1] + weight)
    total = prefix[-1]
    if total <= 0:
        return None
    best: tuple[int, int] | None = None
    for first, end in seg.spans.values():
        if prefix[end] - prefix[first] < _REGION_SHARE * total:
            continue
        if best is None or end - first < best[1] - best[0]:
            best = (first, end)
    return best


def _is_listing(seg: Segmentation, own: Collection[int], span: tuple[int, int]) -> bool:
    """True when the region's own text is mostly link text: an index, a table of contents."""
    blocks = [seg.blocks[i] for i in range(*span) if i in own]
    chars = sum(block.chars for block in blocks)
    return chars > 0 and sum(block.link_chars for block in blocks) >= _LISTING_SHARE * chars


def _own_line(link_density: float, listing: bool) -> bool:
    """A text line is the page's own; a link line only on a listing page, and only with
    words of its own beside the links (an index entry "term, 12.3"; a bare link line
    names another page, as a table of contents does)."""
    if link_density <= _LINK_LINE:
        return True
    return listing and link_density < _BARE_LINKS


def _strong_furniture_blocks(seg: Segmentation) -> set[int]:
    blocks: set[int] = set()
    for element in seg.furniture:
        if is_strong_furniture(element):
            blocks.update(range(*seg.spans[element]))
    return blocks


def own_text(
    seg: Segmentation,
    kept: Sequence[int],
    template: Collection[int],
    markup_furniture: Collection[int],
    values: Sequence[float],
    refused: Collection[int] = (),
) -> tuple[int, ...]:
    """``kept`` plus the page's own blocks inside its region (see the module docstring).

    Args:
        seg: the segmented page.
        kept: blocks the chain kept.
        template: blocks that are the host's template.
        markup_furniture: blocks inside furniture by markup (before the template).
        values: block values (:func:`indexer.extract.blocks.block_values`), for the
            comment-section check.
        refused: blocks a chain step dropped for good reasons (comments, repeats).

    Returns:
        block indexes in document order; comment sections found by their heading over
        the whole result are left out.
    """
    own = {i for i in range(len(seg.blocks)) if i not in template and i not in markup_furniture}
    span = _region(seg, own)
    if span is None:
        return tuple(kept)
    strong = _strong_furniture_blocks(seg)
    listing = _is_listing(seg, own, span)
    added = {
        i
        for i in range(*span)
        if i not in template
        and i not in strong
        and i not in refused
        and _own_line(seg.blocks[i].link_density, listing)
    }
    result = sorted(set(kept) | added)
    comments = comment_blocks(seg, result, values)
    return tuple(i for i in result if i not in comments)


_CELLS = frozenset({"tr", "td", "th"})
# Own rows a table needs for its body to be the page's own content.
_OWN_ROWS = 2


def _table(element: etree._Element) -> etree._Element | None:
    """The nearest ``<table>`` holding a row or cell ``element``, else None."""
    if element.tag not in _CELLS:
        return None
    return next(element.iterancestors("table"), None)


def _is_head(element: etree._Element) -> bool:
    """A header cell, a row of header cells only, or a row inside ``<thead>``."""
    if element.tag == "th":
        return True
    if element.tag != "tr":
        return False
    cells = [cell for cell in element if cell.tag in ("td", "th")]
    in_head = any(parent.tag == "thead" for parent in element.iterancestors("thead"))
    return in_head or (bool(cells) and all(cell.tag == "th" for cell in cells))


def table_rows(
    seg: Segmentation, kept: Sequence[int], template: Collection[int]
) -> tuple[int, ...]:
    """``kept`` plus every other row and cell of the data tables whose body is the page's
    own (at least ``_OWN_ROWS`` kept rows or cells not template): a table's rows are kept
    or dropped together. A listing's column names repeat on every page, a spec table's
    ``カラー 黒`` on many, and a row in the middle may look like a short-line tail to
    the chain; none means much without its table. Layout tables (holding a table) and link
    lines that are not header rows stay as they were.
    """
    own_rows: dict[etree._Element, int] = {}
    for i in kept:
        table = _table(seg.blocks[i].owner)
        if table is not None and i not in template:
            own_rows[table] = own_rows.get(table, 0) + 1
    tables = {
        table
        for table, rows in own_rows.items()
        if rows >= _OWN_ROWS and next(table.iterdescendants("table"), None) is None
    }
    if not tables:
        return tuple(kept)
    rows = {
        i
        for i, block in enumerate(seg.blocks)
        if _table(block.owner) in tables
        and (block.link_density <= _LINK_LINE or _is_head(block.owner))
    }
    return tuple(sorted(set(kept) | rows))


def term_labels(
    seg: Segmentation, kept: Sequence[int], template: Collection[int]
) -> tuple[int, ...]:
    """``kept`` plus the template ``<dt>`` just before each kept ``<dd>`` that is not
    template: a spec list's terms (価格, 型番) repeat on every page, their values are
    each page's own and mean little without them."""
    labels = set()
    for i in kept:
        owner = seg.blocks[i].owner
        if i == 0 or owner.tag != "dd" or i in template:
            continue
        term = seg.blocks[i - 1].owner
        if term.tag == "dt" and term is owner.getprevious() and i - 1 in template:
            labels.add(i - 1)
    return tuple(sorted(set(kept) | labels))
