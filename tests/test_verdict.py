"""The page verdict as a table: facts in, outcome and actions out; no sockets, no frontier."""

from __future__ import annotations

import dataclasses

import pytest

from indexer.extract.metadata import robots_directives, snippet_forbidden
from indexer.models import DecodedText, ExtractedDoc
from indexer.outcomes import Outcome
from indexer.pipeline.page import ProcessedPage
from indexer.pipeline.verdict import Facts, ReindexPolicy, Verdict, judge

URL = "http://a.test/page"
OTHER = "http://a.test/other"


def page(text: str = "main text", robots: frozenset[str] = frozenset()) -> ProcessedPage:
    doc = ExtractedDoc(title="t", text=text, robots=robots, outlinks=[OTHER])
    return ProcessedPage(DecodedText("<p>x</p>", "utf-8", "header"), doc)


def facts(**changes: object) -> Facts:
    base = Facts(url=URL, final_url=URL, x_robots_tag="", page=page(), digest="h1")
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


BINARY = ProcessedPage(DecodedText("", "binary", "sniff"), None, "binary body")
BROKEN = ProcessedPage(DecodedText("x", "utf-8", "header"), None, "cannot parse")
REDIRECTED = {"final_url": OTHER}

# (name, facts, judge keywords, expected outcome, expected actions)
CASES: list[tuple[str, Facts, dict[str, bool], Outcome, dict[str, object]]] = [
    ("plain page", facts(), {}, Outcome.INDEXED, {"index": True, "reached": True, "follow": True}),
    ("binary body", facts(page=BINARY), {}, Outcome.WRONG_TYPE, {"follow": False}),
    ("unparseable", facts(page=BROKEN), {}, Outcome.EXTRACT_ERROR, {"reason": "cannot parse"}),
    ("meta noindex", facts(page=page(robots=frozenset({"noindex"}))), {}, Outcome.NOINDEX, {}),
    ("header noindex", facts(x_robots_tag="noindex"), {}, Outcome.NOINDEX, {"follow": True}),
    ("header none", facts(x_robots_tag="none"), {}, Outcome.NOINDEX, {"follow": False}),
    ("agent-scoped header", facts(x_robots_tag="otherbot: noindex"), {}, Outcome.NOINDEX, {}),
    (
        "noindex of an indexed page deletes it",
        facts(x_robots_tag="noindex", stored_hash="h0"),
        {},
        Outcome.NOINDEX,
        {"delete": True, "index": False},
    ),
    (
        "noindex not obeyed",
        facts(x_robots_tag="noindex"),
        {"obey_noindex": False},
        Outcome.INDEXED,
        {},
    ),
    (
        "header nofollow still indexes",
        facts(x_robots_tag="nofollow"),
        {},
        Outcome.INDEXED,
        {"follow": False, "index": True},
    ),
    (
        "canonical elsewhere",
        facts(canonical=OTHER),
        {},
        Outcome.CANONICAL_ELSEWHERE,
        {"queue": OTHER, "index": False, "follow": True},
    ),
    ("canonical is itself", facts(canonical=URL), {}, Outcome.INDEXED, {"queue": None}),
    (
        "no main text",
        facts(page=page(text="  "), digest=None, stored_hash="h0"),
        {},
        Outcome.NO_CONTENT,
        {"delete": True, "follow": True},
    ),
    (
        "unchanged in a reindex",
        facts(stored_hash="h1"),
        {"skip_unchanged": True},
        Outcome.UNCHANGED,
        {"reached": True, "index": False},
    ),
    ("same hash outside reindex", facts(stored_hash="h1"), {}, Outcome.INDEXED, {"index": True}),
    (
        "unchanged but lost from the index",
        facts(stored_hash="h1", in_index=False),
        {"skip_unchanged": True},
        Outcome.INDEXED,
        {},
    ),
    (
        "unchanged but redirected now",
        facts(stored_hash="h1", **REDIRECTED),
        {"skip_unchanged": True},
        Outcome.REDIRECTED,  # the source; its target is indexed
        {"alias": True},
    ),
    (
        "same content as another URL",
        facts(twin=OTHER),
        {},
        Outcome.DUPLICATE,
        {"reason": f"same main content as {OTHER}", "index": False},
    ),
    (
        "redirect to a page reached in this run",
        facts(final_reached=True, **REDIRECTED),
        {},
        Outcome.DUPLICATE,
        {"alias": True, "index": False},
    ),
    (
        "redirect to a new page",
        facts(**REDIRECTED),
        {},
        Outcome.REDIRECTED,  # the source; its target is indexed
        {"alias": True, "index": True, "reason": f"redirected to {OTHER}"},
    ),
]


@pytest.mark.parametrize(
    ("facts_", "keywords", "outcome", "actions"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_verdict_table(
    facts_: Facts, keywords: dict[str, bool], outcome: Outcome, actions: dict[str, object]
) -> None:
    verdict = judge(facts_, **keywords)
    assert isinstance(verdict, Verdict)
    assert verdict.outcome is outcome
    for name, expected in actions.items():
        assert getattr(verdict, name) == expected, name


def test_rules_apply_in_order_noindex_before_canonical_before_duplicate() -> None:
    everything = facts(x_robots_tag="noindex", canonical=OTHER, twin=OTHER, stored_hash="h1")
    assert judge(everything, skip_unchanged=True).outcome is Outcome.NOINDEX
    assert judge(dataclasses.replace(everything, x_robots_tag="")).outcome is (
        Outcome.CANONICAL_ELSEWHERE
    )
    no_canonical = dataclasses.replace(everything, x_robots_tag="", canonical=None)
    assert judge(no_canonical, skip_unchanged=True).outcome is Outcome.UNCHANGED
    assert judge(no_canonical).outcome is Outcome.DUPLICATE


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("noindex, nofollow", {"noindex", "nofollow"}),
        ("NOINDEX", {"noindex"}),
        ("none", {"none", "noindex", "nofollow"}),
        ("googlebot: noindex", {"noindex"}),
        ("", set()),
        ("index, follow", {"index", "follow"}),
        ("max-snippet: 0, NOSNIPPET", {"max-snippet:0", "nosnippet"}),
        ("googlebot: max-snippet:-1", {"max-snippet:-1"}),
    ],
)
def test_robots_directives_one_parser_for_meta_and_header(value: str, expected: set[str]) -> None:
    assert robots_directives(value) == expected


@pytest.mark.parametrize(
    ("value", "forbidden"),
    [("nosnippet", True), ("max-snippet:0", True), ("max-snippet:20", False), ("noarchive", False)],
)
def test_which_directives_forbid_a_snippet(value: str, forbidden: bool) -> None:
    assert snippet_forbidden(robots_directives(value)) is forbidden


def test_reindex_policy_knows_what_is_in_the_index() -> None:
    assert ReindexPolicy().in_index(URL)  # unknown: assume every document is there
    policy = ReindexPolicy(present=frozenset({URL}))
    assert policy.in_index(URL)
    assert not policy.in_index(OTHER)
