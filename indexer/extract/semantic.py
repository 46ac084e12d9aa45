"""Semantic markup candidates: ``itemprop=articleBody``, ``<article>``, ``<main>``, role=main."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from indexer.extract.candidate import Candidate, span_candidate
from indexer.extract.segment import Segmentation


def _kind(element: etree._Element) -> int:
    """0 articleBody, 1 article, 2 main (the order of trust)."""
    if element.get("itemprop") == "articleBody":
        return 0
    return 1 if element.tag == "article" else 2


# Of several matches, those worth at least this share of the best one are kept together
# (the entries of a diary page); smaller ones are teaser cards of other pages.
_PEER_SHARE = 0.3


def _outermost(elements: list[etree._Element]) -> list[etree._Element]:
    chosen = set(elements)
    return [e for e in elements if not any(a in chosen for a in e.iterancestors())]


def _worth(seg: Segmentation, span: tuple[int, int], values: Sequence[float]) -> float:
    return sum(max(values[i], 0.0) for i in range(*span) if not seg.blocks[i].furniture)


def semantic_candidates(seg: Segmentation, values: Sequence[float]) -> list[Candidate]:
    """Return one candidate per kind of semantic markup found, most specific first.

    Several matches of one kind are joined when comparable in value (``values`` are the
    block values): the entries of a diary page stay together, teaser cards of other
    pages drop out. Nested matches count once; furniture inside (asides, share bars) is
    dropped. Plausibility (enough text, not mostly links) is judged by :mod:`.select`.
    The elements are ``seg.semantic`` (the segmenter's walk found them), most specific
    first: schema.org Article.articleBody, HTML §4.3.2 ``article``, §4.4.14 ``main`` with
    WAI-ARIA ``role=main``.
    """
    kinds: list[list[etree._Element]] = [[], [], []]
    for element in seg.semantic:  # found by the segmenter's walk, in document order
        if element in seg.spans:
            kinds[_kind(element)].append(element)
    candidates = []
    for elements in kinds:
        spans = [seg.spans[e] for e in _outermost(elements)]
        if not spans:
            continue
        worths = [_worth(seg, span, values) for span in spans]
        best = max(worths)
        kept = [s for s, w in zip(spans, worths, strict=True) if w >= _PEER_SHARE * best]
        candidate = span_candidate("semantic", seg, kept, keep_furniture=False)
        if candidate.indexes:
            candidates.append(candidate)
    return candidates
