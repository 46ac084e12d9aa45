"""The three published Japanese main-content extractors this project grew from, as baselines.

Each is written here from its published description only (no code was read or copied), with
its constants fixed before any run on the corpora; they are measuring sticks for
``scripts/eval_extraction.py``, never part of the product. All take decoded HTML text and
return plain text ("" when they find nothing).

- :func:`blog_body`: the blog-entry body extractor (2006): split the HTML at every ``<td>`` and
  ``<div>`` start tag and keep the longest piece whose markup is under 10 % of its bytes and
  whose text is over 100 bytes.
- :func:`dom_score`: the DOM scorer: breadth-first over the element tree, keep the node that
  maximises ``(text length)^(3/4) · depth / √(2 · children)``.
- :func:`extract_content`: HTML::ExtractContent's block scoring (Nakatani's Ruby ExtractContent,
  ported to Perl): blocks between ``<div>``/``<td>``/``<center>`` tags scored by their text outside
  links plus a bonus per Japanese punctuation mark, the score decaying down the page; adjacent
  blocks clustered (a weak block stays in a cluster when the block before it was strong);
  the best-scoring cluster is the body.
"""

from __future__ import annotations

import html as html_lib
import math
import re
from collections import deque

import lxml.html

_DROP = re.compile(
    r"<(script|style|noscript|textarea|select)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL
)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"[ \t\r\f\v\u3000]+")
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*>")  # lxml refuses str input that declares an encoding


def _clean(html: str) -> str:
    """``html`` without scripts, styles, form controls and comments (never text)."""
    return _DROP.sub(" ", html)


def _plain(fragment: str) -> str:
    """Text of an HTML fragment: tags become line breaks, entities decoded, spaces collapsed."""
    text = html_lib.unescape(_TAG.sub("\n", fragment))
    lines = (_SPACE.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


# -- the blog-body extractor ----------------------------------------------------------------

_BLOG_SPLIT = re.compile(r"<(?:td|div)\b[^>]*>", re.IGNORECASE)
BLOG_MAX_TAG_SHARE = 0.10  # markup bytes / piece bytes, from the description
BLOG_MIN_TEXT_BYTES = 100  # text bytes (UTF-8), from the description


def blog_body(html: str) -> str:
    """Longest ``<td>``/``<div>`` piece with < 10 % markup bytes and > 100 text bytes.

    Bytes are counted in UTF-8 (the original counted the page's own bytes with ``strlen``).
    Returns the piece's text, or "" when no piece qualifies.
    """
    best, best_bytes = "", 0
    for piece in _BLOG_SPLIT.split(_clean(html)):
        size = len(piece.encode("utf-8"))
        markup = sum(len(m.group().encode("utf-8")) for m in _TAG.finditer(piece))
        text = _plain(piece)
        if not size or markup / size >= BLOG_MAX_TAG_SHARE:
            continue
        if len(text.encode("utf-8")) > BLOG_MIN_TEXT_BYTES and size > best_bytes:
            best, best_bytes = text, size
    return best


# -- the DOM scorer -------------------------------------------------------------------------

_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "textarea", "select"})


def _chars(text: str | None) -> int:
    return len("".join(text.split())) if text else 0


def _text_lengths(root: lxml.html.HtmlElement) -> dict[lxml.html.HtmlElement, int]:
    """Characters of visible text under each element (white space excluded), bottom-up."""
    lengths: dict[lxml.html.HtmlElement, int] = {}
    for el in reversed(list(root.iter())):
        if not isinstance(el.tag, str) or el.tag in _SKIP_TAGS:
            lengths[el] = 0
            continue
        lengths[el] = _chars(el.text) + sum(lengths.get(c, 0) + _chars(c.tail) for c in el)
    return lengths


def _node_text(el: lxml.html.HtmlElement) -> str:
    lines = (_SPACE.sub(" ", t).strip() for t in el.itertext())
    return "\n".join(t for t in lines if t)


def dom_score(html: str) -> str:
    """Text of the element maximising ``L^(3/4) · depth / √(2 · children)``, breadth-first.

    ``L`` is the element's visible text length in characters (white space excluded), ``depth``
    its depth below the root (``<html>`` is 0), ``children`` its number of child elements,
    counted as 1 when it has none (the formula is undefined at 0). The first of equal scores
    in breadth-first order wins (the shallower node). "" for an empty or unparsable page.
    """
    try:
        root = lxml.html.document_fromstring(_XML_DECL.sub("", _clean(html), count=1))
    except (ValueError, lxml.etree.ParserError):
        return ""
    lengths = _text_lengths(root)
    best, best_score = None, 0.0
    queue: deque[tuple[lxml.html.HtmlElement, int]] = deque([(root, 0)])
    while queue:
        el, depth = queue.popleft()
        kids = [c for c in el if isinstance(c.tag, str) and c.tag not in _SKIP_TAGS]
        score = lengths.get(el, 0) ** 0.75 * depth / math.sqrt(2 * max(len(kids), 1))
        if score > best_score:
            best, best_score = el, score
        queue.extend((c, depth + 1) for c in kids)
    return _node_text(best) if best is not None else ""


# -- HTML::ExtractContent's block scoring ---------------------------------------------------

_BLOCK_SPLIT = re.compile(r"</?(?:div|td|center)\b[^>]*>", re.IGNORECASE)
_ANCHOR = re.compile(r"<a\b[^>]*>.*?</a\s*>", re.IGNORECASE | re.DOTALL)
_PUNCT = re.compile(r"[、。，．！？]")
_BODY = re.compile(r"<body\b[^>]*>(.*)", re.IGNORECASE | re.DOTALL)
EC_PUNCT_WEIGHT = 10  # a punctuation mark counts as this many characters of text
EC_DECAY = 0.99  # score factor per block down the page
EC_THRESHOLD = 60  # a block at or over it is strong
EC_CONTINUE = 1.6  # a weak block stays in the cluster after a block over threshold x this
EC_MIN_TEXT = 30  # a cluster of less text is not a body


def _block_score(fragment: str, factor: float) -> tuple[float, str]:
    """(score, text) of one block: non-link characters + punctuation bonus, times ``factor``."""
    text = _plain(fragment)
    outside = _plain(_ANCHOR.sub(" ", fragment))
    chars = len("".join(outside.split()))
    return (chars + EC_PUNCT_WEIGHT * len(_PUNCT.findall(outside))) * factor, text


def _clusters(blocks: list[str]) -> list[tuple[float, list[str]]]:
    """Clusters of adjacent blocks as (summed score, texts), in page order."""
    clusters: list[tuple[float, list[str]]] = []
    current: list[str] = []
    pending: list[tuple[float, str]] = []  # weak blocks kept only if a strong one follows
    total, previous, factor = 0.0, 0.0, 1.0
    for fragment in blocks:
        score, text = _block_score(fragment, factor)
        factor *= EC_DECAY
        if not text:
            continue
        if score >= EC_THRESHOLD:
            current += [t for _, t in pending] + [text]
            total += sum(s for s, _ in pending) + score
            pending = []
        elif current and previous > EC_THRESHOLD * EC_CONTINUE:
            pending.append((score, text))
        elif current:
            clusters.append((total, current))
            current, pending, total = [], [], 0.0
        previous = score
    if current:
        clusters.append((total, current))
    return clusters


def extract_content(html: str) -> str:
    """The best cluster of adjacent blocks (HTML::ExtractContent's description).

    A block is strong when its decayed score reaches :data:`EC_THRESHOLD`. Strong blocks
    open or extend the current cluster; a weak block right after a block that scored over
    ``EC_THRESHOLD · EC_CONTINUE`` stays in it if a strong block follows (the continuation
    rule), any other weak block closes it. Clusters are ranked by the sum of their blocks'
    scores; "" when the best holds under :data:`EC_MIN_TEXT` characters.
    """
    match = _BODY.search(_clean(html))
    clusters = _clusters(_BLOCK_SPLIT.split(match.group(1) if match else _clean(html)))
    if not clusters:
        return ""
    best = "\n".join(max(clusters, key=lambda c: c[0])[1])
    return best if len("".join(best.split())) >= EC_MIN_TEXT else ""
