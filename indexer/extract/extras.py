"""Drop the kinds of block that sit inside a page's content without being its text.

The chain (:mod:`indexer.extract.select`) chooses the content as a region; inside that
region, or at its edges, some blocks are of a kind that is never the page's own text,
whatever the site: notices (:mod:`indexer.extract.notices`), datelines and bylines
(:mod:`indexer.extract.datelines`), slideshow captions, photo credits and media controls
(:mod:`indexer.extract.media`), teasers of other entries, news columns and boxes of
related entries (:mod:`indexer.extract.columns`). Each kind is one rule; each
rule says which kept blocks are of its kind, by their words, their shape and where they
stand (:mod:`indexer.extract.zones`), never by one site's sentences.

A rule that would take more than half of the remaining text (outside headings) is not
applied: a page made of such blocks (a site policy page, a list of teasers) has them as
its content. A box of related entries (named so by its heading's markup) is the exception
(:data:`UNCAPPED`).
"""

from __future__ import annotations

from collections.abc import Callable

from indexer.extract.columns import column_blocks, related_blocks, teaser_blocks
from indexer.extract.datelines import dateline_blocks
from indexer.extract.media import media_blocks
from indexer.extract.notices import notice_blocks, notice_candidates
from indexer.extract.segment import Segmentation
from indexer.extract.zones import Zones, zones

# A rule may take at most this share of the remaining text outside headings.
_MAX_SHARE = 0.5


def _notices(seg: Segmentation, kept: tuple[int, ...]) -> set[int]:
    candidates = notice_candidates(seg.blocks, kept)
    if not candidates:
        return set()
    return notice_blocks(zones(seg, kept, ignore=candidates), candidates)


_Rule = Callable[[Segmentation, tuple[int, ...]], set[int]]
#: The rules in the order applied, each with the reason its drops are explained by.
RULES: tuple[tuple[str, _Rule], ...] = (
    ("notice", _notices),
    ("dateline", lambda seg, kept: dateline_blocks(zones(seg, kept))),
    ("media", lambda seg, kept: media_blocks(zones(seg, kept))),
    ("teaser", lambda seg, kept: teaser_blocks(zones(seg, kept))),
    ("news-column", lambda seg, kept: column_blocks(zones(seg, kept))),
    ("related", lambda seg, kept: related_blocks(zones(seg, kept))),
)
#: Rules whose markup leaves no doubt: the share cap does not hold them back (a box of
#: related entries may hold more text than the entry, and is still not its text).
UNCAPPED = frozenset({"related"})


def _affordable(whole: Zones, dropped: set[int]) -> bool:
    """True when ``dropped`` leaves at least ``1 - _MAX_SHARE`` of the text outside
    headings, and something."""
    before = whole.body_weight()
    left = whole.body_weight([i for i in whole.kept if i not in dropped])
    return left > 0 and left >= (1 - _MAX_SHARE) * before


def drop_extras(seg: Segmentation, kept: tuple[int, ...]) -> tuple[tuple[int, ...], dict[int, str]]:
    """``kept`` without the blocks of :data:`RULES`' kinds, and each dropped block's reason."""
    reasons: dict[int, str] = {}
    for reason, rule in RULES:
        if not kept:
            break
        dropped = rule(seg, kept)
        if not dropped:
            continue
        if reason not in UNCAPPED and not _affordable(zones(seg, kept), dropped):
            continue
        reasons.update(dict.fromkeys(dropped, reason))
        kept = tuple(i for i in kept if i not in dropped)
    return kept, reasons
