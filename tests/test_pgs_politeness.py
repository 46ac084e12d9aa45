"""A host's politeness lives in its lease row (issue #20): a Retry-After or a robots.txt
Crawl-delay learnt by one crawl process holds for the process that takes the host over,
whether the first gave the lease back (the share rebalancing) or died (lease expiry after
``kill -9``). Two frontiers on one real PostgreSQL database stand for the two processes,
then two ``indexer crawl`` processes on a loopback site."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import psycopg

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.politeness import Politeness
from tests.faultserver import FaultServer, Reply, html
from tests.pg_fixtures import kill_then_join, out_urls
from tests.test_pg_join import _crawl

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


def test_a_retry_after_seen_by_a_killed_process_holds_for_the_joiner(
    pg_url: str, tmp_path: Path
) -> None:
    """Process A meets a 503 with Retry-After: 5 on host 1 and is killed -9 at once; B joins
    and takes A's hosts over at the lease's expiry (2 s), but its first request to host 1
    comes no sooner than 5 s after the 503 (the server's log is the judge); every page is
    fetched and written by one of them."""
    lease, hold, pages = 2.0, 5.0, 8
    env = {**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(lease)}
    common = ["--frontier", pg_url, "--delay", "0.2", "--per-host", "1"]
    with FaultServer(2) as srv:
        for h in range(2):
            srv.page("/", f"home {h}", [f"/p{i}" for i in range(pages)], host=h)
            for i in range(pages):
                srv.route(f"/p{i}", Reply(body=html(f"page {h}-{i}")), host=h)
        busy = Reply(status=503, headers={"Retry-After": str(int(hold))})
        srv.route("/p2", [busy, Reply(body=html("page 1-2"))], host=1)
        seeds = [srv.url("/", h) for h in range(2)]
        a = _crawl(*common, "--data-dir", "a", "--out", "a.jsonl", *seeds, cwd=tmp_path, env=env)
        host = srv.base(1).split("://")[1].rstrip("/")
        kill_then_join(
            a,
            lambda: _wait_for_hold(pg_url, host, a),
            lambda: _crawl(
                *common, "--join", "--data-dir", "b", "--out", "b.jsonl", cwd=tmp_path, env=env
            ),
        )
        hits = srv.log()
    refused = next(h for h in hits if h.host == 1 and h.status == 503)
    after = [h.start for h in hits if h.host == 1 and h.start > refused.end]
    assert after and min(after) - refused.end >= hold - 0.05, min(after) - refused.end
    fetched = {(h.host, h.path) for h in hits if h.status == 200}
    assert fetched >= {(h, p) for h in range(2) for p in ["/", *[f"/p{i}" for i in range(pages)]]}
    docs = out_urls(tmp_path / name for name in ("a.jsonl", "b.jsonl"))
    assert len(docs) == 2 * (pages + 1), "every page written by one of them"


def _wait_for_hold(pg_url: str, host: str, proc: subprocess.Popen[bytes]) -> None:
    """Wait until the crawl process ``proc`` wrote a Retry-After hold for ``host``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the crawl ended before the 503"
        with psycopg.connect(pg_url, autocommit=True) as conn:
            try:
                row = conn.execute(
                    "SELECT held_until FROM indexer.host_leases WHERE host=%s", (host,)
                ).fetchone()
            except psycopg.errors.UndefinedTable:  # the crawl has not made its tables yet
                row = None
        if row is not None and row[0] > 0:
            return
        time.sleep(0.02)
    raise AssertionError("no Retry-After hold was written")
