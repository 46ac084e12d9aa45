"""A host handed over between crawl processes loses no more than its gap (issue #20): the
next start a release writes is a gap after the last request, not after the release; a host
given back elsewhere is taken up within one look at the lease rows (one query for every host
held elsewhere), not at each host's own re-ask."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from indexer.crawl.frontier.postgres.leases import POLL_EVERY
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.politeness import GAP_MARGIN

DELAY = 0.5


@contextlib.contextmanager
def _pair(pg_url: str, root: Path) -> Iterator[tuple[PgFrontier, PgFrontier]]:
    with (
        PgFrontier(pg_url, root / "a", delay=DELAY) as a,
        PgFrontier(pg_url, root / "b", delay=DELAY) as b,
    ):
        a.start_run(resume=False)
        b.start_run(resume=True)
        yield a, b


def _row_next_allowed(frontier: PgFrontier, host: str) -> float:
    row: Any = frontier._db.execute(
        "SELECT next_allowed_at FROM host_leases WHERE host=?", (host,)
    ).fetchone()
    return float(row[0])


def test_a_release_keeps_the_gap_after_the_last_request_not_after_now(
    pg_url: str, tmp_path: Path
) -> None:
    with _pair(pg_url, tmp_path) as (a, _):
        a.add([("http://h/0", "h", 0), ("http://h/1", "h", 0)])
        claimed = a.claim("h", time.time())
        assert claimed is not None
        sent = time.time()
        a.leases.started("h", sent, sent=True)  # Politeness.sent: the request is written
        a.finish(claimed.url, "indexed", reached=True)
        time.sleep(0.3)  # the page's work after its request, then the share gives it back
        a.leases.release("h")
        allowed = _row_next_allowed(a, "h")
        assert allowed >= sent + DELAY, "never sooner than the delay after the last request"
        assert allowed <= sent + DELAY + GAP_MARGIN + 0.01, "not a delay after the release"


def test_a_request_reserved_but_not_written_holds_the_gap_from_the_release(
    pg_url: str, tmp_path: Path
) -> None:
    with _pair(pg_url, tmp_path) as (a, _):
        a.add([("http://h/0", "h", 0)])
        assert a.claim("h", time.time()) is not None
        a.leases.started("h", time.time() - 0.3, sent=False)  # Politeness.turn, unsent
        released = time.time()
        a.leases.release("h")
        assert _row_next_allowed(a, "h") >= released + DELAY


def test_a_host_given_back_is_taken_up_at_the_next_look(pg_url: str, tmp_path: Path) -> None:
    with _pair(pg_url, tmp_path) as (a, b):
        a.add([(f"http://h/{i}", "h", 0) for i in range(3)])
        claimed = a.claim("h", time.time())
        assert claimed is not None
        a.leases.started("h", time.time(), sent=True)
        time.sleep(DELAY)  # the page's work after its request: its gap has passed
        assert b.claim("h", time.time()) is None, "held by a"
        assert b.next_due("h") is not None
        a.finish(claimed.url, "indexed", reached=True)
        a.leases.release("h")
        time.sleep(POLL_EVERY + 0.05)
        due = b.next_due("h")
        assert due is not None and due <= time.time() + POLL_EVERY
        assert b.claim("h", time.time()) is not None, "taken up within a look, not 0.5 s"


def test_hosts_held_elsewhere_cost_one_query_a_look(pg_url: str, tmp_path: Path) -> None:
    hosts = [f"h{n}" for n in range(10)]
    with _pair(pg_url, tmp_path) as (a, b):
        a.add([(f"http://{h}/{i}", h, 0) for h in hosts for i in range(3)])
        for h in hosts:
            assert a.claim(h, time.time()) is not None
            assert b.claim(h, time.time()) is None
            assert b.next_due(h) is not None
        calls = 0
        execute = b._db.execute

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            return execute(*args, **kwargs)

        b._db.execute = counted  # type: ignore[method-assign]
        b.leases._renewed = time.monotonic() + 60  # no renewal within the count
        started = time.monotonic()
        while time.monotonic() - started < 1.2:  # the dispatcher's turns for 1.2 s
            for h in hosts:
                assert b.claim(h, time.time()) is None
                b.next_due(h)
            time.sleep(0.02)
        looks = 1.2 / POLL_EVERY + 1
        assert calls <= looks, f"{calls} queries for 10 hosts held elsewhere in 1.2 s"


def _owner(frontier: PgFrontier, host: str) -> str | None:
    row: Any = frontier._db.execute(
        "SELECT owner FROM host_leases WHERE host=?", (host,)
    ).fetchone()
    return None if row[0] is None else str(row[0])


def test_a_host_the_crawl_stopped_asking_for_goes_back_when_its_page_ends(
    pg_url: str, tmp_path: Path
) -> None:
    """Its last URL in flight, nothing queued: the dispatcher drops the host. Held on, URLs
    another process queues for it would wait for this one's next look at the queued hosts."""
    with _pair(pg_url, tmp_path) as (a, _):
        a.add([("http://h/0", "h", 0), ("http://g/0", "g", 0)])
        last = a.claim("h", time.time())
        other = a.claim("g", time.time())
        assert last is not None and other is not None
        assert a.next_due("h") is None and a.next_due("g") is None, "nothing queued"
        a.add([("http://g/1", "g", 1)])  # g's page queued more of g: asked for again
        a.finish(last.url, "indexed", reached=True)
        a.finish(other.url, "indexed", reached=True)
        assert _owner(a, "h") is None, "given back once its page ended"
        assert _owner(a, "g") == a.leases.owner, "kept: its URLs are asked for again"


def test_a_joining_process_sees_the_hosts_whose_urls_are_all_in_flight(
    pg_url: str, tmp_path: Path
) -> None:
    with _pair(pg_url, tmp_path) as (a, b):
        a.add([("http://h/0", "h", 0), ("http://g/0", "g", 0), ("http://g/1", "g", 0)])
        assert a.claim("h", time.time()) is not None  # h's only URL in flight in a
        assert b.hosts_with_queued() == ["g", "h"], "h may queue more and be handed over"
