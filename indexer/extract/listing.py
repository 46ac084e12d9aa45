"""Listing pages: when the chosen text is one of several like entries, take them all.

A blog's front page or an intranet's news index is a run of entries of one shape —
``<div class="entry"><h2><a>title</a></h2><p>excerpt…</p><p><a>続きを読む</a></p></div>`` —
whose linked titles score as teaser cards, so the best cluster is one excerpt, or the
excerpts without titles. When the chosen text starts inside such an entry, the page's
main content is every entry: their
titles and excerpts, without the link-only lines ("続きを読む", "Read more").
"""

from __future__ import annotations

from lxml import etree

from indexer.extract.candidate import Candidate
from indexer.extract.segment import MOSTLY_LINKS, Segmentation

# An entry is one of at least this many siblings with its tag and class, each with a
# linked title.
_MIN_ENTRIES = 3
# Levels above the first chosen text block's element at which an entry is looked for.
_MAX_CLIMB = 3
# Blocks with at least this link density are "read more" lines, not excerpts.
_LINK_LINE = 0.9


def _linked_title(seg: Segmentation, element: etree._Element) -> bool:
    """True when ``element`` holds a heading that is a link (to the full entry)."""
    span = seg.spans.get(element)
    if span is None:
        return False
    return any(
        seg.blocks[i].heading and seg.blocks[i].link_density > MOSTLY_LINKS for i in range(*span)
    )


def _entries(seg: Segmentation, element: etree._Element) -> list[etree._Element]:
    """``element`` and its siblings of the same tag and class, when all have linked titles.

    There must be at least ``_MIN_ENTRIES``: an entry in a listing links to its page,
    an article's own title is not a link (teaser cards next to it do not count).
    """
    parent = element.getparent()
    class_ = element.get("class")
    if parent is None or not class_:
        return []
    peers = [
        peer
        for peer in parent.iterchildren(element.tag)
        if peer.get("class") == class_ and peer in seg.spans
    ]
    if len(peers) < _MIN_ENTRIES or not all(_linked_title(seg, peer) for peer in peers):
        return []
    return peers


def expand_listing(candidate: Candidate, seg: Segmentation) -> Candidate:
    """Return every entry of a listing when ``candidate`` starts inside one (module docstring).

    The entry is looked for at the owner of the candidate's first non-heading block and
    up to ``_MAX_CLIMB`` levels above it. The candidate's blocks outside the entries
    (the page's own heading) are kept; the entries' blocks are added, furniture and
    link-only lines left out, linked titles kept. Other candidates are returned unchanged.
    """
    first = next((i for i in candidate.indexes if not seg.blocks[i].heading), None)
    if first is None:
        return candidate
    node: etree._Element | None = seg.blocks[first].owner
    for _ in range(_MAX_CLIMB + 1):
        if node is None or node.tag == "body":
            return candidate
        entries = _entries(seg, node)
        if entries:
            return _listing(candidate, seg, entries)
        node = node.getparent()
    return candidate


def _listing(candidate: Candidate, seg: Segmentation, entries: list[etree._Element]) -> Candidate:
    start, end = seg.spans[entries[0]][0], seg.spans[entries[-1]][1]
    indexes = {i for i in candidate.indexes if i < start or i >= end}
    for entry in entries:
        for index in range(*seg.spans[entry]):
            block = seg.blocks[index]
            if not block.furniture and (block.heading or block.link_density < _LINK_LINE):
                indexes.add(index)
    return Candidate(candidate.extractor, tuple(sorted(indexes)))
