"""Parse decoded HTML text into an lxml tree (the hot path: libxml2, no bs4)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from lxml import etree

from indexer.errors import ExtractError
from indexer.extract.depth import bound_depth
from indexer.extract.tags import UNWRAP_TAGS

# lxml refuses a str that carries an XML encoding declaration; the text is already decoded,
# so we hand libxml2 UTF-8 bytes and say so, which also overrides any <meta charset>.
# Plain etree elements, not lxml.html's HtmlElement: its per-element class lookup runs in
# Python and costs more than the parse itself.
_PARSER = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)


# Nesting limits tried, in turn, when libxml2 gives up on a page nested too deep: the
# first keeps the page's structure, the second (a flat page) always parses.
_DEPTH_LIMITS = (128, 0)


def parse_html(text: str) -> etree._Element:
    """Parse ``text`` (already decoded) into an lxml HTML document root.

    libxml2 stops at 256 nested elements and drops the rest of the page; such a page is
    parsed again with its nesting bounded (:func:`indexer.extract.depth.bound_depth`),
    so the tree is never deeper than 256 and the Python walks over it stay bounded.

    Raises:
        ExtractError: the text is empty or libxml2 cannot build a tree from it.
    """
    text = _XML_DECL.sub("", text, count=1)
    if not text.strip():
        raise ExtractError("empty document")
    root = _parse(text)
    for limit in _DEPTH_LIMITS:
        if not _too_deep(_PARSER):
            break
        root = _parse(bound_depth(text, limit))
    return root


def _parse(text: str) -> etree._Element:
    data = text.encode("utf-8", "replace").replace(b"\x00", b"")
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise ExtractError(f"cannot parse HTML: {exc}") from exc
    if root is None:
        raise ExtractError("cannot parse HTML: no root element")
    return root


def _too_deep(parser: etree.HTMLParser) -> bool:
    """True when the last parse hit libxml2's nesting limit (and so stopped early)."""
    return any(
        error.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT and "depth" in error.message
        for error in parser.error_log
    )


def body_of(root: etree._Element) -> etree._Element:
    """Return the ``<body>`` element, or the root when there is none (frameset pages)."""
    body = root.find("body")
    return body if body is not None else root


_MAX_UNWRAP = 2000  # inline elements unwrapped at most (see prune)


def prune(root: etree._Element, drop: Iterable[str]) -> None:
    """Simplify the tree in C before the Python walk: remove ``drop`` elements (their
    tails kept) and unwrap inline formatting tags. Modifies ``root``.

    Unwrapping happens before the walk looks for hidden elements, so text in a hidden
    ``<span style="display:none">`` is kept; hidden blocks are still skipped.
    """
    etree.strip_elements(root, *drop, with_tail=False)
    # Unwrapping leaves the text of the removed tags as separate adjacent text nodes, and
    # lxml joins such runs anew on every ``.text`` / ``.tail`` read in time quadratic in
    # their number: a page of 100,000 <span>s would take minutes. The walk handles inline
    # elements itself, only more slowly, so very tag-heavy pages are left as they are.
    if next(itertools.islice(root.iter(*UNWRAP_TAGS), _MAX_UNWRAP, None), None) is not None:
        return
    etree.strip_tags(root, *UNWRAP_TAGS)
