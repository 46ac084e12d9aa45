"""The gap after a written request carries a small margin (issue #16's delay bound): the
host must never see two request starts closer than the delay, and loopback showed the
arrivals jitter by a few milliseconds. With no delay there is no margin (no throttle)."""

from __future__ import annotations

import time

from indexer.crawl.politeness import GAP_MARGIN, Politeness


def test_the_next_start_after_a_written_request_is_delay_plus_margin() -> None:
    polite = Politeness(0.5, 1, 30.0)
    before = time.monotonic()
    polite.sent("a")
    ready = polite.ready_at("a")
    assert ready is not None and ready >= before + 0.5 + GAP_MARGIN
    assert ready <= time.monotonic() + 0.5 + GAP_MARGIN
    assert 0 < GAP_MARGIN <= 0.01  # a few ms: 1-2 % of a 0.5 s bound at most


def test_a_crawl_delay_gets_the_margin_and_no_delay_gets_none() -> None:
    polite = Politeness(0.0, 1, 30.0)
    polite.sent("a")
    ready = polite.ready_at("a")
    assert ready is not None and ready <= time.monotonic()
    polite.set_crawl_delay("b", 2.0)
    before = time.monotonic()
    polite.sent("b")
    ready = polite.ready_at("b")
    assert ready is not None and ready >= before + 2.0 + GAP_MARGIN
