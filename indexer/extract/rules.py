"""Site rules from configuration: a URL pattern mapped to CSS selectors to include and exclude.

The rule itself (:class:`~indexer.settings.SiteRule`) is validated when settings load;
this module finds the rule of a page and applies it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree
from lxml.cssselect import CSSSelector

from indexer.settings import SiteRule


def matching_rule(url: str, rules: Sequence[SiteRule]) -> SiteRule | None:
    """Return the first rule whose ``url_pattern`` is found in ``url``, or None."""
    for rule in rules:
        if re.search(rule.url_pattern, url):
            return rule
    return None


def _drop_tree(element: etree._Element) -> None:
    """Remove ``element`` and its children but keep its tail text in place."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _select(selector: str, root: etree._Element) -> list[etree._Element]:
    matches = CSSSelector(selector)(root)
    if not isinstance(matches, list):
        return []
    return [m for m in matches if isinstance(m, etree._Element)]


def apply_rule(root: etree._Element, rule: SiteRule) -> list[etree._Element]:
    """Drop ``rule.exclude`` matches from the tree and return the ``rule.include`` matches.

    The tree is modified (excluded elements removed, their tails kept). Included
    elements nested in other included elements are returned once, in document order.
    """
    for selector in rule.exclude:
        for element in _select(selector, root):
            _drop_tree(element)
    found: list[etree._Element] = []
    for selector in rule.include:
        found.extend(_select(selector, root))
    chosen = set(found)
    outer = [e for e in found if not any(a in chosen for a in e.iterancestors())]
    order = {e: i for i, e in enumerate(root.iter())}
    return sorted(set(outer), key=order.__getitem__)
