"""Run the per-page chain on a page body, with the host's template when one is known.

Without a template this is the chain as it always was (:func:`indexer.extract.select.choose`).
With one, the chain runs twice over the same blocks: once as a single-page extractor,
once with the template's blocks made furniture (so that menus no longer hold the
content's neighbours apart and a short page's own lines are no longer outvoted by a
repeated notice). The result is the second run's content plus whatever the first run
kept that is not template (learning only ever removes repeated blocks, and never loses
text of the page's own that the per-page chain would have kept), plus the page's own
text inside its region (:mod:`indexer.extract.region`): with the template known, text
unique to the page is content even as a list, a table or a short notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from indexer.extract.article import article_blocks
from indexer.extract.blocks import block_values, mark_furniture
from indexer.extract.candidate import Candidate
from indexer.extract.explain import Decision, Trace, dom_path
from indexer.extract.extras import drop_extras
from indexer.extract.parse import prune
from indexer.extract.profile import DEFAULT_PROFILE, Profile
from indexer.extract.region import own_text, table_rows, term_labels
from indexer.extract.searchable import search_blocks
from indexer.extract.segment import Segmentation, segment
from indexer.extract.select import choose
from indexer.extract.tags import DROP_TAGS
from indexer.extract.template import (
    NO_TEMPLATE,
    SiteTemplate,
    block_keys,
    exact_keys,
    link_keys,
    slot_keys,
    template_blocks,
    title_keys,
)
from indexer.extract.text import node_text
from indexer.extract.values import carries_data


@dataclass(slots=True)
class ChainResult:
    """What the chain decided for one page.

    Attributes:
        text: the main content, one block per line.
        headings: heading blocks of the content.
        extractor: the chain step that chose it (``semantic``, ``dom``, ``blocks``,
            ``fallback``).
        keys: template keys of every block (:func:`indexer.extract.template.block_keys`),
            when asked for.
        decisions: every block and skipped element, kept or dropped, when asked for.
    """

    text: str
    headings: list[str]
    extractor: str
    keys: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


@dataclass(slots=True)
class _Choice:
    kept: tuple[int, ...]
    extractor: str
    trace: Trace
    template: set[int] = field(default_factory=set)
    unique: set[int] = field(default_factory=set)
    refused: set[int] = field(default_factory=set)
    widened: set[int] = field(default_factory=set)
    heads: set[int] = field(default_factory=set)
    # The chain alone's choice and refusals, and the blocks refused only as naming
    # another page (:func:`_naming`): a link-list page's entries the chain alone keeps.
    alone: tuple[int, ...] = ()
    alone_refused: set[int] = field(default_factory=set)
    named: set[int] = field(default_factory=set)


_REFUSED = frozenset({"comments", "repeat"})
# A block with more link text than this share is a link line.
_LINK_LINE = 0.5
# Blocks of a teaser card at most: its headline, its lead, a date or a "more" link.
_CARD_BLOCKS = 3


def _with_template(
    seg: Segmentation,
    root: etree._Element,
    title: str,
    keys: list[str],
    exact: list[str],
    slots: list[str],
    titles: tuple[list[str], list[str]],
    template: SiteTemplate,
) -> _Choice:
    trace = Trace()
    alone = choose(seg, root, title, trace)
    if not template.known:
        return _Choice(alone.indexes, alone.extractor, trace, refused=_refused(trace))
    repeated, constant = template_blocks(seg, keys, exact, template, title)
    navigation, named = _navigation(seg, keys, exact, slots, titles, template)
    repeated |= _teasers(seg, keys, template, navigation, repeated)
    markup = {i for i, block in enumerate(seg.blocks) if block.furniture}
    for index in repeated:
        seg.blocks[index].furniture = True
    learned_trace = Trace()
    learned: Candidate = choose(seg, root, title, learned_trace)
    refused = _refused(learned_trace) | navigation | _refused(trace)
    # The fallback keeps every block when all are template (pages that differ only in a
    # number); those the same on most pages go all the same (a footer).
    chosen = set(learned.indexes) - constant or set(learned.indexes)
    base = sorted(chosen | (set(alone.indexes) - repeated))
    values = block_values(seg.blocks)
    own = own_text(seg, base, repeated, markup, values, refused)
    kept = term_labels(seg, table_rows(seg, own, repeated), repeated)
    unique = set(kept) - set(learned.indexes)
    choice = _Choice(kept, learned.extractor, learned_trace, repeated, unique, refused)
    choice.heads = set(kept) - set(own)
    choice.alone = tuple(i for i in alone.indexes if i not in repeated)
    choice.alone_refused = _refused(trace)
    choice.named = named
    return choice


def _refused(trace: Trace) -> set[int]:
    """Blocks a chain step dropped for good reasons (comments, repeats)."""
    return {i for i, why in trace.dropped.items() if why in _REFUSED}


def _navigation(
    seg: Segmentation,
    keys: list[str],
    exact: list[str],
    slots: list[str],
    titles: tuple[list[str], list[str]],
    template: SiteTemplate,
) -> tuple[set[int], set[int]]:
    """``(navigation, named)``: the blocks that are not the page's own though not
    template (:func:`_not_own`, :func:`_naming`; a value of its own is), and those of
    them kept where the chain alone keeps them (``named``)."""
    linked, named = _naming(seg, slots, titles, template)
    navigation = _not_own(seg, keys, template) | linked
    named -= navigation
    navigation |= named
    navigation -= _varying_values(seg, exact, template)
    return navigation, named & navigation


def _varying_values(seg: Segmentation, exact: list[str], t: SiteTemplate) -> set[int]:
    """Blocks whose numbers are data (:func:`~indexer.extract.values.carries_data`) and
    whose exact form is not template: each page's own (a price, a table row), even when a
    few other pages show the same value (not refused as ``seen``)."""
    return {
        i
        for i, key in enumerate(exact)
        if key and key not in t.keys and carries_data(seg.blocks[i])
    }


def _teasers(
    seg: Segmentation, keys: list[str], t: SiteTemplate, navigation: set[int], repeated: set[int]
) -> set[int]:
    """The text of teaser cards ("related articles": a linked headline naming another page
    and its lead, different cards on each page): blocks of a card (a box of at most
    ``_CARD_BLOCKS`` blocks holding a navigation link line) seen on other pages, or in a
    box under a template heading ("あわせて読みたい"). A listing page's entries (under its
    own heading) stay its content."""
    found: set[int] = set()
    for i, key in enumerate(keys):
        card = seg.blocks[i].owner.getparent()
        if card is None or card not in seg.spans:
            continue
        first, end = seg.spans[card]
        if end - first > _CARD_BLOCKS:
            continue
        links = (j for j in range(first, end) if j != i and j in navigation)
        if not any(seg.blocks[j].link_density > _LINK_LINE for j in links):
            continue
        if key in t.seen or _under_template(seg, card, repeated):
            found.add(i)
    return found


def _under_template(seg: Segmentation, card: etree._Element, repeated: set[int]) -> bool:
    """True when a template heading opens the box holding ``card``: a heading among the
    card's earlier siblings ("あわせて読みたい" over its cards; not a heading elsewhere in
    the article around a photo box)."""
    for sibling in card.itersiblings(preceding=True):
        span = seg.spans.get(sibling)
        if span and any(seg.blocks[j].heading and j in repeated for j in range(*span)):
            return True
    return False


def _not_own(seg: Segmentation, keys: list[str], t: SiteTemplate) -> set[int]:
    """Blocks that are not the page's own though not template: seen on other pages."""
    return {i for i, key in enumerate(keys) if key in t.seen}


def _naming(
    seg: Segmentation, slots: list[str], titles: tuple[list[str], list[str]], t: SiteTemplate
) -> tuple[set[int], set[int]]:
    """``(linked, named)``: link lines and linked entries whose text is a link seen on
    other pages (another table of contents lists them too), and the other link lines in
    a navigation slot or naming another page of the host (their text is a title seen
    there: a portal's entries) (:mod:`indexer.extract.template`). Neither is the page's
    own; ``named`` blocks stay where the chain alone keeps them."""
    names, links = titles
    linked = {i for i, key in enumerate(links) if key and (key in t.seen or key in t.keys)}
    named = {i for i, key in enumerate(slots) if key and key in t.keys}
    for i, key in enumerate(names):
        if key and seg.blocks[i].link_chars > 0 and (key in t.seen or key in t.keys):
            named.add(i)
    return linked, named - linked


def run_chain(
    body: etree._Element,
    root: etree._Element,
    title: str,
    *,
    template: SiteTemplate = NO_TEMPLATE,
    learn: bool = False,
    explain: bool = False,
    profile: Profile = DEFAULT_PROFILE,
) -> ChainResult:
    """Segment ``body`` (pruned in place), choose its main content, explain if asked.

    Args:
        body: the page's ``<body>``; modified. root: the document root (semantic markup).
        title: the page title (the content is anchored at a heading repeating it).
        template: the host's template; not ``known``: the per-page chain alone.
        learn: return the blocks' keys, for the host's statistics.
        explain: return a :class:`~indexer.extract.explain.Decision` per block.
        profile: ``search`` widens the choice over its content region
            (:mod:`indexer.extract.searchable`); ``precision`` keeps the article of the
            chain's choice (:mod:`indexer.extract.article`).
    """
    prune(body, DROP_TAGS)
    seg = segment(body)
    mark_furniture(seg)
    paths: dict[etree._Element, str] = {}
    keyed = learn or template.known
    keys = block_keys(seg, paths) if keyed else []
    exact = exact_keys(seg, paths) if keyed else []
    slots = slot_keys(seg, paths) if keyed else []
    titles = title_keys(seg) if keyed else []
    links = link_keys(seg) if keyed else []
    choice = _with_template(seg, root, title, keys, exact, slots, (titles, links), template)
    _apply_profile(seg, choice, title, profile)
    choice.kept, extras = drop_extras(seg, choice.kept)
    choice.trace.dropped.update(extras)
    text, headings = _text_of(seg, choice.kept)
    decisions = _decisions(seg, choice, paths) if explain else []
    learnt = keys + [key for key in exact + slots + titles + links if key] if learn else []
    return ChainResult(text, headings, choice.extractor, learnt, decisions)


def _text_of(seg: Segmentation, kept: Sequence[int]) -> tuple[str, list[str]]:
    """The kept blocks' text (one line each) and their headings."""
    headings = [seg.blocks[i].text for i in kept if seg.blocks[i].heading]
    return "\n".join(seg.blocks[i].text for i in kept), headings


def _apply_profile(seg: Segmentation, choice: _Choice, title: str, profile: Profile) -> None:
    """``search``: the content region widens the choice; ``precision``: its article, or a
    link-list page's entries (in place)."""
    listing_only = profile != "search"
    if listing_only:
        choice.kept = article_blocks(seg, choice.kept, title)
    _widen(seg, choice, title, listing_only)
    if choice.named:
        _as_alone(seg, choice, title, listing_only)


def _as_alone(seg: Segmentation, choice: _Choice, title: str, listing_only: bool) -> None:
    """Add (in place) the blocks the chain alone's widening keeps that were refused only
    as naming another page: a portal's or an index page's entries, links to the host's
    pages (not template, not in a navigation slot), stay as the chain keeps them."""
    alone = choice.alone
    if listing_only:
        alone = article_blocks(seg, alone, title)
    refused = choice.alone_refused | (choice.refused - choice.named)
    back = set(search_blocks(seg, alone, title, refused, listing_only)) & choice.named
    added = back - set(choice.kept) - choice.template
    choice.widened |= added
    choice.kept = tuple(sorted(set(choice.kept) | added))


def _widen(seg: Segmentation, choice: _Choice, title: str, listing_only: bool = False) -> None:
    """The content region added to ``choice`` (in place): the ``search`` profile's, or
    with ``listing_only`` (``precision``) only a link-list page's entries.

    For ``search``, blocks the chain dropped as repeats of its content are taken back: a
    second copy costs a search nothing, and it may be the one the reader sees.
    """
    repeats = set()
    if not listing_only:
        repeats = {i for i, why in choice.trace.dropped.items() if why == "repeat"}
    refused = choice.refused - repeats
    widened = search_blocks(seg, choice.kept, title, refused, listing_only)
    kept = tuple(sorted(set(widened) | repeats))
    choice.widened = set(kept) - set(choice.kept)
    choice.kept = kept


def _reason(seg: Segmentation, choice: _Choice, index: int, kept: set[int]) -> Decision:
    block = seg.blocks[index]
    if index in kept:
        if index in choice.widened:
            reason = "search-region"
        elif index in choice.heads:
            reason = "label"
        elif index in choice.unique:
            reason = "unique"
        else:
            reason = choice.trace.added.get(index, choice.extractor)
        return Decision("kept", reason, "", block.text)
    if index in choice.template:
        reason = "template"
    else:
        default = "furniture" if block.furniture else "outside-main"
        reason = choice.trace.dropped.get(index, default)
    return Decision("dropped", reason, "", block.text)


def _decisions(
    seg: Segmentation, choice: _Choice, paths: dict[etree._Element, str]
) -> list[Decision]:
    """Blocks and skipped elements in document order, each with its decision."""
    kept = set(choice.kept)
    skipped = sorted(seg.skipped, key=lambda item: item[0])
    out: list[Decision] = []
    position = 0
    for index, block in enumerate(seg.blocks):
        while position < len(skipped) and skipped[position][0] <= index:
            out.extend(_skipped(skipped[position][1], skipped[position][2], paths))
            position += 1
        decision = _reason(seg, choice, index, kept)
        path = dom_path(block.owner, paths)
        out.append(Decision(decision.action, decision.reason, path, decision.text))
    for _, node, why in skipped[position:]:
        out.extend(_skipped(node, why, paths))
    return out


def _skipped(node: etree._Element, why: str, paths: dict[etree._Element, str]) -> list[Decision]:
    text = node_text(node)
    return [Decision("dropped", why, dom_path(node, paths), text)] if text else []
