"""Main-content extraction: site rules → semantic markup → block scoring / DOM scoring → fallback.

Public API: :func:`extract` and :class:`SiteRule`.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from indexer.extract.blocks import mark_furniture
from indexer.extract.candidate import Candidate
from indexer.extract.links import count_links, outlinks
from indexer.extract.metadata import read_metadata
from indexer.extract.parse import body_of, parse_html, prune
from indexer.extract.rules import apply_rule, matching_rule
from indexer.extract.segment import Segmentation, segment
from indexer.extract.select import choose
from indexer.extract.tags import DROP_TAGS, HEADING_TAGS
from indexer.extract.text import node_text, nodes_text
from indexer.models import ExtractedDoc
from indexer.settings import CrawlSettings, SiteRule

__all__ = ["SiteRule", "extract"]

_MAX_LINKS: int = CrawlSettings.model_fields["max_links_per_page"].default


def _rule_content(root: etree._Element, rule: SiteRule) -> tuple[str, list[str]] | None:
    included = apply_rule(root, rule)
    if not included:
        return None
    text = nodes_text(included)
    if not text:
        return None
    headings = [node_text(h) for element in included for h in element.iter(*HEADING_TAGS)]
    return text, [h for h in headings if h]


def _chain_content(
    body: etree._Element, root: etree._Element, title: str
) -> tuple[str, list[str], str]:
    prune(body, DROP_TAGS)
    seg: Segmentation = segment(body)
    mark_furniture(seg)
    chosen: Candidate = choose(seg, root, title)
    headings = [seg.blocks[i].text for i in chosen.indexes if seg.blocks[i].heading]
    return chosen.text(seg), headings, chosen.extractor


def extract(
    html: str,
    url: str,
    *,
    encoding: str = "utf-8",
    rules: Sequence[SiteRule] = (),
    max_links: int = _MAX_LINKS,
) -> ExtractedDoc:
    """Extract title, main text, metadata and outlinks from one decoded HTML page.

    Args:
        html: the page text, already decoded.
        url: the page URL; links are resolved against ``<base href>`` or this.
        encoding: the page's Python codec name; link query strings are percent-encoded
            in it, as browsers do (WHATWG URL §4.4).
        rules: site rules; the first whose ``url_pattern`` matches ``url`` is applied.
        max_links: cap on the number of outlinks returned (``crawl.max_links_per_page``;
            by default that setting's default).

    Returns:
        an :class:`~indexer.models.ExtractedDoc`; ``extractor`` names the chain step
        that produced ``text`` (``rules``, ``semantic``, ``blocks``, ``dom``, ``fallback``).

    Raises:
        ExtractError: the page cannot be parsed at all.
    """
    root = parse_html(html)
    doc = read_metadata(root, url, encoding)
    if "nofollow" not in doc.robots:
        doc.outlinks = outlinks(root, url, encoding, max_links)
        if len(doc.outlinks) >= max_links:  # cut: say how many the page had
            doc.links_found = max(count_links(root), len(doc.outlinks))
    rule = matching_rule(url, rules)
    content = _rule_content(root, rule) if rule is not None else None
    if content is not None:
        doc.text, doc.headings = content
        doc.extractor = "rules"
    else:
        doc.text, doc.headings, doc.extractor = _chain_content(body_of(root), root, doc.title)
    return doc
