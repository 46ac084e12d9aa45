"""The Outcome table: one row per member, HTTP codes classed by code, no sockets."""

from __future__ import annotations

import pytest

from indexer.outcomes import TABLE, Effect, Outcome, OutcomeClass, classify, info, is_failure
from indexer.outcomes import is_known as outcome_known
from indexer.report import OUTCOMES


def test_every_member_has_a_row_with_a_description() -> None:
    assert set(TABLE) == set(Outcome)
    assert all(row.description for row in TABLE.values())
    assert set(OUTCOMES) == {*(o.value for o in Outcome), "http-<code>"}


@pytest.mark.parametrize(
    ("outcome", "klass", "effect"),
    [
        ("indexed", OutcomeClass.REACHED, Effect.KEEP),
        ("noindex", OutcomeClass.SKIPPED, Effect.DELETE_NOW),
        ("robots-unavailable", OutcomeClass.NETWORK, Effect.KEEP),
        ("internal-error", OutcomeClass.FAILURE, Effect.KEEP),
        ("http-404", OutcomeClass.GONE, Effect.DELETE_AFTER_GRACE),
        ("http-410", OutcomeClass.GONE, Effect.DELETE_NOW),
        ("http-403", OutcomeClass.FAILURE, Effect.KEEP),  # stored as restricted, see fetch
        ("restricted", OutcomeClass.RESTRICTED, Effect.DELETE_NOW),
        ("http-503", OutcomeClass.FAILURE, Effect.KEEP),
    ],
)
def test_class_and_effect(outcome: str, klass: OutcomeClass, effect: Effect) -> None:
    assert classify(outcome) is klass
    assert info(outcome).effect is effect


def test_unknown_outcomes_are_not_members() -> None:
    assert outcome_known("http-404") and outcome_known("trap")
    assert not outcome_known("http-4044") and not outcome_known("gone-fishing")
    with pytest.raises(ValueError):
        info("gone-fishing")
    assert is_failure("gone-fishing")  # an unknown stored value counts as failed
    assert not is_failure("unchanged") and is_failure("http-404")
