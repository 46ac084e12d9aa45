"""Learn each host's template from its pages: blocks that repeat on a large share of them.

A block is known by its key: a hash of the last steps of its DOM path
(:func:`indexer.extract.explain.dom_path`) and its normalised text (NFKC, lower case,
digits as ``0``, white space collapsed). A crawl sees many pages of a host; a key
found on at least ``share`` of them (and on at least ``min_count``) is the host's
template — menus, language switchers, sidebars, notices, footers — whatever its
length, language or link density. Link lines are also counted by their slot
(:func:`slot_key`): a place in the layout that holds links on most pages, whatever
they say, is navigation. Text found on one page only is that page's content. After
Webstemmer (Shinyama), which learned site layouts from many similar pages; no
single-page extractor can know what repeats. A block with digits is also counted by its
exact text (:func:`exact_key`): one whose pages differ only in its numbers is a template
with a variable ("Page 3 of 9") unless the numbers are data (:mod:`indexer.extract.values`:
a spec line, a table cell, a sentence), which is template only when its exact form repeats.

Statistics are bounded: per host at most ``max_keys`` keys are kept (when twice as many
have been seen, the most frequent ``max_keys`` stay: a template key is on most pages and
is never the one evicted), counts are halved once ``window`` pages were seen (so a
redesigned site's new template wins within a window), at most ``max_hosts`` hosts are
held in memory (the others wait in the store). They persist through a
:class:`TemplateStore` — the crawl's frontier (a table of its SQLite database), so a
reindex job starts with each host's template known.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from lxml import etree

from indexer.extract.explain import dom_path
from indexer.extract.segment import Block, Segmentation
from indexer.extract.values import carries_data, own_heading

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
#: Version of the stored statistics: 2 counts exact keys (:func:`exact_key`) too, 3 link
#: keys (:func:`link_keys`). Older statistics would lack them for their whole window (a
#: footer's exact form unknown), so they are learnt again.
STATS_VERSION = 3
# Keys of one page taken into the statistics at most (a page of 50,000 table cells).
_MAX_PAGE_KEYS = 5000


def normalized(text: str, *, digits: bool = False) -> str:
    """Text as compared across pages: NFKC, lower case, digit runs as ``0`` (unless
    ``digits``), spaces collapsed (so "© 2024" and "Page 3 of 9" match their other pages'
    versions)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return _SPACES.sub(" ", text if digits else _DIGITS.sub("0", text)).strip()


# Trailing DOM path steps a key keeps: enough to tell a menu item from a paragraph with
# the same words, not so many that the page type's wrappers (div.chapter, div.sect1)
# split one notice into several keys.
_PATH_STEPS = 3


def block_key(path: str, text: str) -> str:
    """16 hex digits identifying a block by the end of its DOM path and its normalised
    text (BLAKE2b)."""
    tail = "/".join(path.split("/")[-_PATH_STEPS:])
    data = f"{tail}\n{normalized(text)}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def block_keys(seg: Segmentation, paths: dict[etree._Element, str]) -> list[str]:
    """The key of every block of ``seg``, in block order; ``paths`` memoises DOM paths."""
    return [block_key(dom_path(block.owner, paths), block.text) for block in seg.blocks]


def exact_key(path: str, text: str) -> str:
    """Like :func:`block_key` with the digits kept; ``""`` for text without digits (its
    exact form is its :func:`block_key`)."""
    if not _DIGITS.search(text):
        return ""
    tail = "/".join(path.split("/")[-_PATH_STEPS:])
    data = f"exact\n{tail}\n{normalized(text, digits=True)}".encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def exact_keys(seg: Segmentation, paths: dict[etree._Element, str]) -> list[str]:
    """Per block, its :func:`exact_key` (``""`` without digits), in block order."""
    return [exact_key(dom_path(block.owner, paths), block.text) for block in seg.blocks]


# Blocks with more link text than this share are link lines; their place is a slot.
_SLOT_LINKS = 0.5
_SLOT_STEPS = 2


def slot_key(path: str) -> str:
    """The key of a link-list slot: the last ``_SLOT_STEPS`` class-bearing steps of a DOM
    path (``div.toc/dl.toc``), whatever the text and the nesting below them."""
    named = [step for step in path.split("/") if "." in step][-_SLOT_STEPS:]
    data = ("slot\n" + "/".join(named)).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


_NON_WORD = re.compile(r"[\W_]+")


def text_key(text: str) -> str:
    """The key of a title: a link line's or a heading's word characters (NFKC, lower
    case; a heading's "¶" permalink or a TOC line's leader dots do not count)."""
    words = _NON_WORD.sub("", unicodedata.normalize("NFKC", text).lower())
    data = ("text\n" + words).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


_ENTRY_TAGS = frozenset({"li", "dt", "dd"})


def _named(block: Block) -> bool:
    """A heading, a link line, or a list entry that starts with a link ("ABORT — abort
    the current transaction"): the lines that name a page or a section."""
    if block.heading or block.link_density > _SLOT_LINKS:
        return True
    return block.link_chars > 0 and block.owner.tag in _ENTRY_TAGS


def title_keys(seg: Segmentation) -> list[str]:
    """Per block, :func:`text_key` of a heading, a link line or a linked list entry,
    else ``""``. Such a line whose text is also on another page of the host names that
    page (a table of contents, a table of contents of tables of contents, an index's
    repeated qualifier): not the page's own text."""
    return [text_key(block.text) if _named(block) else "" for block in seg.blocks]


def link_keys(seg: Segmentation) -> list[str]:
    """Per block, the key of a link line's or a linked list entry's words (like
    :func:`text_key`, as a link), else ``""``. Seen on another page, the line is in
    another link list too (a table of contents of tables of contents): not the page's
    own. A link whose text is only another page's heading (a portal's entry naming its
    page) is not seen as a link."""
    return [
        _link_key(block.text) if block.link_chars > 0 and _named(block) else ""
        for block in seg.blocks
    ]


def _link_key(text: str) -> str:
    words = _NON_WORD.sub("", unicodedata.normalize("NFKC", text).lower())
    return hashlib.blake2b(
        ("link\n" + words).encode("utf-8", "surrogatepass"), digest_size=8
    ).hexdigest()


def slot_keys(seg: Segmentation, paths: dict[etree._Element, str]) -> list[str]:
    """Per block, the key of its link-list slot (:func:`slot_key`), or ``""`` for a block
    that is not a link line. A slot on a large share of a host's pages is navigation (a
    table of contents, "recent posts", previous/next) even as its text changes."""
    return [
        slot_key(dom_path(block.owner, paths)) if block.link_density > _SLOT_LINKS else ""
        for block in seg.blocks
    ]


@dataclass(frozen=True, slots=True)
class SiteTemplate:
    """What a host's statistics say about block keys, as handed to an extraction.

    Attributes:
        keys: template keys (on a large share of the host's pages).
        seen: other keys found on two pages or more: not template, not the page's own
            either (a qualifier repeated through an index, a title in two tables of
            contents); the page-own text kept beyond the chain leaves them out.
    """

    keys: frozenset[str] = frozenset()
    seen: frozenset[str] = frozenset()

    @property
    def known(self) -> bool:
        """True when there is a template: the host has been learnt."""
        return bool(self.keys)


NO_TEMPLATE = SiteTemplate()


def template_blocks(
    seg: Segmentation,
    keys: list[str],
    exact: list[str],
    template: SiteTemplate,
    title: str = "",
) -> tuple[set[int], set[int]]:
    """``(template, constant)`` block indexes of a page on a learnt host.

    A block is template when its key is (digit runs compared as one), unless its
    numbers are data (:func:`carries_data`) or it is the page's own heading
    (:func:`own_heading`), and its exact form is not template: the key repeats, the
    value varies per page. ``constant`` are the template blocks whose exact form repeats
    too (or that have no digits): the same on most pages, never the page's own.
    """
    found: set[int] = set()
    constant: set[int] = set()
    named = normalized(title, digits=True)
    for i, key in enumerate(keys):
        if key not in template.keys:
            continue
        if not exact[i] or exact[i] in template.keys:
            constant.add(i)
            found.add(i)
        elif not carries_data(seg.blocks[i]) and not own_heading(seg.blocks[i], named):
            found.add(i)
    return found, constant


@dataclass(frozen=True, slots=True)
class TemplateParams:
    """When a block is template, and the bounds of the statistics.

    Attributes:
        share: share of the host's pages (0–1) a block must be on.
        min_count: pages a block must be on at least.
        min_pages: pages of a host seen before any template is used; below it the
            per-page chain alone decides.
        max_keys: keys kept per host.
        window: pages after which a host's counts are halved.
        max_hosts: hosts held in memory.
    """

    share: float = 0.3
    min_count: int = 3
    min_pages: int = 6
    max_keys: int = 8000
    window: int = 1000
    max_hosts: int = 64


@dataclass(slots=True)
class HostStats:
    """Pages seen and per-key page counts of one host (see the module docstring).

    ``repeated`` indexes the keys counted on two pages or more (the only ones a template
    can hold), so that :meth:`template` does not walk the many keys seen once.
    """

    pages: float = 0.0
    counts: dict[str, float] = field(default_factory=dict)
    repeated: set[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.repeated = {k for k, c in self.counts.items() if c >= 2}

    def observe(self, keys: Iterable[str], params: TemplateParams) -> None:
        """Count one page's distinct ``keys``."""
        self.pages += 1
        counts = self.counts
        for key in list(dict.fromkeys(keys))[:_MAX_PAGE_KEYS]:
            count = counts[key] = counts.get(key, 0.0) + 1.0
            if count >= 2:
                self.repeated.add(key)
        if len(counts) > 2 * params.max_keys:
            # Most frequent first; of equal counts the most recent (a key seen once long
            # ago had its chance to recur, one just seen has not).
            recent_first = reversed(counts.items())
            kept = sorted(recent_first, key=lambda item: -item[1])[: params.max_keys]
            self.counts = dict(reversed(kept))
            self.repeated.intersection_update(self.counts)
        if self.pages >= 2 * params.window:
            self.pages /= 2
            self.counts = {k: c / 2 for k, c in self.counts.items() if c >= 2}
            self.__post_init__()

    def template(self, params: TemplateParams) -> SiteTemplate:
        """Keys on at least ``share`` of the pages and ``min_count`` pages, and the keys
        on two pages or more; :data:`NO_TEMPLATE` while fewer than ``min_pages`` pages
        were seen."""
        if self.pages < params.min_pages:
            return NO_TEMPLATE
        floor = max(float(params.min_count), params.share * self.pages)
        counts = self.counts
        walk = self.repeated if floor >= 2 else counts.keys()  # below 2: keys seen once too
        keys = frozenset(k for k in walk if counts[k] >= floor)
        seen = frozenset(k for k in walk if 2 <= counts[k] < floor)
        return SiteTemplate(keys, seen)

    def to_json(self) -> str:
        """The stored form: ``{"v": STATS_VERSION, "pages": float, "counts": {key: float}}``."""
        data = {"v": STATS_VERSION, "pages": self.pages, "counts": self.counts}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str) -> HostStats:
        """Read :meth:`to_json`'s form; unreadable data or another :data:`STATS_VERSION`
        gives empty statistics (the host is learnt again, nothing is lost but time)."""
        try:
            raw = json.loads(data)
            if raw.get("v") != STATS_VERSION:
                return cls()
            counts = {str(k): float(v) for k, v in raw["counts"].items()}
            return cls(float(raw["pages"]), counts)
        except (ValueError, KeyError, TypeError, AttributeError):
            return cls()


class TemplateStore(Protocol):
    """Where host statistics persist (the frontier implements it; so may other backends)."""

    def load_template_stats(self, host: str) -> str | None:
        """The stored statistics of ``host`` (``HostStats.to_json``), or None."""

    def save_template_stats(self, items: Iterable[tuple[str, str]]) -> None:
        """Store ``(host, statistics)`` pairs, replacing earlier ones."""


class MemoryTemplateStore:
    """A :class:`TemplateStore` in a dict (``indexer extract --site``, tests)."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def load_template_stats(self, host: str) -> str | None:
        """See :class:`TemplateStore`."""
        return self.data.get(host)

    def save_template_stats(self, items: Iterable[tuple[str, str]]) -> None:
        """See :class:`TemplateStore`."""
        self.data.update(items)


class TemplateLearner:
    """Per-host template statistics, read from and written back to a store.

    Args:
        store: where statistics persist.
        params: thresholds and bounds.
    """

    def __init__(self, store: TemplateStore, params: TemplateParams | None = None) -> None:
        self.store = store
        self.params = params or TemplateParams()
        self._hosts: OrderedDict[str, HostStats] = OrderedDict()
        self._dirty: set[str] = set()
        self._cache: dict[str, SiteTemplate] = {}

    def _stats(self, host: str) -> HostStats:
        stats = self._hosts.get(host)
        if stats is None:
            data = self.store.load_template_stats(host)
            stats = HostStats.from_json(data) if data else HostStats()
            self._hosts[host] = stats
            self._evict()
        self._hosts.move_to_end(host)
        return stats

    def _evict(self) -> None:
        while len(self._hosts) > self.params.max_hosts:
            host, stats = self._hosts.popitem(last=False)
            if host in self._dirty:
                self.store.save_template_stats([(host, stats.to_json())])
                self._dirty.discard(host)
            self._cache.pop(host, None)

    def template(self, host: str) -> SiteTemplate:
        """The host's template now (not ``known``: the per-page chain decides alone)."""
        known = self._cache.get(host)
        if known is None:
            known = self._stats(host).template(self.params)
            self._cache[host] = known
        return known

    def pages(self, host: str) -> float:
        """Pages the statistics of ``host`` count (halved once per window)."""
        return self._stats(host).pages

    def observe(self, host: str, keys: Iterable[str], *, sitewide_duplicate: bool = False) -> None:
        """Count one page of ``host``.

        A page caught as a site-wide duplicate (the same maintenance page on every URL)
        teaches nothing: were it counted, all its text would become template.
        """
        if sitewide_duplicate:
            return
        self._stats(host).observe(keys, self.params)
        self._dirty.add(host)
        self._cache.pop(host, None)

    def flush(self) -> None:
        """Write the statistics of every host changed since the last flush."""
        items = [(h, self._hosts[h].to_json()) for h in self._dirty if h in self._hosts]
        if items:
            self.store.save_template_stats(items)
        self._dirty.clear()
