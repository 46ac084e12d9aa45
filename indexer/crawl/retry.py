"""Pure retry policy for fetches: which failures are retried, and after how long.

Retryable (RFC 9110 §15.5.9, §15.6; RFC 6585 §4): connection errors, timeouts, 408, 429,
500, 502, 503, 504. Other 4xx are final. Backoff is exponential with jitter (tenacity's
``wait_exponential`` plus ``wait_random``); a ``Retry-After`` from the server
(RFC 9110 §10.2.3) replaces it, and one above the cap gives the URL up with that reason.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass

import tenacity

from indexer.outcomes import Outcome
from indexer.settings import FetchSettings

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Retry limits, in seconds and attempts (built from ``fetch.*``: :meth:`from_settings`).

    Attributes:
        max_attempts: attempts per URL, the first included.
        backoff_base: first backoff (s); doubles each attempt, plus up to 1x jitter.
        backoff_max: longest computed backoff (s).
        retry_after_cap: longest Retry-After honoured (s).
        timeout_attempts: attempts when the failure is a timeout (a request that used its
            whole deadline is retried at most once by default: a hung server costs a URL
            two deadlines, not ``max_attempts``).
    """

    max_attempts: int
    backoff_base: float
    backoff_max: float
    retry_after_cap: float
    timeout_attempts: int = 2

    @classmethod
    def from_settings(cls, fetch: FetchSettings) -> RetryPolicy:
        """The policy of ``fetch.max_attempts``, ``backoff_base``, ``backoff_max``,
        ``retry_after_cap`` and ``timeout_attempts``."""
        return cls(
            fetch.max_attempts,
            fetch.backoff_base,
            fetch.backoff_max,
            fetch.retry_after_cap,
            fetch.timeout_attempts,
        )


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do after a failed attempt.

    Attributes:
        delay: seconds to wait before the next attempt, or None to give up.
        outcome: the final outcome when giving up after retries (``retries-exhausted``,
            ``retry-after-too-long``), else None (when giving up at the first attempt,
            the caller records the failure itself: ``timeout``, ``http-503``, …).
    """

    delay: float | None
    outcome: Outcome | None = None


def decide(
    attempt: int, retry_after: float | None, policy: RetryPolicy, *, timed_out: bool = False
) -> Decision:
    """Decide on a retryable failure.

    Args:
        attempt: attempts made so far, this failed one included (1 after the first).
        retry_after: seconds the server asked for, or None.
        policy: the limits.
        timed_out: the failure was a timeout (``policy.timeout_attempts`` applies).
    """
    if retry_after is not None and retry_after > policy.retry_after_cap:
        return Decision(None, Outcome.RETRY_AFTER_TOO_LONG)
    limit = min(policy.max_attempts, policy.timeout_attempts) if timed_out else policy.max_attempts
    if attempt >= limit:
        # with a single attempt allowed nothing was retried: the failure is the outcome
        return Decision(None, Outcome.RETRIES_EXHAUSTED if attempt > 1 else None)
    if retry_after is not None:
        return Decision(max(0.0, retry_after))
    return Decision(_backoff(attempt, policy))


def _backoff(attempt: int, policy: RetryPolicy) -> float:
    # base * 2**(attempt-1), at most backoff_max, plus up to one base of jitter
    wait = tenacity.wait_exponential(
        multiplier=policy.backoff_base, max=policy.backoff_max
    ) + tenacity.wait_random(0, policy.backoff_base)
    return wait_seconds(wait, attempt)


def wait_seconds(strategy: tenacity.wait.wait_base, attempt: int) -> float:
    """Seconds a tenacity wait strategy gives before attempt ``attempt + 1``.

    Our retries are scheduled (the frontier or the index stage waits), not run by a
    tenacity loop, so the strategy is asked directly with ``attempt`` (1 = first failure).
    """
    state = tenacity.RetryCallState(None, None, (), {})  # type: ignore[arg-type]
    state.attempt_number = attempt
    return float(strategy(state))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delay-seconds or HTTP-date).

    Returns None for a missing or unparseable value; a date in the past gives 0.0.
    """
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)
