"""Last resort: the body's text without scripts, styles and page furniture."""

from __future__ import annotations

from indexer.extract.candidate import Candidate
from indexer.extract.segment import Segmentation


def fallback_candidate(seg: Segmentation) -> Candidate:
    """Return every block outside nav/header/footer/aside/form and furniture classes.

    When that leaves nothing, every block is returned (a page of only a header still
    has text worth indexing).
    """
    kept = tuple(i for i, block in enumerate(seg.blocks) if not block.furniture)
    return Candidate("fallback", kept or tuple(range(len(seg.blocks))))
