"""``crawl.max_pages_per_host`` on a shared frontier counts the run's pages of a host across
processes (issue #20, ``postgres/hostcap.py``): a process taking a host over from another
claims only what is left of the cap, not a cap of its own."""

from __future__ import annotations

import time
from pathlib import Path

from indexer.crawl.frontier.postgres.leases import POLL_EVERY
from indexer.crawl.frontier.postgres.store import PgFrontier

CAP = 3


def _claim_all(frontier: PgFrontier, host: str) -> list[str]:
    """Claim and finish every URL of ``host`` the frontier gives this process."""
    got = []
    while (claimed := frontier.claim(host, time.time())) is not None:
        got.append(claimed.url)
        frontier.finish(claimed.url, "indexed", reached=True)
    return got


def test_a_host_taken_over_keeps_the_cap_counted_by_its_first_holder(
    pg_url: str, tmp_path: Path
) -> None:
    with (
        PgFrontier(pg_url, tmp_path / "a", max_pages_per_host=CAP) as a,
        PgFrontier(pg_url, tmp_path / "b", max_pages_per_host=CAP) as b,
    ):
        a.start_run(resume=False)
        b.start_run(resume=True)
        a.add([(f"http://h/{i}", "h", 0) for i in range(10)])
        first = [a.claim("h", time.time()) for _ in range(CAP - 1)]
        assert all(first), "a claims below the cap"
        for claimed in first:
            assert claimed is not None
            a.finish(claimed.url, "indexed", reached=True)
        assert b.claim("h", time.time()) is None, "held by a"
        a.leases.release("h")
        time.sleep(POLL_EVERY + 0.05)  # b's next look at the lease rows
        assert b.next_due("h") is not None, "h has URLs queued"
        taken = _claim_all(b, "h")
    assert len(taken) == 1, f"b claimed {len(taken)} past a's {CAP - 1}: {taken}"
