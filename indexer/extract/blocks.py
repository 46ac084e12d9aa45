"""Heuristic block scoring: value each text block, then find the best cluster of neighbours.

The value of a block follows boilerpipe (Kohlschütter et al., WSDM 2010): long text with
few links and real sentences is content; short, link-heavy blocks are boilerplate. The best
cluster is the maximum-sum run of block values (Kadane), so a weak block between two
strong ones joins them, and values decay with position so trailing comment threads lose
to the article before them.
"""

from __future__ import annotations

from indexer.extract.segment import Block

# A block must beat this weight (Latin-equivalent characters) to count as content.
_THRESHOLD = 30.0
# Bonus per sentence punctuation mark, in Latin-equivalent characters.
_PUNCT_BONUS = 12.0
# At the end of the page a positive value keeps this share of itself.
_DECAY_FLOOR = 0.6


def block_value(block: Block) -> float:
    """Score one block: positive for content, negative for boilerplate (no upper bound).

    ``weight × (1 − link density)² + punctuation bonus − threshold``; furniture blocks
    count fully negative; headings are neutral-to-slightly-positive so that they join the
    section they introduce.
    """
    if block.furniture:
        return -max(block.weight, _THRESHOLD)
    density = block.link_density
    if density > 0.5:
        return -_THRESHOLD - block.weight * density
    text_value = block.weight * (1.0 - density) ** 2 + _PUNCT_BONUS * min(block.punct, 30)
    if block.heading:
        return min(text_value, _THRESHOLD) * 0.5
    return text_value - _THRESHOLD


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


def best_run(values: list[float]) -> tuple[int, int, float]:
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
