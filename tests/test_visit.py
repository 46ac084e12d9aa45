"""One URL's visit with injected fakes: no sockets, no worker processes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from indexer.crawl.login import LoginRules
from indexer.crawl.politeness import Politeness
from indexer.crawl.retry import RetryPolicy
from indexer.crawl.scope import Scope
from indexer.crawl.urls import SiteAliases
from indexer.outcomes import Outcome
from indexer.pipeline.ledger import Ledger
from indexer.pipeline.sitewide import SitewideDuplicates
from indexer.pipeline.visit import Clients, Visitor
from indexer.report import RunStats
from indexer.settings import load_settings
from tests.pg_fixtures import OpenFrontier

URL = "http://127.0.0.1:9/page"
HOST = "127.0.0.1:9"


class AllowAll:
    """A robots.txt cache that allows everything and knows no sitemaps."""

    def is_cached(self, url: str) -> bool:
        return True

    async def allowed(self, url: str) -> tuple[bool, str]:
        return True, ""

    async def crawl_delay(self, url: str) -> float | None:
        return None

    def unavailable_until(self, url: str) -> float | None:
        return None


class BuggyFetcher:
    """A fetcher with a bug of ours in it (not a fetch failure)."""

    async def fetch(self, url: str, *args: Any, **kwargs: Any) -> Any:
        raise KeyError("a bug, not a network failure")


def test_a_bug_while_visiting_is_internal_error_not_extract_error(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    settings = load_settings(flags={"crawl.sitemaps": False}, environ={}).settings
    with open_frontier(tmp_path) as frontier:
        frontier.start_run(False)
        frontier.add([(URL, HOST, 0)])
        claimed = frontier.claim(HOST, 1e12)
        assert claimed is not None
        stats = RunStats()
        politeness = Politeness(0.0, 1, 0.0)
        visitor = Visitor(
            settings=settings,
            ledger=Ledger(frontier, stats),
            politeness=politeness,
            scope=Scope({"127.0.0.1"}),
            aliases=SiteAliases(),
            sink=cast(Any, None),  # never reached
            rules=(),
            retry=RetryPolicy.from_settings(settings.fetch),
            reindex=None,
            enqueue=lambda urls, depth: None,
            clients=Clients(
                cast(Any, BuggyFetcher()),
                cast(Any, AllowAll()),
                cast(Any, None),
                cast(Any, None),
                cast(Any, None),
            ),
            login=LoginRules(settings.crawl),
            sitewide=SitewideDuplicates(settings.crawl, frontier, stats, lambda _id: None),
        )
        politeness.enter(HOST)
        asyncio.run(visitor.visit(claimed))
        stored = {url: (outcome, reason) for url, _, outcome, reason in frontier.outcomes()}
    assert stats.outcomes[Outcome.INTERNAL_ERROR] == 1
    assert stats.outcomes[Outcome.EXTRACT_ERROR] == 0
    outcome, reason = stored[URL]
    assert outcome == Outcome.INTERNAL_ERROR
    assert "KeyError" in reason
