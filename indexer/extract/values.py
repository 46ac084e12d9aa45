"""Which blocks' numbers are data: a block that differs between a host's pages only in its
numbers is a template with a variable ("Page 3 of 9", a date line) unless the numbers are
the page's own (a catalogue's ``価格：260円``, a table's cells, a sentence naming its page's
extension number). Used by :func:`indexer.extract.template.template_blocks`.
"""

from __future__ import annotations

import re
import unicodedata

from indexer.extract.segment import MOSTLY_LINKS, Block

_DIGITS = re.compile(r"\d")

_ROW_TAGS = frozenset({"tr", "td", "th"})
# A table cell or data row longer than this is a layout cell, not a value.
_MAX_CELL = 200
# A definition (``<dd>``) this short is a value.
_MAX_VALUE = 40
# Label and value: "価格：260円", "型番: ST-1037", "Weight = 1.2 kg".
_LABEL_VALUE = re.compile(r"^[^\d:：=]{1,24}[:：=]\s*\S.{0,40}$")
# A label and a number with its unit: "重量 1.2kg", "幅 120×45mm", "Size 12 cm".
_SPEC = re.compile(r"^[^\d\s:：]{1,16}\s+[\d.,/\-~×x]*\d[\d.,/\-~×x]*\s?[^\d\s]{0,4}$")


def is_value_block(block: Block) -> bool:
    """True when a block's numbers are data: a table cell or data row (mostly not links),
    a short ``<dd>``, a ``label: value`` line or a label with a number and its unit (no
    link text); not a heading.

    Its pages may differ only in those numbers (a catalogue: ``価格：260円`` on every
    product page), so it is template only when its exact form repeats too
    (:func:`indexer.extract.template.template_blocks`).
    """
    if block.heading or not _DIGITS.search(block.text):
        return False
    text = " ".join(unicodedata.normalize("NFKC", block.text).split())
    if block.owner.tag in _ROW_TAGS:  # a listing's row may link its record
        return len(text) <= _MAX_CELL and block.link_density <= MOSTLY_LINKS
    if block.link_chars:
        return False
    if block.owner.tag == "dd":  # a term's value: <dt>価格</dt><dd>260円</dd>
        return len(text) <= _MAX_VALUE
    return bool(_LABEL_VALUE.match(text) or _SPEC.match(text))


# A block this long with sentence punctuation is a sentence ("詳しい説明は第3章にあります。").
_SENTENCE_CHARS = 20


def carries_data(block: Block) -> bool:
    """True when a block's numbers are its page's own: a value block
    (:func:`is_value_block`) or a sentence (punctuation, at least ``_SENTENCE_CHARS``
    characters, mostly not links). A short line with a number ("Page 3 of 9", a date
    line, a heading "お知らせ 3") is the layout's, its number a variable."""
    if is_value_block(block):
        return True
    sentence = block.punct > 0 and block.chars >= _SENTENCE_CHARS
    return sentence and not block.heading and block.link_density <= MOSTLY_LINKS


_OWN_HEADINGS = frozenset({"h1", "h2", "h3"})


def own_heading(block: Block, title: str) -> bool:
    """True for a page's heading (``h1``–``h3``) or the block repeating its ``title``
    (NFKC, lower case, spaces collapsed, digits kept). Whose exact text is not template,
    it names this page ("第7条規程" where every page's heading is 第N条規程), even as its
    digit-collapsed form repeats (one-digit numbers collide most: "Week 1" … "Week 9" are
    one key). Not "on no other page": statistics persist across runs, so a reindexed
    page's heading is counted once a run (its own earlier versions). Used by
    :func:`indexer.extract.template.template_blocks`."""
    if block.heading and block.owner.tag in _OWN_HEADINGS:
        return True
    text = " ".join(unicodedata.normalize("NFKC", block.text).lower().split())
    return len(text) >= 2 and text in title
