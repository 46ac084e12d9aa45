"""Host leases shared by crawl processes (issue #20): a process that joins gets its half of the
hosts soon, also while the first one has a URL of every host in flight, and a host another
process holds ends the crawl's wait once nothing of it is queued."""

from __future__ import annotations

import time
from pathlib import Path

from indexer.crawl.frontier.postgres.leases import ASK_AGAIN, POLL_EVERY
from indexer.crawl.frontier.postgres.store import PgFrontier
from tests.pg_fixtures import read_elsewhere

HOSTS = [f"h{n}" for n in range(4)]
LEASE = 0.9  # renewed, and the share looked at, every 0.3 s


def _queue(frontier: PgFrontier, per_host: int) -> None:
    frontier.add([(f"http://{h}/{i}", h, 0) for h in HOSTS for i in range(per_host)])


def _claim_all(frontier: PgFrontier) -> list[str]:
    got = [frontier.claim(h, time.time()) for h in HOSTS]
    return [c.url for c in got if c is not None]


def test_a_joining_process_gets_half_of_the_busy_hosts(pg_url: str, tmp_path: Path) -> None:
    with (
        PgFrontier(pg_url, tmp_path / "a", lease_seconds=LEASE) as first,
        PgFrontier(pg_url, tmp_path / "b", lease_seconds=LEASE) as second,
    ):
        first.start_run(resume=False)
        _queue(first, 3)
        in_flight = _claim_all(first)
        assert len(in_flight) == 4, "alone, the first process holds every host"
        second.start_run(resume=True)
        assert _claim_all(second) == [], "every host is held"
        time.sleep(LEASE / 3 + 0.05)
        kept = _claim_all(first)
        assert len(kept) == 2, "no new URL of the hosts beyond its share"
        for url in in_flight + kept:
            first.finish(url, "indexed", reached=True)
        time.sleep(ASK_AGAIN + 0.05)
        taken = _claim_all(second)
        assert len(taken) == 2, "the joiner takes the hosts given back"
        again = _claim_all(first)
        assert len(again) == 2, "the first keeps its share busy"
        hosts = {u.split("/")[2] for u in taken}
        assert hosts.isdisjoint(u.split("/")[2] for u in again), "one process per host"
        every = in_flight + kept + taken + again
        assert len(set(every)) == len(every) == 10, "nothing claimed twice"


def test_a_host_beyond_the_share_goes_while_its_pages_wait(pg_url: str, tmp_path: Path) -> None:
    """A page held for the site-wide verdict stays claimed: the host is given back when the
    crawl asks for it again (its politeness slot is free), not only when its pages end."""
    with (
        PgFrontier(pg_url, tmp_path / "a", lease_seconds=LEASE) as first,
        PgFrontier(pg_url, tmp_path / "b", lease_seconds=LEASE) as second,
    ):
        first.start_run(resume=False)
        _queue(first, 3)
        assert len(_claim_all(first)) == 4
        second.start_run(resume=True)
        _claim_all(second)
        time.sleep(LEASE / 3 + 0.05)
        assert len(_claim_all(first)) == 2  # the share looked at: two hosts go, unfinished
        time.sleep(ASK_AGAIN + 0.05)
        assert len(_claim_all(second)) == 2


def test_a_host_held_elsewhere_with_nothing_queued_ends_the_wait(
    pg_url: str, tmp_path: Path
) -> None:
    with (
        PgFrontier(pg_url, tmp_path / "a") as first,
        PgFrontier(pg_url, tmp_path / "b") as second,
    ):
        first.start_run(resume=False)
        first.add([("http://h/0", "h", 0), ("http://h/1", "h", 0)])
        claimed = first.claim("h", time.time())
        assert claimed is not None
        second.start_run(resume=True)
        assert second.claim("h", time.time()) is None
        due = second.next_due("h")
        assert due is not None, "a URL is queued: asked for again later"
        assert second.next_due("h") == due, "answered without a new query until then"
        last = first.claim("h", time.time())
        assert last is not None
        time.sleep(ASK_AGAIN + 0.05)
        assert second.claim("h", time.time()) is None
        assert second.next_due("h") is not None, "its last page may queue more: waited for"
        for url in (claimed.url, last.url):
            first.finish(url, "indexed", reached=True)
        time.sleep(POLL_EVERY + 0.05)
        assert second.claim("h", time.time()) is None
        assert second.next_due("h") is None, "nothing left: the crawl stops waiting for it"


def test_hosts_with_nothing_left_do_not_fill_the_share(pg_url: str, tmp_path: Path) -> None:
    """The crawl stops asking for a host whose last page is in flight: once that page ends,
    the host's lease goes back at the next look at the share, so the share stays free for
    hosts that still have URLs queued."""
    with (
        PgFrontier(pg_url, tmp_path / "a", lease_seconds=LEASE) as first,
        PgFrontier(pg_url, tmp_path / "b", lease_seconds=LEASE) as second,
    ):
        first.start_run(resume=False)
        first.add([(f"http://{h}/0", h, 0) for h in HOSTS])
        in_flight = _claim_all(first)
        second.start_run(resume=True)
        _claim_all(second)
        for url in in_flight:
            first.finish(url, "indexed", reached=True)
        first.add([("http://late/0", "late", 1)])
        time.sleep(LEASE / 3 + 0.05)
        assert first.claim("late", time.time()) is not None, "the drained hosts went back"
        owners = read_elsewhere(first, "SELECT host FROM host_leases WHERE owner IS NOT NULL")
        assert sorted(r[0] for r in owners) == ["late"]
