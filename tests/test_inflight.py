"""The visits in flight of one crawl process (``pipeline/inflight.py``): a URL is held by the
first running visit that requested it, until that visit ends; a later visit of it waits."""

from __future__ import annotations

import asyncio

from indexer.pipeline.inflight import VisitsInFlight


async def test_a_url_fetched_through_a_redirect_is_held_until_its_visit_ends() -> None:
    flights = VisitsInFlight()
    r = flights.enter("http://h/r")
    flights.reached("http://h/a", r)
    assert "http://h/a" in flights and "http://h/r" in flights
    waiter = asyncio.create_task(flights.wait_for_other("http://h/a"))
    await asyncio.sleep(0.01)
    assert not waiter.done(), "the copy did not wait for the visit holding its URL"
    flights.leave(r)
    assert await asyncio.wait_for(waiter, 1.0) is r, "the waiter learns whose visit it was"
    assert "http://h/a" not in flights and "http://h/r" not in flights
    assert await flights.wait_for_other("http://h/a") is None


async def test_a_url_stays_with_the_first_visit_that_requested_it() -> None:
    flights = VisitsInFlight()
    first, second = flights.enter("http://h/a"), flights.enter("http://h/b")
    flights.reached("http://h/a", second)  # b redirected to a while a's own visit runs
    flights.leave(second)
    assert "http://h/a" in flights, "the second visit's end freed the first one's URL"
    flights.leave(first)
    assert "http://h/a" not in flights
