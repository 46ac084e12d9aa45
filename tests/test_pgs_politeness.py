"""A host's politeness lives in its lease row (issue #20): a Retry-After or a robots.txt
Crawl-delay learnt by one crawl process holds for the process that takes the host over,
whether the first gave the lease back (the share rebalancing) or died (lease expiry after
``kill -9``). Two frontiers on one real PostgreSQL database stand for the two processes."""

from __future__ import annotations

import time
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.politeness import Politeness

HOST = "127.0.0.1:9"
URLS = [(f"http://{HOST}/p{i}", HOST, 0) for i in range(4)]


def _pair(pg_url: str, tmp: Path, lease: float) -> tuple[PgFrontier, PgFrontier]:
    first = PgFrontier(pg_url, tmp / "a", lease_seconds=lease)
    first.start_run(resume=False)
    first.add(URLS)
    other = PgFrontier(pg_url, tmp / "b", lease_seconds=lease)
    other.start_run(resume=True)  # joins the open run
    return first, other


def _politeness(frontier: PgFrontier) -> Politeness:
    assert frontier.shared is not None
    return Politeness(0.0, 1, 60.0, frontier.shared.politeness)


def test_a_retry_after_holds_for_the_process_taking_the_host_over(
    pg_url: str, tmp_path: Path
) -> None:
    first, other = _pair(pg_url, tmp_path, lease=30.0)
    try:
        claimed = first.claim(HOST, time.time())
        assert claimed is not None
        _politeness(first).slow_down(HOST, 5.0)  # a 503 with Retry-After: 5
        held_at = time.time()
        first.retry_later(claimed.url, held_at + 5.0, "http-503")
        first.leases.release(HOST)  # given back (its share shrank)
        assert other.claim(HOST, time.time()) is None, "the Retry-After was shortened"
        due = other.next_due(HOST)
        assert due is not None and due >= held_at + 5.0 - 0.05
        assert other.claim(HOST, held_at + 5.1) is not None  # once it has passed
    finally:
        other.close()
        first.close()


def test_a_crawl_delay_holds_after_the_holder_died(pg_url: str, tmp_path: Path) -> None:
    lease = 0.5
    first, other = _pair(pg_url, tmp_path, lease=lease)
    try:
        assert first.claim(HOST, time.time()) is not None
        _politeness(first).set_crawl_delay(HOST, 3.0)  # robots.txt read before the fetch
        sent = time.time()
        time.sleep(lease + 0.2)  # the holder renews nothing (killed): its lease expires
        assert other.claim(HOST, time.time()) is None, "the Crawl-delay was shortened"
        due = other.next_due(HOST)
        assert due is not None and due >= sent + 3.0 - 0.05
        at = sent + 3.1
        assert other.claim(HOST, at) is not None
        assert other.claim(HOST, at + 1.0) is None, "its own claims keep the Crawl-delay"
        assert other.claim(HOST, at + 3.1) is not None
    finally:
        other.close()
        first.close()
