"""Site rules from configuration: a URL pattern mapped to CSS selectors to include and exclude."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree
from lxml.cssselect import CSSSelector, SelectorError

from indexer.errors import ConfigError

_KEYS = ("url_pattern", "include", "exclude")


@dataclass(frozen=True, slots=True)
class SiteRule:
    """Where the main content is on the pages of one site.

    Attributes:
        url_pattern: regular expression searched (``re.search``) in the page URL.
        include: CSS selectors (Selectors Level 3 via cssselect) of the main content;
            empty means "let the heuristics find it" after the exclusions.
        exclude: CSS selectors of furniture to drop before anything else.
    """

    url_pattern: str
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SiteRule:
        """Build and validate a rule from a TOML/JSON mapping.

        Raises:
            ConfigError: an unknown key, a missing ``url_pattern``, a bad regular
                expression or CSS selector; ``setting`` names the key.
        """
        for key in data:
            if key not in _KEYS:
                raise ConfigError(str(key), f"unknown site-rule key (allowed: {', '.join(_KEYS)})")
        pattern = data.get("url_pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ConfigError("url_pattern", "must be a non-empty regular expression string")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError("url_pattern", f"bad regular expression: {exc}") from exc
        include = _selectors(data, "include")
        exclude = _selectors(data, "exclude")
        return cls(pattern, include, exclude)


def _selectors(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, ())
    if isinstance(value, str):
        value = (value,)
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise ConfigError(key, "must be a CSS selector string or a list of them")
    for selector in value:
        try:
            CSSSelector(selector)
        except SelectorError as exc:
            raise ConfigError(key, f"bad CSS selector {selector!r}: {exc}") from exc
    return tuple(value)


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
