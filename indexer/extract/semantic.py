"""Semantic markup candidates: ``itemprop=articleBody``, ``<article>``, ``<main>``, role=main."""

from __future__ import annotations

from lxml import etree

from indexer.extract.candidate import Candidate, span_candidate
from indexer.extract.segment import Segmentation

# Most specific first (schema.org Article.articleBody; HTML §4.3.2 article, §4.4.14 main;
# WAI-ARIA role=main).
_QUERIES = (
    ("articlebody", "//*[@itemprop='articleBody']"),
    ("article", "//article"),
    ("main", "//main | //*[@role='main']"),
)


def _outermost(elements: list[etree._Element]) -> list[etree._Element]:
    chosen = set(elements)
    result = []
    for element in elements:
        if not any(ancestor in chosen for ancestor in element.iterancestors()):
            result.append(element)
    return result


def semantic_candidates(root: etree._Element, seg: Segmentation) -> list[Candidate]:
    """Return one candidate per kind of semantic markup found, most specific first.

    Several matches of one kind (a diary with one ``<article>`` per entry) are joined;
    nested matches count once. Furniture inside (asides, share bars) is dropped.
    Plausibility (enough text, not mostly links) is judged by :mod:`.select`.
    """
    candidates = []
    for _kind, query in _QUERIES:
        found = root.xpath(query)
        if not isinstance(found, list):
            continue
        elements = [e for e in found if isinstance(e, etree._Element) and e in seg.spans]
        if not elements:
            continue
        spans = [seg.spans[e] for e in _outermost(elements)]
        candidate = span_candidate("semantic", seg, spans, keep_furniture=False)
        if candidate.indexes:
            candidates.append(candidate)
    return candidates
