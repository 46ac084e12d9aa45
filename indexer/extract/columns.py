"""Teasers of other entries, news columns and related boxes: other pages' text beside this one.

An entry page often ends with the start of another entry ("Parking permits renewed / All
permits for the north lot were renewed this week… Read more"), and a table layout puts a
column of dated headlines ("新着情報 / 2024.05.01 社内報5月号を掲載しました / …") beside
the page's own text. Neither is the page's text: each is another page's, and a search for
its words should find that page, not this one. They are known by their kind:

- a *teaser* is a block whose text is cut short (it ends in an ellipsis) and then offers
  the rest by a link ("Read more", "Continue reading", "続きを読む", "続きはこちら" …): a
  page's own paragraph is never cut off mid-sentence with a link to another page. It
  stands after all of the content's other prose, in a container of its own (a paragraph
  of the article folded behind "続きを読む" is the article's). The heading just before
  it, in the same container, is the teased entry's title and goes with it;
- a *news column* is a block or a run of list entries, before or after the content's
  prose (:mod:`indexer.extract.zones`) and in a column of its own (a table cell or an
  ``<aside>`` holding none of that prose: a schedule or a changelog under the article's
  text is the article's), made of at least :data:`_MIN_ITEMS` lines that each open with a
  date and hold a headline (short, no running sentences), optionally under a short label
  line ("新着情報", "What's new");
- a *box of related entries* opens with a title after some of the content's prose, in a
  container holding none of that prose, and links to the entries it offers: the title is
  named so by its class or id or its container's class ("relatedposts", "yarpp",
  "read-next", "more-news"; not an id that is the heading's slug, such as
  ``_related_work``), or is a heading worded so ("Related posts", "関連記事"); the title
  and everything after it in that container go, however much text the entries' excerpts
  hold (a site's "You may also like..." under every entry).

A page made of teasers or news (a list of teasers, a news archive) keeps them: the share
rule of :mod:`indexer.extract.extras` applies.
"""

from __future__ import annotations

import re

from lxml import etree

from indexer.extract.boilerplate import is_heading_slug, names_box_of_entries
from indexer.extract.datelines import DATE
from indexer.extract.segment import Block
from indexer.extract.zones import Zones, folded, is_prose

# The offer of the rest, as a link's text (NFKC, lower case), with optional brackets.
_MORE = re.compile(
    r"^[\[(<«【〔\s]*(?:read\s+(?:the\s+)?(?:more|rest|full\s+(?:story|article|post))"
    r"|continue(?:\s+reading|\s*[»›→>])|more|full\s+story|keep\s+reading|read\s+on"
    r"|続きを読む|続きはこちら|続きを見る|もっと読む|もっと見る|全文を読む|全文を表示|全文はこちら"
    r"|詳しくはこちら|詳細はこちら|続き)"
    r"[\s»>›→)\]】〕.…]*$"
)
_FILE = re.compile(r"\.(?:pdf|docx?|xlsx?|pptx?|csv|txt|zip|odt|ods|rtf)(?:[?#]|$)")
_ELLIPSIS = re.compile(r"(?:\.{3}|…|‥|・・・)\s*[\[(<«【〔]?\s*$")
# A news column: this many dated lines at least; a headline at most this long.
_MIN_ITEMS = 3
_MAX_HEADLINE = 80
_MAX_LABEL = 20
_MAX_TEASERS = 2
_TEASER_SHARE = 0.5
_COLUMN_TAGS = frozenset({"td", "th", "aside"})
_DATED = re.compile(rf"^[\s\[(【〔■・●◆]*(?:{DATE.pattern})[\s\])】〕]*[:：|｜\-–]?\s*\S")


def is_teaser(block: Block) -> bool:
    """True when ``block``'s text is cut short by an ellipsis and its last link, to
    another page (not a ``#`` fragment or a script), offers the rest ("Read more")."""
    more = _more_link(block)
    if more is None:
        return False
    text = block.text.strip()
    head = text[: len(text) - len(more)] if text.endswith(more) else text
    return _ELLIPSIS.search(folded(head)) is not None


def _more_link(block: Block) -> str | None:
    """The text of ``block``'s last link when it offers the rest of another page, or None."""
    links = [a for a in block.owner.iter("a") if a.get("href")]
    if not links:
        return None
    href = str(links[-1].get("href", "")).strip().lower()
    if href.startswith(("#", "javascript:")) or _FILE.search(href):
        return None  # the rest of this page, or a document of its own: not another entry
    more = "".join(map(str, links[-1].itertext())).strip()
    return more if more and _MORE.match(folded(more)) else None


def _cut_before_more(zones: Zones, index: int) -> int | None:
    """The block of the more link that follows block ``index`` on its own (a paragraph
    cut by an ellipsis, then ``<p><a>Read more</a></p>`` in the same container; kept or
    not, as a lone link often is not), or None."""
    blocks = zones.seg.blocks
    if index + 1 >= len(blocks):
        return None
    block, after = blocks[index], blocks[index + 1]
    if after.owner.getparent() is not block.owner.getparent():
        return None
    more = _more_link(after)
    if more is None or after.text.strip() != more:
        return None
    return index + 1 if _ELLIPSIS.search(folded(block.text.strip())) else None


def _previous(zones: Zones, index: int) -> int | None:
    """The kept block just before block ``index``, or None for the first."""
    position = zones.kept.index(index)
    return zones.kept[position - 1] if position else None


def _title_of(zones: Zones, index: int) -> int | None:
    """The kept heading just before block ``index`` in the same container, or None."""
    before = _previous(zones, index)
    if before is None:
        return None
    heading, block = zones.seg.blocks[before], zones.seg.blocks[index]
    if not heading.heading or heading.owner.getparent() is not block.owner.getparent():
        return None
    return before


def _headline(line: str) -> bool:
    """True for one news-column line: a date, then a short headline."""
    return len(line) <= _MAX_HEADLINE and _DATED.match(folded(line)) is not None


def _column_block(block: Block) -> bool:
    """True for one block holding a whole news column (its lines split at ``<br>``)."""
    lines = [line.strip() for line in block.text.split("\n") if line.strip()]
    if lines and not _headline(lines[0]) and len(lines[0]) <= _MAX_LABEL:
        lines = lines[1:]  # its label
    return len(lines) >= _MIN_ITEMS and all(_headline(line) for line in lines)


def teaser_blocks(zones: Zones) -> set[int]:
    """Kept teaser blocks and their titles (module docstring): only after all of the
    content's other prose, in a container of their own (a paragraph of the article that
    is folded behind "続きを読む" is the article's), linking to another page, at most
    :data:`_MAX_TEASERS` of them and lighter than :data:`_TEASER_SHARE` of the rest (a page
    of teasers is a listing: its teasers are its content)."""
    blocks = zones.seg.blocks
    teasers = [i for i in zones.kept if is_teaser(blocks[i])]
    links = {i: more for i in zones.kept if (more := _cut_before_more(zones, i)) is not None}
    teasers = sorted({*teasers, *links})
    if not teasers or len(teasers) > _MAX_TEASERS:
        return set()
    prose = [i for i in zones.kept if i not in teasers and is_prose(blocks[i])]
    prose = [i for i in prose if i not in links.values()]
    if not prose or teasers[0] < prose[-1]:
        return set()
    owners = [blocks[i].owner for i in prose]
    if any(_holds(blocks[i].owner.getparent(), owners) for i in teasers):
        return set()
    if zones.body_weight(teasers) > _TEASER_SHARE * zones.body_weight(prose):
        return set()
    found = {*teasers, *(i for i in links.values() if i in zones.kept)}
    for index in teasers:
        title = _title_of(zones, index)
        if title is not None:
            found.add(title)
    return found


def _holds(container: etree._Element | None, owners: list[etree._Element]) -> bool:
    """True when ``container`` is or holds one of ``owners``."""
    if container is None:
        return True
    return any(owner is container or container in owner.iterancestors() for owner in owners)


def column_blocks(zones: Zones) -> set[int]:
    """Kept blocks of news columns: a block that is a whole column, or a run of at least
    :data:`_MIN_ITEMS` dated headline entries, before or after the content's prose and in
    a column of their own (a table cell or an ``<aside>`` that holds none of the prose: a
    schedule or a changelog under the article's own text is the article's), each with a
    short label just before it."""
    blocks = zones.seg.blocks
    prose = [blocks[i].owner for i in zones.kept if is_prose(blocks[i])]
    found: set[int] = set()
    run: list[int] = []  # consecutive dated entries
    for index in zones.kept:
        block = blocks[index]
        apart = zones.outside(index) and _apart(block, prose)
        if apart and _entry(block):
            run.append(index)
            continue
        _take_run(zones, run, found, prose)
        run = []
        if apart and _column_block(block):
            found.add(index)
            _take_label(zones, index, found, prose)
    _take_run(zones, run, found, prose)
    return found


def _take_run(zones: Zones, run: list[int], found: set[int], prose: list[etree._Element]) -> None:
    """Add a run of dated entries and its label when it is long enough for a column."""
    if len(run) >= _MIN_ITEMS:
        found.update(run)
        _take_label(zones, run[0], found, prose)


def _apart(block: Block, prose: list[etree._Element]) -> bool:
    """True when ``block`` stands in a column of its own: its nearest table cell or
    ``<aside>`` holds none of the content's prose."""
    for ancestor in (block.owner, *block.owner.iterancestors()):
        if ancestor.tag in _COLUMN_TAGS:
            return not _holds(ancestor, prose)
    return False


def _entry(block: Block) -> bool:
    """True for one dated headline standing alone (a list entry or a paragraph)."""
    text = block.text.strip()
    return not block.heading and "\n" not in text and _headline(text)


def _take_label(zones: Zones, index: int, found: set[int], prose: list[etree._Element]) -> None:
    """Add the short label block (or heading) just before ``index`` in its column, when
    there is one."""
    before = _previous(zones, index)
    if before is None:
        return
    label = zones.seg.blocks[before]
    text = label.text.strip()
    short = len(text) <= _MAX_LABEL and not _headline(text)
    if zones.outside(before) and short and _apart(label, prose):
        found.add(before)


# A heading's whole wording naming such a box (NFKC, lower case, end punctuation off).
_RELATED_WORDING = re.compile(
    r"^(?:related (?:posts?|articles?|stories|entries)"
    r"|you (?:may|might|will) (?:also )?(?:like|enjoy|be interested in)(?: these)?"
    r"|read next|more from .{1,40}|more (?:stories|articles|posts)"
    r"|popular (?:posts|articles|stories|entries)|most (?:read|viewed)(?: articles| stories)?"
    r"|recommended (?:for you|posts|articles)|recent (?:posts|entries|articles)"
    r"|関連(?:する)?(?:記事|エントリー?|投稿)(?:一覧)?|(?:お|オ)(?:すすめ|ススメ)(?:の)?記事"
    r"|こちらの記事も(?:お|オ)(?:すすめ|ススメ)|(?:あわ|合わ)せて読みたい(?:記事)?"
    r"|人気(?:の)?記事(?:ランキング)?|よく読まれている記事|この記事を読んだ人は.{0,30}"
    r"|最近の投稿|新着記事)$"
)
_WORDING_END = re.compile(r"[\s.…:：!！?？]+$")
# A title that is not an ``h1``–``h6`` (``<div class="related-title">``): at most this
# many characters on one line.
_MAX_TITLE = 40
# A box named only by its heading's wording holds at least this many linked blocks after
# it (the entries it offers).
_MIN_ENTRIES = 2


def related_blocks(zones: Zones) -> set[int]:
    """Kept blocks of a box of other entries: a title (a heading, or a short line of its
    own) naming one after some of the content's prose, and every block after it in the
    title's container, when that container holds none of the prose before the title (the
    box is a container of its own, not the article's last section). The title names the
    box by its class or id or its container's (:func:`_names_related`: "relatedposts",
    "read-next") and the box links to one entry or more, or, for a heading, by its whole
    wording (:data:`_RELATED_WORDING`: "Related posts", "You may also like", "関連記事",
    "あわせて読みたい") and :data:`_MIN_ENTRIES` blocks or more after it link to entries (a
    section of the page's own, "Related" or "Recommended reading" with paragraphs or
    citations, links to none)."""
    blocks, kept = zones.seg.blocks, set(zones.kept)
    prose: list[etree._Element] = []
    for index, block in enumerate(blocks):  # the title may be dropped already (its class)
        named = _names_related(block) if _title_like(block) else False
        if not named and not _worded_related(block):
            if index in kept and is_prose(block):
                prose.append(block.owner)
            continue
        box = block.owner.getparent()
        if not prose or box is None or _holds(box, prose):
            continue
        inside = [i for i in range(index, len(blocks)) if _within(blocks[i].owner, box)]
        linked = sum(1 for i in inside[1:] if blocks[i].link_chars)  # kept or not (link lines)
        if linked >= (1 if named else _MIN_ENTRIES):
            return kept.intersection(inside)
    return set()


def _title_like(block: Block) -> bool:
    """A heading, or a short line of its own that is not prose."""
    text = block.text.strip()
    short = len(text) <= _MAX_TITLE and "\n" not in text
    return block.heading or (short and not is_prose(block))


def _worded_related(block: Block) -> bool:
    """A heading whose whole wording names a box of other entries (:data:`_RELATED_WORDING`)."""
    wording = _WORDING_END.sub("", folded(block.text.strip()))
    return block.heading and _RELATED_WORDING.match(wording) is not None


def _names_related(title: Block) -> bool:
    """True when the title's class, or its id unless that is the title's own slug
    (:func:`boilerplate.is_heading_slug`: ``_related_work``, ``q-recommended-browser``),
    or its container's class, names a box of other entries
    (:func:`boilerplate.names_box_of_entries`)."""
    owner = title.owner
    names = str(owner.get("class", "")).lower().split()
    id_name = str(owner.get("id", "")).lower()
    if id_name and not is_heading_slug(id_name, title.text):
        names.append(id_name)
    box = owner.getparent()
    if box is not None:
        names += str(box.get("class", "")).lower().split()
    return any(names_box_of_entries(name) for name in names)


def _within(element: etree._Element, container: etree._Element) -> bool:
    return element is container or container in element.iterancestors()
