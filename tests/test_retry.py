"""The pure retry policy."""

from __future__ import annotations

import email.utils

from indexer.crawl.retry import Decision, RetryPolicy, decide, parse_retry_after
from indexer.outcomes import Outcome
from indexer.settings import FetchSettings

POLICY = RetryPolicy(max_attempts=3, backoff_base=1.0, backoff_max=10.0, retry_after_cap=60)


def test_policy_is_built_from_the_fetch_settings() -> None:
    fetch = FetchSettings(max_attempts=5, backoff_base=0.5, backoff_max=7.0, retry_after_cap=9.0)
    assert RetryPolicy.from_settings(fetch) == RetryPolicy(5, 0.5, 7.0, 9.0)


def test_backoff_grows_and_gives_up() -> None:
    first, second = decide(1, None, POLICY), decide(2, None, POLICY)
    assert first.delay is not None and 1.0 <= first.delay <= 2.0
    assert second.delay is not None and 2.0 <= second.delay <= 3.0
    assert decide(3, None, POLICY) == Decision(None, Outcome.RETRIES_EXHAUSTED)
    assert decide(4, None, POLICY) == Decision(None, Outcome.RETRIES_EXHAUSTED)


def test_retry_after_honoured_up_to_cap() -> None:
    assert decide(1, 7.0, POLICY).delay == 7.0
    over = decide(1, 3600.0, POLICY)
    assert over.delay is None and over.outcome == "retry-after-too-long"


def test_parse_retry_after() -> None:
    assert parse_retry_after("120") == 120.0
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert parse_retry_after(date, now=1_000_000) == 30.0
    assert parse_retry_after("yesterday-ish") is None
    assert parse_retry_after(None) is None
    assert parse_retry_after(email.utils.formatdate(10, usegmt=True), now=1e6) == 0.0


def test_single_attempt_gives_the_failure_itself() -> None:
    once = RetryPolicy.from_settings(FetchSettings(max_attempts=1))
    assert decide(1, None, once) == Decision(None, None)  # the caller records the failure
    assert decide(1, 7.0, once) == Decision(None, None)
