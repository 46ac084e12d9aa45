"""What a visit does when its fetch fails or leaves a hop to the frontier.

- a retryable failure (timeouts, network errors, 408/429/5xx) is scheduled again by
  :func:`indexer.crawl.retry.decide`, its Retry-After slowing the host (at most
  ``fetch.retry_after_cap``), unless the host has become failing (``fetch.host_failure_limit``);
- a permanent one ends the URL; a 410 deletes an indexed copy at once, a 404 waits its
  grace runs (:mod:`indexer.pipeline.grace`);
- each request counts in the run's ``fetched`` and in the host's failure window.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from indexer.crawl.frontier import Claimed
from indexer.crawl.hostfail import HostFailures
from indexer.crawl.politeness import Politeness
from indexer.crawl.retry import RetryPolicy, decide
from indexer.errors import FetchError, RetryableFetchError
from indexer.index.sink import DocumentSink
from indexer.outcomes import Outcome
from indexer.pipeline.grace import deletes_at_once, leaves_search_now
from indexer.pipeline.ledger import Ledger
from indexer.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FetchFailures:
    """Records failed fetches (module docstring); the Visitor's parts it needs."""

    settings: Settings
    ledger: Ledger
    politeness: Politeness
    retry_policy: RetryPolicy
    host_failures: HostFailures
    sink: DocumentSink

    def observe(self, host: str, unreachable: bool) -> None:
        """Count one request of ``host`` (the run's ``fetched``, and the host's failure
        window); end its queued URLs when it has become failing."""
        self.ledger.stats.fetched += 1
        if self.host_failures.observe(host, unreachable):
            reason = self.host_failures.reason(host)
            self.ledger.finish_queued(Outcome.HOST_FAILING, reason, host)
            log.warning("%s: giving up on the host: %s", host, reason)

    def retry(self, claimed: Claimed, exc: RetryableFetchError) -> None:
        """Schedule ``claimed`` again, or end it when no retry is left or its host fails."""
        if exc.retry_after is not None:
            cap = self.settings.fetch.retry_after_cap
            self.politeness.slow_down(claimed.host, min(exc.retry_after, cap))
        timed_out = exc.outcome == Outcome.TIMEOUT
        attempt = claimed.attempts + 1
        decision = decide(attempt, exc.retry_after, self.retry_policy, timed_out=timed_out)
        if self.host_failures.failing(claimed.host):
            reason = self.host_failures.reason(claimed.host)
            self.ledger.finish(claimed.url, Outcome.HOST_FAILING, reason)
            return
        if decision.delay is None:
            outcome = decision.outcome or exc.outcome  # no retry allowed: the failure itself
            self.ledger.finish(claimed.url, outcome, f"{exc.outcome}: {exc.reason}")
            return
        self.ledger.stats.retries[exc.outcome] += 1
        frontier = self.ledger.frontier
        frontier.retry_later(claimed.url, time.time() + decision.delay, exc.reason)

    def failed(self, claimed: Claimed, exc: FetchError) -> None:
        """End ``claimed`` with a permanent failure, deleting its document when the
        outcome says so (:mod:`indexer.pipeline.grace`)."""
        rules = self.settings.reindex
        deleted = deletes_at_once(exc.outcome, rules) and claimed.content_hash is not None
        left = deleted and leaves_search_now(exc.outcome, rules)
        if left:
            self.ledger.finish_left(claimed.url, exc.outcome, exc.reason)
        else:
            self.ledger.finish(claimed.url, exc.outcome, exc.reason)
        if deleted:
            self.sink.delete(claimed.url, at_once=left)
