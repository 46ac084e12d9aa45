"""The ``precision`` profile: the article only, as a single-page extractor scores it.

The chain's choice is the content with what introduces and illustrates it; the article
itself is the running text. Three kinds of block are left out:

- the heading that repeats the page title at the start of the content: it is the
  document's ``title`` already (trafilatura and Readability.js leave it out of the text
  for the same reason);
- captions and photo credits: ``<figcaption>``, or a block in (or up to two levels
  under) an element whose class or id names a caption or credit (as a word: between
  ``-``, ``_``, spaces or at a camelCase hump, ``imageEmbedCaption``) — text about a
  picture, not part of the article (HTML §4.4.13 ``figcaption``: "a caption or legend
  for the rest of the contents of the figure");
- a heading whose box holds other blocks, none of which the chain kept: the heading of
  a "related articles" or "trending" box whose links were left out introduces nothing
  of the article's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from lxml import etree

from indexer.extract.refine import title_anchor
from indexer.extract.segment import Segmentation

# Class/id words naming a caption or credit;
# words split at "-", "_", spaces and camelCase humps ("imageEmbedCaption").
_CAPTION_WORDS = frozenset({"caption", "credit", "credits", "photocredit"})
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
# The block's owner and this many ancestors are looked at.
_CAPTION_LEVELS = 3
_ROOT_TAGS = frozenset({"body", "html"})


def _is_caption(element: etree._Element | None) -> bool:
    """True when ``element`` or one of its ``_CAPTION_LEVELS - 1`` ancestors is a
    ``<figcaption>`` or has a caption or credit word in its class or id."""
    for _ in range(_CAPTION_LEVELS):
        if element is None:
            return False
        if element.tag == "figcaption":
            return True
        names = f"{element.get('class', '')} {element.get('id', '')}"
        if not _CAPTION_WORDS.isdisjoint(word.lower() for word in _WORD_SPLIT.split(names)):
            return True
        element = element.getparent()
    return False


def _orphan_heading(seg: Segmentation, index: int, kept: Collection[int]) -> bool:
    """True for a heading whose box holds other blocks, none of them kept: it introduces
    what the chain left out (a "Related articles" box's heading over its dropped links)."""
    block = seg.blocks[index]
    if not block.heading:
        return False
    node: etree._Element | None = block.owner
    while node is not None and node.tag not in _ROOT_TAGS:
        first, end = seg.spans.get(node, (index, index + 1))
        if (first, end) != (index, index + 1):
            return not any(i in kept for i in range(first, end) if i != index)
        node = node.getparent()
    return False


def article_blocks(seg: Segmentation, kept: Sequence[int], title: str) -> tuple[int, ...]:
    """``kept`` without a leading title heading and without captions (module docstring).

    Returns ``kept`` unchanged when nothing would be left.
    """
    anchor = title_anchor(seg, title)
    own = set(kept)
    result = [
        i
        for position, i in enumerate(kept)
        if not (position == 0 and i == anchor)
        and not _is_caption(seg.blocks[i].owner)
        and not _orphan_heading(seg, i, own)
    ]
    return tuple(result) if result else tuple(kept)
