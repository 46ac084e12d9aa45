"""SiteRule construction and validation."""

from __future__ import annotations

import pytest

from indexer.errors import ConfigError
from indexer.extract import SiteRule
from indexer.extract.rules import matching_rule


def test_from_mapping_builds_a_rule() -> None:
    rule = SiteRule.from_mapping(
        {"url_pattern": r"^https?://wiki\.", "include": ["div#body"], "exclude": ".ad"}
    )
    assert rule == SiteRule(
        url_pattern=r"^https?://wiki\.", include=("div#body",), exclude=(".ad",)
    )


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        ({"url_pattern": "x", "inculde": ["p"]}, "inculde"),
        ({"include": ["p"]}, "url_pattern"),
        ({"url_pattern": "(", "include": ["p"]}, "url_pattern"),
        ({"url_pattern": "x", "include": ["p[["]}, "include"),
        ({"url_pattern": "x", "exclude": [3]}, "exclude"),
    ],
)
def test_from_mapping_names_the_bad_key(data: dict[str, object], setting: str) -> None:
    with pytest.raises(ConfigError) as info:
        SiteRule.from_mapping(data)
    assert info.value.setting == setting


def test_first_matching_rule_wins() -> None:
    rules = [
        SiteRule(url_pattern=r"//a\.example/", include=("p",)),
        SiteRule(url_pattern=r"example", include=("div",)),
    ]
    assert matching_rule("http://a.example/x", rules) is rules[0]
    assert matching_rule("http://b.example/x", rules) is rules[1]
    assert matching_rule("http://c.test/", rules) is None
