"""Finish a chosen candidate: trim edges, anchor at the title, widen notices, drop furniture."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence

from lxml import etree

from indexer.extract.blocks import best_run
from indexer.extract.candidate import Candidate
from indexer.extract.comments import comment_blocks
from indexer.extract.datelines import is_chronology
from indexer.extract.explain import Trace
from indexer.extract.listing import expand_listing
from indexer.extract.segment import MOSTLY_LINKS, Segmentation
from indexer.extract.titles import title_parts

# Inside a chosen container, negative blocks weigh this much when trimming its edges: a
# link list between two paragraphs stays, a trailing "most popular" list goes.
_TRIM_SOFTNESS = 0.25
# A title shorter than this (normalised characters) is too generic to anchor on.
_MIN_TITLE = 6
# Blocks before the title heading are dropped when this share of the value follows it.
_ANCHOR_SHARE = 0.3
# The title heading joins the text when at most this many blocks (byline, date) lie
# between it and the text.
_TITLE_GAP = 6
# Blocks with at least this link density are link lists, not text.
_LINK_BLOCK_DENSITY = 0.9
# Only blocks this long (characters) count as repeats: short lines such as
# "Serves: 2" legitimately recur in lists and tables.
_MIN_REPEAT = 80
_NON_WORD = re.compile(r"[\W_]+")
# A candidate with less body text (characters outside headings) than this is a short
# notice ("本日は休業です"): its short, unpunctuated lines score below the block
# threshold, so the best run keeps only the heading; they are taken back (see widen).
_SHORT_BODY = 40


@functools.lru_cache(maxsize=4096)  # headings are normalised by several steps of one page
def _norm(text: str) -> str:
    return _NON_WORD.sub("", unicodedata.normalize("NFKC", text).lower())


def title_anchor(seg: Segmentation, title: str) -> int | None:
    """Index of the first heading block that repeats the page title, or None.

    Linked headings (teasers of other pages) do not count. A heading matches when,
    normalised (NFKC, lower case, word characters only), it contains the title, equals
    one of the title's parts ("Title | Site"), or is a piece of the title at least half
    its length (a section heading "Videos" does not anchor "Embedded videos test").
    """
    wanted = _norm(title)
    if _length(wanted) < _MIN_TITLE:
        return None
    parts = {_norm(part) for part in title_parts(title)}
    for index, block in enumerate(seg.blocks):
        if not block.heading or block.link_density > MOSTLY_LINKS:
            continue
        text = _norm(block.text)
        if _length(text) < _MIN_TITLE:
            continue
        if wanted in text or text in parts or (text in wanted and 2 * len(text) >= len(wanted)):
            return index
    return None


def _length(text: str) -> int:
    """Length for :data:`_MIN_TITLE`, a CJK character counted as three (a word's worth:
    索引, 目次, 概要 are whole headings)."""
    return sum(3 if ord(char) >= 0x2E80 else 1 for char in text)


def _value(indexes: Sequence[int], values: Sequence[float]) -> float:
    return sum(values[i] for i in indexes)


def _soft(seg: Segmentation, index: int, values: Sequence[float]) -> float:
    value = values[index]
    if value > 0:
        return value
    block = seg.blocks[index]
    if block.link_chars == 0 and not block.furniture:
        return 0.0
    return value * _TRIM_SOFTNESS


_ENTRY_TAGS = frozenset({"li", "dt", "dd"})


def trim(candidate: Candidate, seg: Segmentation, values: Sequence[float]) -> Candidate:
    """Keep the best run of the candidate's blocks, negatives softened.

    Inside a chosen container a short line without links (a list item, a table row)
    costs nothing: it stays between two paragraphs and goes at the edges, unless the
    lines after the run are a chronology (:func:`_chronology_end`); other negative
    blocks weigh ``_TRIM_SOFTNESS`` of their value.
    """
    soft = [_soft(seg, i, values) for i in candidate.indexes]
    first, end, best = best_run(soft)
    if best <= 0:
        return candidate
    end = _chronology_end(candidate.indexes, seg, end)
    return Candidate(candidate.extractor, candidate.indexes[first:end])


def _chronology_end(indexes: Sequence[int], seg: Segmentation, end: int) -> int:
    """Where the kept run ends when the container's list entries around position ``end``
    of ``indexes`` are a chronology (:func:`datelines.is_chronology`), counting those the
    run already ends with and those after it (after at most one heading: 沿革, History);
    else ``end``."""
    start = end
    while start > 0 and _entry(seg, indexes[start - 1]):
        start -= 1
    after = end + 1 if end < len(indexes) and seg.blocks[indexes[end]].heading else end
    stop = after
    while stop < len(indexes) and _entry(seg, indexes[stop]):
        stop += 1
    entries = [seg.blocks[i] for i in (*indexes[start:end], *indexes[after:stop])]
    return stop if stop > after and is_chronology(entries) else end


def _entry(seg: Segmentation, index: int) -> bool:
    """A list entry (``li``, ``dt``, ``dd``) without links, outside page furniture."""
    block = seg.blocks[index]
    return block.owner.tag in _ENTRY_TAGS and not block.link_chars and not block.furniture


def anchor_title(candidate: Candidate, anchor: int | None, values: Sequence[float]) -> Candidate:
    """Start the candidate at the title heading.

    Blocks before the heading are dropped when enough value follows it (teasers above
    the article); a heading shortly before the text is put in front of it.
    """
    indexes = candidate.indexes
    if anchor is None or not indexes:
        return candidate
    if indexes[0] < anchor <= indexes[-1]:
        after = tuple(i for i in indexes if i >= anchor)
        if _value(after, values) >= _ANCHOR_SHARE * _value(indexes, values):
            return Candidate(candidate.extractor, after)
        return candidate
    if anchor < indexes[0] and indexes[0] - anchor <= _TITLE_GAP:
        return Candidate(candidate.extractor, (anchor, *indexes))
    return candidate


def drop_repeats(candidate: Candidate, seg: Segmentation) -> Candidate:
    """Drop long blocks whose text repeats an earlier block's in another container.

    A gallery repeats each caption once per slide, thumbnail strip or lightbox, each copy
    in a container of its own; a text's own paragraphs are siblings, so a paragraph that
    recurs beside the first, in an element of the same class (a refrain, a repeated
    warning), is the page's and stays.
    """
    seen: dict[str, tuple[etree._Element | None, str | None]] = {}
    kept = []
    for index in candidate.indexes:
        block = seg.blocks[index]
        place = (block.owner.getparent(), block.owner.get("class"))
        first = seen.setdefault(block.text, place)
        if block.chars >= _MIN_REPEAT and (first[0] is not place[0] or first[1] != place[1]):
            continue
        kept.append(index)
    return Candidate(candidate.extractor, tuple(kept))


def drop_links(candidate: Candidate, seg: Segmentation) -> Candidate:
    """Drop blocks that are (almost) all link text: related-article lists, "see more".

    Kept when dropping them would leave less than half the characters (a link listing
    page, whose links are its content).
    """
    kept = tuple(i for i in candidate.indexes if seg.blocks[i].link_density < _LINK_BLOCK_DENSITY)
    if 2 * Candidate("", kept).chars(seg) < candidate.chars(seg):
        return candidate
    return Candidate(candidate.extractor, kept)


def _body_chars(candidate: Candidate, seg: Segmentation) -> int:
    return sum(seg.blocks[i].chars for i in candidate.indexes if not seg.blocks[i].heading)


def _notice_line(seg: Segmentation, index: int) -> bool:
    block = seg.blocks[index]
    return not block.furniture and block.link_density <= MOSTLY_LINKS  # else it ends a notice


def widen(candidate: Candidate, seg: Segmentation) -> Candidate:
    """Give a short notice back its short lines.

    When the candidate has less than ``_SHORT_BODY`` characters outside headings, it is
    extended over its neighbouring blocks, in both directions, up to the first furniture
    block or link list (the menus and footer around a notice); blocks it had dropped
    inside stay dropped. Longer candidates are returned unchanged.
    """
    if not candidate.indexes or _body_chars(candidate, seg) >= _SHORT_BODY:
        return candidate
    first, last = candidate.indexes[0], candidate.indexes[-1]
    while first > 0 and _notice_line(seg, first - 1):
        first -= 1
    while last + 1 < len(seg.blocks) and _notice_line(seg, last + 1):
        last += 1
    before = tuple(range(first, candidate.indexes[0]))
    after = tuple(range(candidate.indexes[-1] + 1, last + 1))
    return Candidate(candidate.extractor, before + candidate.indexes + after)


def drop_comments(candidate: Candidate, seg: Segmentation, values: Sequence[float]) -> Candidate:
    """Drop comment sections recognised by their heading (:mod:`indexer.extract.comments`)."""
    dropped = comment_blocks(seg, candidate.indexes, values)
    if not dropped:
        return candidate
    kept = tuple(i for i in candidate.indexes if i not in dropped)
    return Candidate(candidate.extractor, kept)


def finish(
    candidate: Candidate,
    seg: Segmentation,
    values: Sequence[float],
    title: str,
    trace: Trace | None = None,
) -> Candidate:
    """Apply :func:`trim`, :func:`anchor_title`, :func:`widen`, :func:`drop_comments`,
    :func:`drop_links`, :func:`drop_repeats` and
    :func:`~indexer.extract.listing.expand_listing`.

    When ``trace`` is given, each step's removals and additions are noted in it under
    the step's reason (:mod:`indexer.extract.explain`).
    """
    anchor = title_anchor(seg, title)
    steps: list[tuple[str, str, Callable[[Candidate], Candidate]]] = [
        ("trimmed", "trimmed", lambda c: trim(c, seg, values)),
        ("before-title", "title", lambda c: anchor_title(c, anchor, values)),
        ("notice", "notice", lambda c: widen(c, seg)),
        ("comments", "comments", lambda c: drop_comments(c, seg, values)),
        ("link-list", "link-list", lambda c: drop_links(c, seg)),
        ("repeat", "repeat", lambda c: drop_repeats(c, seg)),
        ("link-list", "listing", lambda c: expand_listing(c, seg)),
    ]
    for drop, add, step in steps:
        after = step(candidate)
        if trace is not None:
            trace.step(candidate.indexes, after.indexes, drop, add)
        candidate = after
    return candidate
