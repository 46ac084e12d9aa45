"""robots.txt and sitemaps are read once per run by the processes of a shared frontier (issue
#20): a process taking a host over reads the robots.txt another one fetched instead of
spending one of the host's politeness slots on it again, and does not read its sitemaps
again; an unavailable robots.txt is not shared (each process tries it again)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.robots import RobotsCache
from tests.pg_fixtures import two_processes

ROBOTS = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"


class _Fetcher:
    """Answers every robots.txt request with ``status`` and ``body``; counts them."""

    def __init__(self, status: int, body: bytes = b"") -> None:
        self.status, self.body, self.calls = status, body, 0

    async def get_text(
        self, url: str, max_bytes: int = 0, truncate: bool = False, before_hop: object = None
    ) -> tuple[int, bytes]:
        self.calls += 1
        return self.status, self.body


def _cache(frontier: PgFrontier, fetcher: _Fetcher) -> RobotsCache:
    assert frontier.shared is not None
    return RobotsCache(fetcher, "indexer", 60.0, 10.0, shared=frontier.shared.robots)  # type: ignore[arg-type]


def test_a_robots_txt_fetched_by_one_process_is_read_by_the_other(
    pg_url: str, tmp_path: Path
) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        first, second = _Fetcher(200, ROBOTS), _Fetcher(200, b"")
        here, there = _cache(a, first), _cache(b, second)
        assert asyncio.run(here.allowed("http://h/page")) == (True, "")
        assert first.calls == 1
        assert there.is_cached("http://h/other"), "known from the run: no politeness slot"
        allowed, _ = asyncio.run(there.allowed("http://h/private/x"))
        assert not allowed, "the other process's rules hold here"
        assert asyncio.run(there.crawl_delay("http://h/")) == 2.0
        assert second.calls == 0, "not fetched again"


def test_an_unavailable_robots_txt_is_tried_again_by_each_process(
    pg_url: str, tmp_path: Path
) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        down, up = _Fetcher(503), _Fetcher(200, ROBOTS)
        here, there = _cache(a, down), _cache(b, up)
        allowed, _ = asyncio.run(here.allowed("http://h/page"))
        assert not allowed
        assert not there.is_cached("http://h/page")
        assert asyncio.run(there.allowed("http://h/page")) == (True, "")
        assert up.calls == 1
