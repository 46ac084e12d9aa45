"""DOM-node scoring: the element whose subtree holds the most dense, sentence-rich text.

After Mozilla Readability's candidate scoring: each paragraph-like block gives points
to its owner and, halved and thirded, to the owner's parent and grandparent; an
element's total is scaled down by its link density and by a deep, many-childed shape.
"""

from __future__ import annotations

import math

from lxml import etree

from indexer.extract.candidate import Candidate, span_candidate
from indexer.extract.segment import MOSTLY_LINKS, Segmentation

_MIN_WEIGHT = 25.0  # blocks lighter than this (Latin-equivalent chars) give no points
_NOT_CONTAINER = frozenset({"body", "html"})


def _link_density(seg: Segmentation, span: tuple[int, int]) -> float:
    blocks = seg.blocks[span[0] : span[1]]
    chars = sum(b.chars for b in blocks)
    return sum(b.link_chars for b in blocks) / chars if chars else 0.0


def node_scores(seg: Segmentation) -> dict[etree._Element, float]:
    """Return element → score (points from its blocks, see the module docstring)."""
    scores: dict[etree._Element, float] = {}
    for block in seg.blocks:
        if block.furniture or block.weight < _MIN_WEIGHT or block.link_density > MOSTLY_LINKS:
            continue
        points = 1.0 + min(block.punct, 20) + min(block.weight / 100.0, 3.0)
        node: etree._Element | None = block.owner
        for share in (1.0, 0.5, 1.0 / 3.0):
            if node is None:
                break
            scores[node] = scores.get(node, 0.0) + points * share
            node = node.getparent()
    for node, score in scores.items():
        span = seg.spans.get(node)
        if span is None:
            continue
        children = len(node)
        shape = 1.0 / (1.0 + 0.05 * math.log1p(children))
        scores[node] = score * (1.0 - _link_density(seg, span)) * shape
    return scores


def _container(seg: Segmentation, node: etree._Element) -> etree._Element:
    """The element whose blocks make the candidate: ``node``, or its parent.

    A best node holding a single block (one dense ``<p>``) is a paragraph of a
    container, not the content: its parent is taken when it holds other non-furniture
    blocks too (heading, short list items, closing line) and is not ``<body>``. After
    Readability, which appends a top candidate's text-bearing siblings.
    """
    span = seg.spans.get(node)
    parent = node.getparent()
    if span is None or span[1] - span[0] > 1 or parent is None or parent.tag in _NOT_CONTAINER:
        return node
    outer = seg.spans.get(parent)
    if outer is None:
        return node
    others = [i for i in range(*outer) if i != span[0] and not seg.blocks[i].furniture]
    return parent if others else node


def dom_candidate(seg: Segmentation) -> Candidate | None:
    """Return the best-scoring element's blocks (furniture dropped), or None.

    A single-block winner stands for its container (see :func:`_container`).
    """
    scores = node_scores(seg)
    if not scores:
        return None
    best = _container(seg, max(scores, key=scores.__getitem__))
    span = seg.spans.get(best)
    if span is None:
        return None
    return span_candidate("dom", seg, [span], keep_furniture=False)
