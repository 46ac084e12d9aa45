"""Notices: copyright lines, "no reproduction" and access warnings, in English and Japanese.

A notice is a page's legal or access furniture — "Copyright © 2019 総務部",
"無断転載を禁じます", "For authorized employees only", "社外秘" — not what the page is
about; sites put it in the footer, under the title, at the end of an entry or in a
sidebar box, often in markup no different from the text's. It is known by its words
and its shape together:

- its words: one of a small set of cue phrases (:data:`_COPYRIGHT`, :data:`_WARNING`);
- its shape: a short block (at most ``_MAX_WEIGHT`` of text, ``_MAX_SENTENCES``
  sentences) whose sentences and lines holding a cue are most of it (a heading joined by
  ``<br>`` to a copyright line, a paragraph ending with "(c)AFP" are not notices);
- where it stands: a copyright line (``©``, "Copyright 2019", "All rights reserved")
  that is not prose (:func:`~indexer.extract.zones.is_prose`) anywhere; another notice
  outside the body's prose (before its first sentence or after its last,
  :mod:`indexer.extract.zones`), inside a box whose class or id names a footer or a
  notice, or opened by a notice mark ("※", "注意", "Note:").

A sentence that mentions
copyright in passing is neither short nor, in the middle of the article, outside its
prose; a page whose text is a notice (a site policy page) keeps it (the share guard of
:mod:`indexer.extract.extras`).
"""

from __future__ import annotations

import re

from indexer.extract.segment import Block
from indexer.extract.zones import Zones, folded, is_prose, lineage, names

# Copyright lines: the sign, "Copyright" with a year or a holder, "All rights reserved",
# and their Japanese forms (著作権 … 帰属/所有, 版権所有).
_COPYRIGHT = re.compile(
    r"(?<![\w™®])©|\(c\)\s*(?:\d{4}|[a-z])|\bcopyright\b|all rights reserved"
    r"|著作権(?:は|を)?[^。]{0,30}(?:帰属|所有|保護)|版権所有"
)
# Reproduction and access warnings (text in NFKC, lower case).
_WARNING = re.compile(
    r"無断(?:で)?(?:転載|複製|複写|転用|使用|引用|配布|掲載|リンク)"
    r"|(?:転載|複製|複写|転用|再配布|二次利用)(?:・[^。]{1,6})*(?:を|は|等を|等は)?"
    r"(?:禁|固く|お断り|ご遠慮|できません|しないで)"
    r"|禁無断転載|社外秘|部外秘|関係者以外|関係者外|取扱注意|取り扱い注意"
    r"|(?:社員|職員|従業員|関係者|会員)(?:の方)?(?:専用|限定|のみ)"
    r"|社内(?:限定|専用|のみ)|(?:社外|外部)(?:へ|に|への)?(?:の)?"
    r"(?:持ち?出|公開|転送|漏|提供|開示)[^。]{0,8}(?:禁|不可|しないで|ご遠慮)"
    r"|(?:閲覧|アクセス|利用)(?:を|は)?(?:禁|固く禁|ご遠慮)"
    r"|\bauthori[sz]ed\s+(?:personnel|employees|users|staff|members|persons|people)\b"
    r"|\b(?:employees|staff|personnel|members)\s+only\b|\binternal\s+use\s+only\b"
    r"|\bunauthori[sz]ed\s+(?:access|use|copying|reproduction|distribution|disclosure)\b"
    r"|\bstrictly\s+confidential\b|\bconfidential(?:ity)?\s+notice\b"
    r"|\bmay\s+not\s+be\s+(?:reproduced|copied|(?:re)?published|broadcast|(?:re)?distributed)\b"
    r"|\bno\s+part\s+of\s+this\b|\breproduction\b[^.]{0,40}\b(?:prohibited|forbidden|"
    r"not\s+permitted)\b|\bdo\s+not\s+(?:copy|reproduce|redistribute|forward|distribute)\b"
)
# A notice's box: class or id words of a footer or a notice, looked for this many levels up.
_BOX_WORDS = re.compile(
    r"footer|copyright|copy-right|notice|caution|attention|disclaimer|legal|warning"
)
_BOX_LEVELS = 4
# Marks that open a notice line.
_MARK = re.compile(
    r"^\s*(?:※|\*|注意|注[:：]|【注意|【重要|\(注\)|note:|notice:|warning:|caution:)"
)
# A notice is short: at most this weight (Latin-equivalent characters; a kanji counts
# 2.5) and this many sentences.
_MAX_WEIGHT = 260.0
_MAX_SENTENCES = 3
_SENTENCE_END = re.compile(r"[。．.!?！？](?=\s|$)|[。！？]")
# Sentences and lines: a notice's pieces.
_PIECE = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+|\n")
# The pieces holding a cue are at least this share of a notice's characters.
_NOTICE_SHARE = 0.75


def is_copyright(text: str) -> bool:
    """True when ``text`` (any form) holds a copyright cue."""
    return _COPYRIGHT.search(folded(text)) is not None


def is_notice_text(text: str) -> bool:
    """True when ``text`` holds a copyright, reproduction or access-warning cue."""
    form = folded(text)
    return _COPYRIGHT.search(form) is not None or _WARNING.search(form) is not None


def _short(block: Block) -> bool:
    return block.weight <= _MAX_WEIGHT and len(_SENTENCE_END.findall(block.text)) <= _MAX_SENTENCES


def _mostly_notice(text: str) -> bool:
    """True when the sentences (and lines) of ``text`` holding a cue are at least
    ``_NOTICE_SHARE`` of its characters: "Copyright © 2019 総務部" is, a paragraph ending
    with "(c)AFP" or a header joined by ``<br>`` to a copyright line is not."""
    pieces = [p for p in _PIECE.split(text) if p.strip()]
    cued = sum(len(piece) for piece in pieces if is_notice_text(piece))
    return cued >= _NOTICE_SHARE * sum(len(piece) for piece in pieces)


def _in_notice_box(block: Block) -> bool:
    return any(_BOX_WORDS.search(names(e)) for e in lineage(block.owner, _BOX_LEVELS))


def notice_candidates(seg_blocks: list[Block], kept: tuple[int, ...]) -> set[int]:
    """Kept blocks that are short and hold a notice cue (where they stand aside)."""
    return {i for i in kept if _short(seg_blocks[i]) and _mostly_notice(seg_blocks[i].text)}


def notice_blocks(zones: Zones, candidates: set[int]) -> set[int]:
    """The notices among ``candidates`` (:func:`notice_candidates`), judged with the
    content's zones computed without them (module docstring)."""
    found = set()
    for index in candidates:
        block = zones.seg.blocks[index]
        if (
            (is_copyright(block.text) and not is_prose(block))
            or zones.outside(index)
            or _in_notice_box(block)
            or _MARK.match(folded(block.text))
        ):
            found.add(index)
    return found
