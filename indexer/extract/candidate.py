"""A candidate main content: which chain step proposed it and which blocks it covers."""

from __future__ import annotations

from dataclasses import dataclass

from indexer.extract.segment import Segmentation


@dataclass(frozen=True, slots=True)
class Candidate:
    """Blocks one chain step proposes as the main content.

    Attributes:
        extractor: the step's name (``semantic``, ``blocks``, ``dom``, ``fallback``).
        indexes: block indexes in document order.
    """

    extractor: str
    indexes: tuple[int, ...]

    def chars(self, seg: Segmentation) -> int:
        """Non-space characters in the candidate's blocks."""
        return sum(seg.blocks[i].chars for i in self.indexes)

    def link_density(self, seg: Segmentation) -> float:
        """Share of the candidate's characters inside links, 0.0–1.0."""
        chars = self.chars(seg)
        links = sum(seg.blocks[i].link_chars for i in self.indexes)
        return links / chars if chars else 0.0

    def text(self, seg: Segmentation) -> str:
        """The candidate's text, one block per line."""
        return "\n".join(seg.blocks[i].text for i in self.indexes)


def span_candidate(
    extractor: str, seg: Segmentation, spans: list[tuple[int, int]], keep_furniture: bool
) -> Candidate:
    """Build a candidate from block spans, dropping furniture blocks unless told not to."""
    indexes: set[int] = set()
    for first, end in spans:
        indexes.update(range(first, end))
    if not keep_furniture:
        indexes = {i for i in indexes if not seg.blocks[i].furniture}
    return Candidate(extractor, tuple(sorted(indexes)))
