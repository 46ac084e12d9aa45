"""Host leases with several processes (issue #20): a process whose share of hosts is full
gives back the hosts it holds with nothing queued, so that a host still queued is never left
to nobody (two processes each holding a finished host stalled a crawl with
``--max-pages-per-host``: the dispatcher drops a host at its limit without giving it back)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.pg_fixtures import two_processes


def test_a_full_share_gives_back_finished_hosts_for_a_queued_one(
    pg_url: str, tmp_path: Path
) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        a.add([(f"http://{h}/", h, 0) for h in ("h1", "h2", "h3")])
        for frontier, host in ((a, "h1"), (b, "h2")):
            claimed = frontier.claim(host, time.time())
            assert claimed is not None
            frontier.finish(claimed.url, "indexed")  # the host stays held: its page limit
        a.leases.share = b.leases.share = 1  # two processes, one host with URLs queued
        assert a.leases.held("h1") and b.leases.held("h2")
        claimed = a.claim("h3", time.time())
        assert claimed is not None and claimed.url == "http://h3/", "h1 given back for h3"
        assert not a.leases.held("h1") and a.leases.held("h3")
        assert b.claim("h1", time.time()) is None, "nothing queued on h1"
