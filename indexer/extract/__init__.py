"""Main-content extraction: site rules → semantic markup → block scoring / DOM scoring → fallback.

Public API: :func:`extract` and :class:`SiteRule`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from indexer.extract.decide import ChainResult, run_chain
from indexer.extract.explain import Decision, dom_path
from indexer.extract.links import count_links, outlinks
from indexer.extract.metadata import read_metadata
from indexer.extract.parse import body_of, parse_html
from indexer.extract.profile import DEFAULT_PROFILE, Profile, check_profile
from indexer.extract.rules import apply_rule, matching_rule
from indexer.extract.tags import HEADING_TAGS
from indexer.extract.template import NO_TEMPLATE, SiteTemplate
from indexer.extract.text import node_text, nodes_text
from indexer.extract.titles import affix_keys, clean_title
from indexer.models import ExtractedDoc
from indexer.settings import CrawlSettings, SiteRule

__all__ = ["Extraction", "SiteRule", "extract", "extract_page"]

_MAX_LINKS: int = CrawlSettings.model_fields["max_links_per_page"].default


@dataclass(slots=True)
class Extraction:
    """:func:`extract_page`'s result.

    Attributes:
        doc: the extracted document.
        keys: template keys of the page's blocks (none when a site rule decided) and
            of its title's first and last parts (:func:`~indexer.extract.titles.affix_keys`);
            empty unless ``learn``.
        decisions: why each block was kept or dropped (empty unless ``explain``).
    """

    doc: ExtractedDoc
    keys: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)


def _rule_content(root: etree._Element, rule: SiteRule) -> ChainResult | None:
    included = apply_rule(root, rule)
    if not included:
        return None
    text = nodes_text(included)
    if not text:
        return None
    headings = [node_text(h) for element in included for h in element.iter(*HEADING_TAGS)]
    paths: dict[etree._Element, str] = {}
    kept = [Decision("kept", "rules", dom_path(e, paths), node_text(e)) for e in included]
    return ChainResult(text, [h for h in headings if h], "rules", decisions=kept)


def _metadata(root: etree._Element, url: str, encoding: str, max_links: int) -> ExtractedDoc:
    """The page's metadata and (unless ``nofollow``) its outlinks, at most ``max_links``."""
    doc = read_metadata(root, url, encoding)
    if "nofollow" not in doc.robots:
        doc.outlinks = outlinks(root, url, encoding, max_links)
        if len(doc.outlinks) >= max_links:  # cut: say how many the page had
            doc.links_found = max(count_links(root), len(doc.outlinks))
    return doc


def extract(
    html: str,
    url: str,
    *,
    encoding: str = "utf-8",
    rules: Sequence[SiteRule] = (),
    max_links: int = _MAX_LINKS,
    profile: Profile = DEFAULT_PROFILE,
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
        ConfigError: ``profile`` is not a profile's name.
    """
    page = extract_page(
        html, url, encoding=encoding, rules=rules, max_links=max_links, profile=profile
    )
    return page.doc


def extract_page(
    html: str,
    url: str,
    *,
    encoding: str = "utf-8",
    rules: Sequence[SiteRule] = (),
    max_links: int = _MAX_LINKS,
    template: SiteTemplate = NO_TEMPLATE,
    learn: bool = False,
    explain: bool = False,
    profile: Profile = DEFAULT_PROFILE,
) -> Extraction:
    """:func:`extract` with the host's template, its block keys and the decisions.

    Args:
        template: the page's host's template (:mod:`indexer.extract.template`); not
            ``known``: the per-page chain alone decides.
        learn: also return the page's block keys, to count in the host's statistics.
        explain: also return a decision per block (:mod:`indexer.extract.explain`).
        profile: as for :func:`extract`.

    Raises:
        ExtractError: the page cannot be parsed at all.
        ConfigError: ``profile`` is not a profile's name.
    """
    profile = check_profile(profile)
    root = parse_html(html)
    doc = _metadata(root, url, encoding, max_links)
    title_keys = affix_keys(doc.title) if learn else []
    if template.known:
        doc.title = clean_title(doc.title, affixes=template.keys)
    rule = matching_rule(url, rules)
    chain = _rule_content(root, rule) if rule is not None else None
    if chain is None:
        chain = run_chain(
            body_of(root), root, doc.title, template=template, learn=learn, explain=explain,
            profile=profile,
        )  # fmt: skip
    doc.text, doc.headings, doc.extractor = chain.text, chain.headings, chain.extractor
    return Extraction(doc, chain.keys + title_keys, chain.decisions if explain else [])
