"""Choose the main content among the chain's candidates, most certain step first."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from indexer.extract.blocks import best_run, block_values
from indexer.extract.candidate import Candidate
from indexer.extract.dom import dom_candidate
from indexer.extract.explain import Trace
from indexer.extract.fallback import fallback_candidate
from indexer.extract.refine import finish
from indexer.extract.segment import MOSTLY_LINKS, Segmentation
from indexer.extract.semantic import semantic_candidates

# Semantic markup (and then the DOM-node candidate) is trusted when it holds this share
# of the best block cluster's value, has at least this many characters, and is not
# mostly links: it then gives cleaner boundaries than the cluster.
_SEMANTIC_SHARE = 0.8
_MIN_CHARS = 40


def coverage(candidate: Candidate, cluster: Candidate, values: Sequence[float]) -> float:
    """Share (0.0–1.0) of the cluster's positive value that lies inside ``candidate``."""
    inside = set(candidate.indexes)
    total = sum(max(values[i], 0.0) for i in cluster.indexes)
    kept = sum(max(values[i], 0.0) for i in cluster.indexes if i in inside)
    return kept / total if total else 0.0


def _plausible(
    candidate: Candidate, seg: Segmentation, values: Sequence[float], cluster: Candidate
) -> bool:
    return (
        candidate.chars(seg) >= _MIN_CHARS
        and candidate.link_density(seg) <= MOSTLY_LINKS
        and coverage(candidate, cluster, values) >= _SEMANTIC_SHARE
    )


def _pick(seg: Segmentation, semantic: Sequence[Candidate], values: Sequence[float]) -> Candidate:
    first, end, _ = best_run(values)
    cluster = Candidate("blocks", tuple(range(first, end)))
    for candidate in semantic:
        if _plausible(candidate, seg, values, cluster):
            return candidate
    dom = dom_candidate(seg)
    if dom is not None and dom.indexes and _plausible(dom, seg, values, cluster):
        return dom
    if cluster.indexes:
        return cluster
    return fallback_candidate(seg)


def choose(
    seg: Segmentation, root: etree._Element, title: str = "", trace: Trace | None = None
) -> Candidate:
    """Return the main content of a segmented page.

    Order: the first plausible semantic candidate (it holds most of the best block
    cluster, has text and is not mostly links); else the DOM-node candidate if equally
    plausible; else the cluster; else the fallback.
    The winner is then finished by :func:`indexer.extract.refine.finish`; ``trace``
    (optional) receives the finishing steps' decisions (:mod:`indexer.extract.explain`).
    """
    values = block_values(seg.blocks)
    semantic = semantic_candidates(seg, values)
    return finish(_pick(seg, semantic, values), seg, values, title, trace)
