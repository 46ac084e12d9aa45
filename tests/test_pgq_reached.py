"""A URL claimed by this process and then reached by another visit's redirect is no longer
in flight on the shared frontier (issue #20): its host can be given back (a host that stays
"busy" is never released, and two processes holding one host each starve)."""

from __future__ import annotations

import time
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier


def test_a_claimed_copy_reached_by_a_redirect_lets_its_host_go(pg_url: str, tmp_path: Path) -> None:
    with PgFrontier(pg_url, tmp_path / "a") as a:
        a.start_run(resume=False)
        a.add([("http://h/a", "h", 0)])
        assert a.claim("h", time.time()) is not None  # /a's queued copy, claimed
        a.leases.release_when_idle("h")  # nothing else queued: give h back once idle
        assert a.leases.held("h"), "held while /a is in flight"
        assert a.record_reached("http://h/a", "h", 0, "http://h/r", (None, None, "digest"))
        assert not a.leases.held("h"), "/a stayed in flight: h was never given back"
