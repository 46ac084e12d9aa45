"""Comment sections recognised by their heading ("コメント", "Leave a Reply"), not by class names.

Old blogs and intranet diaries put reader comments in plain ``<div>``s under a heading;
nothing in the markup says "comments" but the heading text. A heading that names a
comment or trackback section, placed after some content, starts a section: the heading
and the blocks after it in its enclosing element, up to the next heading of the same or
a higher rank that is not itself such a heading. The section is a comment section when
it ends the chosen content (comments follow the article) or looks like a thread (two or
more short signature lines carrying a date or time, "佐藤 (2006/10/12 18:03)"); a
"コメント" section in the middle of a coding standard is the article's own. The chosen
main content drops comment sections (:func:`indexer.extract.refine.finish`); they are
not made furniture before the choice, as their text may be what holds the article's
blocks together.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from lxml import etree

from indexer.extract.segment import MOSTLY_LINKS, Segmentation
from indexer.extract.tags import HEADING_TAGS

# Whole headings (NFKC, lower case, counts such as "12" or "3件" and every non-word
# character removed) that name a comment, trackback or reply section.
_MARKERS = frozenset(
    {
        "comment", "comments", "commentlist", "usercomments", "readercomments",
        "trackback", "trackbacks", "pingback", "pingbacks", "commentsandtrackbacks",
        "responses", "replies", "reactions", "leaveareply", "leaveacomment",
        "postacomment", "addacomment", "writeacomment", "leaveyourcomment",
        "submitacomment", "shareyourthoughts", "jointhediscussion", "commentsareclosed",
        "commentonthisarticle", "commentonthisstory", "commentonthispost",
        "コメント", "コメント一覧", "コメントする", "コメントを書く", "コメントを投稿",
        "コメントを投稿する", "コメントの投稿", "コメントをどうぞ", "コメント欄",
        "この記事へのコメント", "この記事へのトラックバック", "コメントトラックバック",
        "トラックバック", "トラックバック一覧", "トラックバックurl", "トラックバック用url",
        "返信", "返信する", "ご意見", "ご感想", "ご意見ご感想", "読者コメント",
        "みんなのコメント",
    }
)  # fmt: skip
# WordPress-style "3 Responses to “Title”", "One thought on “Title”".
_TITLED = re.compile(
    r"\s*(?:\d+|one|no)\s+(?:comments?|responses?|replies|thoughts?)\s+(?:to|on)\s"
)
_COUNT = re.compile(r"\d+件?")
# A signature line: a short block holding a date (2006/10/12, 2006-10-12, 2006年10月) or
# a time (18:03).
_SIGNATURE = re.compile(r"\d{4}\s*[-/.年]\s*\d{1,2}|\d{1,2}:\d{2}")
_MAX_SIGNATURE = 60
_MIN_SIGNATURES = 2
_NON_WORD = re.compile(r"[\W_]+")
# A heading longer than this (characters) is an article's own heading.
_MAX_MARKER = 60


def is_comment_heading(text: str) -> bool:
    """True when a heading's text names a comment, trackback or reply section.

    ``"コメント（3件）"``, ``"12 Comments"``, ``"Leave a Reply"``, ``"2 thoughts on “X”"``
    are; ``"Comments on the draft policy"`` and ``"Recent Comments"`` are not.
    """
    if len(text) > _MAX_MARKER:
        return False
    key = _NON_WORD.sub("", _COUNT.sub("", unicodedata.normalize("NFKC", text).lower()))
    return key in _MARKERS or _TITLED.match(unicodedata.normalize("NFKC", text).lower()) is not None


def _rank(element: etree._Element) -> int:
    """1–6 for the heading element at or around ``element``, 7 when there is none."""
    node: etree._Element | None = element
    while node is not None:
        if node.tag in HEADING_TAGS:
            return int(str(node.tag)[1])
        node = node.getparent()
    return 7


def _section_end(seg: Segmentation, index: int) -> int:
    """End of the smallest element around block ``index`` that holds later blocks too."""
    node: etree._Element | None = seg.blocks[index].owner
    while node is not None:
        span = seg.spans.get(node)
        if span is not None and span[1] > index + 1:
            return span[1]
        node = node.getparent()
    return index + 1


def _section(seg: Segmentation, index: int) -> range:
    """Blocks of the comment section headed by block ``index`` (see the module docstring)."""
    rank = _rank(seg.blocks[index].owner)
    end = _section_end(seg, index)
    for after in range(index + 1, end):
        block = seg.blocks[after]
        if block.heading and _rank(block.owner) <= rank and not is_comment_heading(block.text):
            return range(index, after)
    return range(index, end)


def _thread_like(seg: Segmentation, section: range) -> bool:
    """True when the section holds ``_MIN_SIGNATURES`` short lines with a date or time."""
    signatures = 0
    for index in section:
        block = seg.blocks[index]
        if block.heading or block.chars > _MAX_SIGNATURE:
            continue
        if _SIGNATURE.search(unicodedata.normalize("NFKC", block.text)):
            signatures += 1
    return signatures >= _MIN_SIGNATURES


def _is_comments(seg: Segmentation, section: range, indexes: Sequence[int]) -> bool:
    """True when the section ends the chosen content or looks like a thread."""
    last = all(index in section for index in indexes if index >= section.start)
    return last or _thread_like(seg, section)


def comment_blocks(seg: Segmentation, indexes: Sequence[int], values: Sequence[float]) -> set[int]:
    """Return those of ``indexes`` that lie in a comment section found by its heading.

    Args:
        seg: the segmented page.
        indexes: block indexes of a chosen main content, in document order.
        values: block values (:func:`indexer.extract.blocks.block_values`).

    A heading counts when its text passes :func:`is_comment_heading`, it is not mostly a
    link, and a content block (positive value, not a heading) of ``indexes`` comes
    before it: a comment section follows the article it is about. Its section is
    dropped when no other section of ``indexes`` follows it or it looks like a thread
    (see the module docstring).
    """
    dropped: set[int] = set()
    seen_content = False
    for index in indexes:
        block = seg.blocks[index]
        if index in dropped:
            continue
        if not block.heading:
            seen_content = seen_content or values[index] > 0
        elif seen_content and block.link_density <= MOSTLY_LINKS and is_comment_heading(block.text):
            section = _section(seg, index)
            if _is_comments(seg, section, indexes):
                dropped.update(section)
    return dropped.intersection(indexes)
