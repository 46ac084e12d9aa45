"""A page whose verdict waits is not a URL in flight (issue #20).

The site-wide duplicate check (:mod:`indexer.pipeline.sitewide`) holds a host's first pages
back until the host has enough of them or the holding process's crawl ends; they stay
``fetching`` with the run's hash noted. A host with only such pages left (a resumed run, a
small host) was taken for one with URLs in flight: every process waited for it, so no
process's crawl ended and the held pages were never released (the crawl hung).
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.pg_fixtures import two_processes

HOST = "h.test"


def test_a_held_page_keeps_no_process_waiting_for_its_host(pg_url: str, tmp_path: Path) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        a.add([(f"http://{HOST}/held", HOST, 0), (f"http://{HOST}/going", HOST, 0)])
        held = a.claim(HOST, time.time())
        assert held is not None
        a.note_hash(held.url, "d" * 40)  # fetched and hashed: its verdict waits
        going = a.claim(HOST, time.time() + 1)
        assert going is not None
        assert HOST in b.hosts_with_queued(), "a URL really in flight is waited for"
        a.finish(going.url, "indexed")
        assert HOST not in b.hosts_with_queued(), "only a held page is left"
        assert b.next_due(HOST) is None, "the other process waits for the held page"
        assert a.next_due(HOST) is None, "the holder waits for its own held page"
