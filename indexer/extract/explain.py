"""Why each piece of a page was kept or dropped: the chain's decisions, recorded as it runs.

The chain steps do not report anything themselves; :class:`Trace` is handed to
:func:`indexer.extract.select.choose` and :func:`indexer.extract.refine.finish`, which
compare the candidate before and after each step and note the blocks a step removed or
added under the step's reason. Elements the segmentation never turned into blocks
(hidden ones, ``<nav>`` and ``<footer>``) are listed by :mod:`indexer.extract.segment`.

Reasons when dropped: ``template`` (repeats on many pages of the host), ``furniture``
(navigation, sidebar, footer … by markup), ``navigation`` (inside ``<nav>``/``<footer>``,
never read), ``hidden``, ``outside-main`` (not in the chosen main content), ``trimmed``
(at the edge of the chosen container), ``before-title`` (teasers above the title),
``comments``, ``link-list``, ``repeat``. Reasons when kept: the chain step that chose
the content (``rules``, ``semantic``, ``dom``, ``blocks``, ``fallback``), ``title``,
``notice`` (the lines of a short notice), ``listing`` (entries of a listing page) and
``unique`` (text of this page alone that the per-page chain kept, see
:mod:`indexer.extract.template`), ``label`` (the template header row of a data table
whose rows are the page's own, the term of a value: :mod:`indexer.extract.region`).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field

from lxml import etree

# An explanation keeps at most this many decisions, each text cut to this many characters.
MAX_DECISIONS = 2000
MAX_TEXT = 300


@dataclass(frozen=True, slots=True)
class Decision:
    """One kept or dropped piece of a page.

    Attributes:
        action: ``kept`` or ``dropped``.
        reason: why (see the module docstring).
        path: DOM path of the element, ``body/div.main/p`` (tag and first class).
        text: the piece's text.
    """

    action: str
    reason: str
    path: str
    text: str

    def as_json(self) -> str:
        """The decision as one JSON object (text cut to ``MAX_TEXT`` characters)."""
        record = {
            "action": self.action,
            "reason": self.reason,
            "path": self.path,
            "text": self.text[:MAX_TEXT],
        }
        return json.dumps(record, ensure_ascii=False)


@dataclass(slots=True)
class Trace:
    """Block index → reason, filled in by the chain steps as they run.

    Attributes:
        dropped: blocks a step removed (first reason wins).
        added: blocks a step added to the candidate (first reason wins).
    """

    dropped: dict[int, str] = field(default_factory=dict)
    added: dict[int, str] = field(default_factory=dict)

    def step(self, before: tuple[int, ...], after: tuple[int, ...], drop: str, add: str) -> None:
        """Note what one step changed: blocks of ``before`` not in ``after`` are dropped
        for ``drop``; blocks of ``after`` not in ``before`` are added for ``add``."""
        old, new = set(before), set(after)
        for index in old - new:
            self.dropped.setdefault(index, drop)
            self.added.pop(index, None)
        for index in new - old:
            self.added.setdefault(index, add)
            self.dropped.pop(index, None)


def dom_path(element: etree._Element, cache: dict[etree._Element, str]) -> str:
    """``body/div.main/p``: tags from ``<body>`` down, each with its first class token.

    Positions and ids are left out, so that the same box on two pages of a site has the
    same path when the menus before it differ in length. ``cache`` memoises the paths
    of one page's elements.
    """
    known = cache.get(element)
    if known is not None:
        return known
    tag = element.tag if isinstance(element.tag, str) else "#"
    classes = (element.get("class") or "").split()
    name = f"{tag}.{classes[0]}" if classes else tag
    parent = element.getparent()
    if tag in ("body", "html") or parent is None:
        path = name
    else:
        path = f"{dom_path(parent, cache)}/{name}"
    cache[element] = path
    return path


def to_lines(decisions: list[Decision]) -> str:
    """Decisions as JSON lines (at most ``MAX_DECISIONS``), the stored form."""
    return "\n".join(d.as_json() for d in decisions[:MAX_DECISIONS])


def pack(lines: str) -> bytes:
    """JSON lines as stored: UTF-8, zlib-compressed (level 1: an explanation is written for
    every indexed page and read rarely; a tenth of its size at a third of level 6's cost).
    ``b""`` for no lines."""
    return zlib.compress(lines.encode("utf-8"), 1) if lines else b""


def unpack(packed: bytes) -> str:
    """The JSON lines of :func:`pack`'s bytes.

    Raises:
        zlib.error: the bytes are not zlib data.
    """
    return zlib.decompress(packed).decode("utf-8") if packed else ""
