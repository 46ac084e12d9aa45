"""Politeness read from the server's log: per-host spacing of request starts, requests in
flight per host and in total, Crawl-delay and Retry-After. Timing is asserted only as lower
bounds (the machine is shared)."""

from __future__ import annotations

import itertools
from pathlib import Path

from indexer.crawl.politeness import Politeness
from tests.faultserver import FaultServer, Hit, Reply, crawl, html

SLACK = 0.97  # a request can reach the server a little later than it was started


def _gaps(hits: list[Hit]) -> list[float]:
    starts = sorted(h.start for h in hits)
    return [b - a for a, b in itertools.pairwise(starts)]


def _assert_spaced(hits: list[Hit], delay: float) -> None:
    """Request starts of one host at least ``delay`` apart, as the server saw them.

    The server runs in the crawler's process, so one start can be seen late by a few tens
    of milliseconds on a loaded machine, shortening one gap and lengthening the next: the
    span of all requests holds every delay (less the slack), and no single gap is less
    than half of one (no two requests at once).
    """
    gaps = _gaps(hits)
    assert sum(gaps) >= len(gaps) * delay * SLACK, gaps
    assert min(gaps) >= delay / 2, gaps


async def test_delay_between_request_starts_per_host(tmp_path: Path) -> None:
    delay = 0.3
    with FaultServer(hosts=3) as srv:
        seeds = srv.star_site(3, 5)
        run = await crawl(seeds, tmp_path, fetch__delay=delay)
        per_host = [srv.log(h) for h in range(3)]
    assert run.stats.outcomes["indexed"] == 18
    for hits in per_host:
        paths = sorted(h.path for h in hits)
        assert paths == sorted(["/robots.txt", "/sitemap.xml", "/", *(f"/p{i}" for i in range(5))])
        _assert_spaced(hits, delay)
    # hosts are crawled side by side, not one after the other
    assert per_host[1][0].start < per_host[0][-1].start
    assert per_host[2][0].start < per_host[0][-1].start


async def test_requests_in_flight_per_host_and_in_total(tmp_path: Path) -> None:
    with FaultServer(hosts=3) as srv:
        seeds = srv.star_site(3, 6, delay=0.25)
        run = await crawl(seeds, tmp_path, fetch__per_host=2, fetch__concurrency=3)
        most = dict(srv.max_in_flight)
        total = srv.max_in_flight_total
    assert run.stats.outcomes["indexed"] == 21
    assert max(most.values()) <= 2
    assert total <= 3
    assert total >= 2  # the limits are limits, not serialization


async def test_crawl_delay_is_honoured_up_to_its_cap(tmp_path: Path) -> None:
    with FaultServer(hosts=2) as srv:
        seeds = srv.star_site(2, 3)
        srv.route(
            "/robots.txt",
            Reply(body="User-agent: *\nCrawl-delay: 0.4\n", content_type="text/plain"),
            host=0,
        )
        srv.route(
            "/robots.txt",
            Reply(body="User-agent: *\nCrawl-delay: 3600\n", content_type="text/plain"),
            host=1,
        )
        run = await crawl(seeds, tmp_path, fetch__delay=0.05, fetch__crawl_delay_cap=0.6)
        log0, log1 = srv.log(0)[1:], srv.log(1)[1:]
    assert run.stats.outcomes["indexed"] == 8
    _assert_spaced(log0, 0.4)
    _assert_spaced(log1, 0.6)  # capped: the crawl did not wait an hour


async def test_retry_after_slows_the_whole_host_only(tmp_path: Path) -> None:
    with FaultServer(hosts=2) as srv:
        seeds = srv.star_site(2, 6)
        srv.route("/p0", [Reply(429, headers={"Retry-After": "1"}), Reply(body=html("ok"))])
        srv.route("/p1", Reply(503, headers={"Retry-After": "99999999"}), host=1)
        run = await crawl(seeds, tmp_path, fetch__delay=0.02, fetch__retry_after_cap=1.5)
        log0, log1 = srv.log(0), srv.log(1)
    assert run.outcome(srv.url("/p0")) == "indexed"
    refused = next(h for h in log0 if h.status == 429)
    later = [h.start for h in log0 if h.start > refused.start]
    assert later and min(later) - refused.end >= 1.0 * SLACK
    # the other host went on while this one waited: one of its requests came between
    assert any(refused.end < h.start < min(later) for h in log1)
    # an absurd Retry-After gives the URL up, and holds its host for the cap at most
    assert run.outcome(srv.url("/p1", 1)) == "retry-after-too-long"
    assert run.stats.retries["http-429"] == 1


def test_politeness_slots_are_pure_bookkeeping() -> None:
    polite = Politeness(delay=1.0, per_host=2, crawl_delay_cap=5.0)
    assert polite.ready_at("a") == 0.0
    polite.enter("a")
    polite.enter("a")
    assert polite.ready_at("a") is None  # two in flight: full
    polite.leave("a")
    polite.set_crawl_delay("a", 60.0)
    assert polite.delay_of("a") == 5.0 and polite.delay_of("b") == 1.0
    polite.slow_down("b", 30.0)
    ready = polite.ready_at("b")
    assert ready is not None and ready >= 29.0
