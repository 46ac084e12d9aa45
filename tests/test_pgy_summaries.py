"""The closing summary of ``indexer crawl --processes N`` counts from the shared frontier
(issue #31): after the processes failed without summaries (PostgreSQL refusing writes as
from a full disk) it still gives what the run indexed and says what ``--resume`` continues;
a process stopped and continued after its hosts were taken over does not count a document
twice. Real processes on a cluster of the test's own (:mod:`tests.pgcluster`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import time
from pathlib import Path

import psycopg

from tests import pg_outage as outage
from tests.faults_helpers import ended
from tests.faultserver import FaultServer
from tests.pg_fixtures import leaseholder_pids, start_crawl, two_process_flags
from tests.pg_outage import frontier_url
from tests.pgcluster import Cluster

cluster = outage.cluster
PAGES = 150
#: Seconds of the host leases in the stopped-process case.
LEASE = 2.0

#: A trigger that refuses every change to the frontier's URLs as PostgreSQL does when its
#: disk is full (SQLSTATE 53100), reads still answering.
_FULL = """
CREATE FUNCTION indexer.full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'
    USING ERRCODE = 'disk_full'; END $$;
CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE ON indexer.urls
    FOR EACH ROW EXECUTE FUNCTION indexer.full_disk();
"""


def _indexed_in_frontier(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM indexer.urls WHERE state='done' AND outcome='indexed'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_after_a_full_disk_the_summary_counts_from_the_frontier_and_names_resume(
    cluster: Cluster, tmp_path: Path
) -> None:
    url = frontier_url(cluster)
    flags = ["--frontier", url, "--delay", "0.02", "--processes", "2", "--out", "docs.jsonl"]
    with FaultServer(4) as srv:
        seeds = srv.star_site(4, PAGES)
        first = _crawl_until_full(url, tmp_path, [*flags, *seeds])
        code, err = first
        done = _indexed_in_frontier(url)
        summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
        assert code != 0
        assert summary["counted"] == "frontier" and summary["indexed"] == done > 0, err[-3000:]
        head = [line for line in err.splitlines() if line.startswith("fetched ")][-1]
        assert re.search(rf"indexed {done}\b", head), err[-3000:]
        left = 4 * (PAGES + 1) - done - summary["failed"] - summary["skipped"]
        assert summary["left"] == left > 0, (summary, err[-3000:])
        hint = f"run {summary['run']} stays open with {left} URLs to crawl: "
        assert hint + "the same command with --resume continues it" in err, err[-3000:]
        with psycopg.connect(url, autocommit=True) as conn:  # the disk has room again
            conn.execute("DROP TRIGGER full_disk ON indexer.urls")
        again = start_crawl(*flags, "--resume", "--summary-json", "s.json", *seeds, cwd=tmp_path)
        code, err = ended(again, 120)
    assert code == 0, err[-3000:]
    assert _indexed_in_frontier(url) == 4 * (PAGES + 1), err[-3000:]
    assert "stays open" not in err, err[-3000:]


def _crawl_until_full(url: str, cwd: Path, args: list[str]) -> tuple[int, str]:
    """Start ``crawl ARGS``; once the frontier holds 60 indexed URLs, PostgreSQL refuses
    every change to them (:data:`_FULL`); the launch's exit code and stderr."""
    proc = start_crawl(*args, "--summary-json", "s.json", cwd=cwd)
    try:
        deadline = time.monotonic() + 90
        while not _ready(url) or _indexed_in_frontier(url) < 60:
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "60 pages never indexed"
            time.sleep(0.1)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(_FULL)
        return ended(proc, 60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _ready(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regclass('indexer.urls') IS NOT NULL").fetchone()
    return bool(row and row[0])


def test_a_process_stopped_past_its_lease_and_continued_counts_no_document_twice(
    cluster: Cluster, tmp_path: Path
) -> None:
    url = frontier_url(cluster)
    env = {**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(LEASE)}
    flags = [*two_process_flags(url, 0.05), "--out", "docs.jsonl", "--summary-json", "s.json"]
    with FaultServer(4) as srv:
        seeds = srv.star_site(4, 80, delay=0.1)  # a page in flight when the process stops
        proc = start_crawl(*flags, *seeds, cwd=tmp_path, env=env)
        try:
            stopped = leaseholder_pids(url, proc, time.monotonic() + 60)[0]
            while _indexed_in_frontier(url) < 40:
                assert proc.poll() is None, proc.communicate()[1][-3000:]
                time.sleep(0.05)
            os.kill(stopped, signal.SIGSTOP)
            time.sleep(LEASE * 2.5)  # the other takes its hosts at the leases' expiry
            os.kill(stopped, signal.SIGCONT)
            code, err = ended(proc, 120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(stopped, signal.SIGCONT)
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
    by_process = [e["summary"]["indexed"] for e in summary["processes"] if e["summary"]]
    print(err[-2000:], by_process)
    assert code == 0, err[-3000:]
    assert _indexed_in_frontier(url) == 4 * 81
    assert summary["indexed"] == 4 * 81, (summary["indexed"], by_process)
    assert re.search(rf"^fetched \d+, indexed {4 * 81} ", err, re.M), err[-3000:]
