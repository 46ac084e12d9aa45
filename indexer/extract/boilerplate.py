"""Recognise page furniture (navigation, sidebars, comments, share bars) by markup alone."""

from __future__ import annotations

import functools
import re
import unicodedata

from lxml import etree

from indexer.extract.tags import BOILERPLATE_TAGS

# class/id words naming furniture, matched anywhere in the lower-cased attribute (as
# Readability's "unlikelyCandidates" does) — long words only, to avoid false hits.
_FURNITURE_WORDS = re.compile(
    r"sidebar|side-bar|side_bar|sidemenu|sidenav|footer|breadcrumb|topicpath|pankuzu|"
    r"comment|trackback|ranking|share|social|sharing|"
    r"pagination|pager|paging|banner|advert|sponsor|promo|widget|navbar|navigation|"
    r"globalnav|gnavi|menu|masthead|subscribe|newsletter|cookie|consent|popup|modal|"
    r"skip-link|skiplink|toolbar|byline|copyright|disqus|outbrain|taboola"
)
# Short words that must stand alone as a class/id token (``ad``, ``nav``, ``tags``).
_FURNITURE_TOKENS = frozenset(
    {
        "ad", "ads", "adv", "nav", "navi", "gnav", "side", "sns", "tag", "tags", "header",
        "head", "foot", "bread", "crumbs", "categories", "category", "archive", "archives",
        "meta", "date", "author", "print", "hidden", "hide", "pr", "rss", "login", "search",
    }
)  # fmt: skip
# A class/id token naming a box of other entries ("relatedposts", "yarpp-related",
# "kanren-t", "recommend-list"), alone or before a token of :data:`_BOX_PARTS`:
# "related-work", "related-topics", "recommendations", "recommended-actions",
# "public-relations" name the page's own sections.
_BOX_WORD = re.compile(
    r"^(?:related|relation|recommend|recommended|yarpp|kanren|osusume)"
    r"(?:posts?|entries|entry|articles?|stories|links?|items?|products?|news|videos?|box|list"
    r"|area|widget|wrap|block|kiji|contents?|title|ttl|heading|header)*$"
)
_BOX_PARTS = frozenset(
    {
        "post", "posts", "entry", "entries", "article", "articles", "story", "stories",
        "link", "links", "item", "items", "product", "products", "news", "video", "videos",
        "box", "list", "area", "widget", "wrap", "wrapper", "block", "kiji", "content",
        "contents", "inner", "outer", "container", "type", "title", "ttl", "heading",
        "header", "t",
    }
)  # fmt: skip
# A whole class/id name, separators removed, naming such a box ("read-next",
# "more-from-author", "more-news", "popular-posts", "you-may-also-like").
_BOX_NAME = re.compile(
    r"^(?:readnext|morefrom\w*|more(?:news|posts?|stories|articles?|entries)"
    r"|popular(?:posts?|articles?|entries|stories)|youmay(?:also)?like"
    r"|alsolike|ninki(?:kiji|posts?|entry)?)$"
)
_NAME_SEPARATORS = re.compile(r"[_\-:.]+")
# Words that say "this is the content": they veto a furniture match (Readability's
# "okMaybeItsACandidate").
_CONTENT_WORDS = re.compile(r"article|entry|main|content|body|post|story|text|honbun|kiji")
_TOKEN_SPLIT = re.compile(r"[\s_\-:.]+")
# An id of this many words or more is made from a heading's text (Docutils, Sphinx, Hugo,
# GitHub anchors): it says what the section is about, not what kind of box it is.
_SLUG_WORDS = 4
_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menu"})


def is_furniture(element: etree._Element) -> bool:
    """Return True when ``element`` is page furniture judged by tag, role or class/id.

    Tags: ``nav``, ``aside``, ``footer``, ``header``, ``form``, ``menu``; ARIA landmark
    roles navigation/banner/contentinfo/complementary/search (WAI-ARIA 1.2 §5.3.4);
    class/id words as in Mozilla Readability, vetoed by content words; an id naming a box
    of other entries (:func:`names_box_of_entries`) that is the slug of the section's own
    heading (:func:`_heading_slug`: ``<section id="related"><h2>Related</h2>``) does not
    count.
    """
    if element.tag in BOILERPLATE_TAGS:
        return True
    get = element.get
    id_ = get("id")
    if not _furniture_names(get("class"), id_, get("role")):
        return False
    if id_ and names_box_of_entries(id_.lower()) and _heading_slug(element, id_):
        return _furniture_names(get("class"), None, get("role"))
    return True


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _heading_slug(element: etree._Element, id_: str) -> bool:
    """True when ``id_`` is the slug of the section's own heading (its first child element,
    an ``h1``–``h6``, as Sphinx and Docutils make section ids): :func:`is_heading_slug`."""
    first = next((child for child in element if isinstance(child.tag, str)), None)
    if first is None or first.tag not in _HEADINGS:
        return False
    return is_heading_slug(id_, "".join(map(str, first.itertext())))


def is_heading_slug(id_: str, heading: str) -> bool:
    """True when the id ``id_`` is made from the text ``heading`` (a heading's), as site
    generators make anchors (Docutils, Sphinx, Hugo, GitHub): :data:`_SLUG_WORDS` tokens
    or more, or every token of two characters or more found in the heading's text (NFKC,
    lower case: ``_related_work`` for "Related work"). Such an id says what the section
    is about, not what kind of box it is."""
    tokens = [t for t in _TOKEN_SPLIT.split(id_.lower()) if t]
    if len(tokens) >= _SLUG_WORDS:
        return True
    text = unicodedata.normalize("NFKC", heading).lower()
    return bool(tokens) and all(t in text for t in tokens if len(t) > 1)


@functools.lru_cache(maxsize=4096)
def _furniture_names(class_: str | None, id_: str | None, role: str | None) -> bool:
    """Judge class, id and role values (pages repeat the same few, hence the cache)."""
    if role and role.lower() in _ROLES:
        return True
    if id_ and len(_TOKEN_SPLIT.split(id_.strip())) >= _SLUG_WORDS:
        id_ = None  # a heading's slug ("sharing-with-a-single-developer") names a section
    if not class_ and not id_:
        return False
    names = f"{class_ or ''} {id_ or ''}".lower()
    if _CONTENT_WORDS.search(names):
        return False
    if _FURNITURE_WORDS.search(names):
        return True
    if any(names_box_of_entries(name) for name in names.split()):
        return True
    return any(token in _FURNITURE_TOKENS for token in _TOKEN_SPLIT.split(names))


def names_box_of_entries(name: str) -> bool:
    """True when one class or id ``name`` (lower case) names a box of other entries: a
    :data:`_BOX_WORD` token that ends it or comes before a :data:`_BOX_PARTS` token
    (``st-related-posts``, ``yarpp-related``), or the whole name is a :data:`_BOX_NAME`
    (``read-next``)."""
    if _BOX_NAME.match(_NAME_SEPARATORS.sub("", name)):
        return True
    tokens = [t for t in _TOKEN_SPLIT.split(name) if t]
    return any(
        _BOX_WORD.match(token) and (i + 1 == len(tokens) or tokens[i + 1] in _BOX_PARTS)
        for i, token in enumerate(tokens)
    )


# Whole class/id names that leave no doubt (unlike "side-by-side" or "widget-wrap").
_STRONG_NAMES = frozenset(
    {
        "comment", "comments", "sidebar", "side", "footer", "nav", "navi", "navigation",
        "menu", "breadcrumb", "breadcrumbs", "related", "share", "social", "sns", "ad",
        "ads", "advertisement", "banner", "pager", "pagination", "trackback", "trackbacks",
    }
)  # fmt: skip
_STRONG_TAGS = frozenset({"nav", "aside", "footer"})


def is_strong_furniture(element: etree._Element) -> bool:
    """True when furniture markup is unambiguous: ``nav``/``aside``/``footer``, a landmark
    role, or a whole class/id name such as ``comments`` or ``sidebar``."""
    if element.tag in _STRONG_TAGS:
        return True
    role = element.get("role")
    if role and role.lower() in _ROLES:
        return True
    names = f"{element.get('class', '')} {element.get('id', '')}".lower().split()
    return any(name in _STRONG_NAMES for name in names)


def is_hidden(element: etree._Element) -> bool:
    """Return True for elements a browser would not render (``hidden``, ``display:none``)."""
    attrib = element.attrib
    if "hidden" in attrib or attrib.get("aria-hidden") == "true":
        return True
    style = attrib.get("style")
    if style is None:
        return False
    style = style.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style
