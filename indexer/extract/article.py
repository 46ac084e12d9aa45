"""The ``precision`` profile: the article only, as a single-page extractor scores it.

The chain's choice is the content with what introduces and illustrates it; the article
itself is the running text. Two kinds of block are left out:

- the heading that repeats the page title at the start of the content: it is the
  document's ``title`` already (trafilatura and Readability.js leave it out of the text
  for the same reason);
- captions and photo credits: ``<figcaption>``, or a block in (or up to two levels
  under) an element whose class or id names a caption or credit — text about a picture,
  not part of the article (HTML §4.4.13 ``figcaption``: "a caption or legend for the
  rest of the contents of the figure").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from indexer.extract.refine import title_anchor
from indexer.extract.segment import Segmentation

_CAPTION_NAME = re.compile(r"(?:^|[-_\s])(?:caption|credits?|photocredit)(?:$|[-_\s])")
# The block's owner and this many ancestors are looked at.
_CAPTION_LEVELS = 3


def _is_caption(element: etree._Element | None) -> bool:
    for _ in range(_CAPTION_LEVELS):
        if element is None:
            return False
        if element.tag == "figcaption":
            return True
        names = f"{element.get('class', '')} {element.get('id', '')}".lower()
        if _CAPTION_NAME.search(names):
            return True
        element = element.getparent()
    return False


def article_blocks(seg: Segmentation, kept: Sequence[int], title: str) -> tuple[int, ...]:
    """``kept`` without a leading title heading and without captions (module docstring).

    Returns ``kept`` unchanged when nothing would be left.
    """
    anchor = title_anchor(seg, title)
    result = [
        i
        for position, i in enumerate(kept)
        if not (position == 0 and i == anchor) and not _is_caption(seg.blocks[i].owner)
    ]
    return tuple(result) if result else tuple(kept)
