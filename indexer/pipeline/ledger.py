"""Outcome bookkeeping: a URL's stored outcome and the run's counters change together."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from indexer.crawl.frontier import Frontier
from indexer.report import RunStats

log = logging.getLogger(__name__)


class Ledger:
    """Writes outcomes to the frontier and counts them in the run's :class:`RunStats`.

    Args:
        frontier: the opened frontier of the run.
        stats: the run's counters.
    """

    def __init__(self, frontier: Frontier, stats: RunStats) -> None:
        self.frontier = frontier
        self.stats = stats

    def finish(
        self, url: str, outcome: str, reason: str, *, reached: bool = False, **fields: str | None
    ) -> None:
        """End a claimed URL with ``outcome`` (a member or ``http-<code>``) and ``reason``.

        Args:
            reached: the page counts as reached (current) in this run.
            fields: ``content_hash``, ``etag``, ``last_modified`` to store with it.
        """
        self.frontier.finish(url, outcome, reason, reached=reached, **fields)
        self.stats.record(outcome, reason)

    def finish_left(self, url: str, outcome: str, reason: str) -> None:
        """:meth:`finish` for a URL whose document was just deleted: the frontier drops its
        validators and hash (its next fetch is unconditional, its document sent again)."""
        self.frontier.finish_left(url, outcome, reason)
        self.stats.record(outcome, reason)

    def refuse(self, url: str, host: str, depth: int, outcome: str, reason: str) -> None:
        """Store a URL that is not queued (invalid, trap, out of scope), counted once."""
        if self.frontier.record(url, host, depth, outcome, reason):
            self.stats.record(outcome, reason)

    def refuse_many(self, rows: Sequence[tuple[str, str, int, str, str]]) -> None:
        """:meth:`refuse` for ``(url, host, depth, outcome, reason)`` rows, in one write."""
        if not rows:
            return
        for row, stored in zip(rows, self.frontier.record_many(rows), strict=True):
            if stored:
                self.stats.record(row[3], row[4])

    def finish_queued(self, outcome: str, reason: str, host: str | None = None) -> None:
        """End every URL still queued (of ``host``, or all) with ``outcome``."""
        self.stats.record_many(outcome, reason, self.frontier.finish_queued(outcome, reason, host))

    def truncated(self, url: str, found: int, kept: int) -> None:
        """Count a page whose ``found`` links were cut to ``kept`` (``crawl.max_links_per_page``),
        and say so with ``-v``."""
        self.stats.truncated(url, found, kept)
        log.debug(
            "%s: %d links, only the first %d taken (crawl.max_links_per_page)", url, found, kept
        )
