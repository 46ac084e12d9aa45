"""How ``--processes 2`` ends when the shared frontier goes away or the user stops it twice
(issue #20): every process that crawled writes its summary, so the added-up counts are what
the server served; each says once that PostgreSQL went away; the launch ends within a few
seconds of the failure; a stop arriving while a process already ends waits for its summary
and leaves no asyncio noise. Real processes, a cluster of each test's own
(:mod:`tests.pgcluster`, stopped by pid)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests import pg_outage as outage
from tests.faults_helpers import ended
from tests.faultserver import FaultServer
from tests.pg_outage import MORE, Launch, both_crawl, frontier_url, said_once, site
from tests.pgcluster import Cluster, continue_processes, stop_processes

cluster = outage.cluster  # the fixtures: a cluster of the test's own, crawls killed at its end
launch = outage.launch

#: Seconds a launch may take to end after the failure (each child's 5 s stop budget at most).
WITHIN = 8.0


def _two(
    cluster: Cluster, launch: Launch, tmp_path: Path, srv: FaultServer
) -> subprocess.Popen[str]:
    """``--processes 2`` over a site big enough that both crawl, once both wrote documents."""
    flags = ["--frontier", frontier_url(cluster), "--out", "docs.jsonl", "--processes", "2"]
    crawl = launch(tmp_path, *flags, *site(srv, MORE))
    deadline = time.monotonic() + 90
    while not both_crawl(tmp_path):
        if crawl.poll() is not None:
            raise AssertionError(f"the launch ended early: {crawl.communicate()[1][-3000:]}")
        assert time.monotonic() < deadline, "no two processes"
        time.sleep(0.05)
    return crawl


def _pages_served(srv: FaultServer) -> int:
    return sum(1 for hit in srv.log() if hit.status == 200 and hit.path != "/robots.txt")


def _summaries(err: str) -> list[int]:
    """The ``fetched`` count of each process line; fails on one without a summary."""
    lines = [line for line in err.splitlines() if line.startswith("process ")]
    assert len(lines) == 2 and not [x for x in lines if "no summary" in x], err[-3000:]
    return [int(re.search(r"fetched (\d+)", line).group(1)) for line in lines]  # type: ignore[union-attr]


def _total(err: str) -> int:
    heads = [line for line in err.splitlines() if line.startswith("fetched ")]
    assert heads, err[-3000:]
    return int(heads[-1].split()[1].rstrip(","))


def test_an_immediate_shutdown_ends_both_processes_with_their_summaries(
    cluster: Cluster, tmp_path: Path, launch: Launch
) -> None:
    with FaultServer(4) as srv:
        crawl = _two(cluster, launch, tmp_path, srv)
        os.kill(cluster.pid() or 0, signal.SIGQUIT)  # pg_ctl stop -m immediate
        gone = time.monotonic()
        code, err = ended(crawl, 60)
        took = time.monotonic() - gone
        served = _pages_served(srv)
    assert code == 2, err[-3000:]
    assert len(said_once(err, processes=2)) == 2, err[-3000:]
    fetched = _summaries(err)
    assert _total(err) == sum(fetched)
    # pages in flight at the outage were served but not counted: at most one per host
    assert served - 4 <= sum(fetched) <= served, (fetched, served)
    assert took < WITHIN, f"{took:.1f} s to end"


def test_a_server_that_stops_answering_ends_the_launch_within_the_bound(
    cluster: Cluster, tmp_path: Path, launch: Launch
) -> None:
    with FaultServer(4) as srv:
        crawl = _two(cluster, launch, tmp_path, srv)
        stalled = cluster.processes()
        stalled = stop_processes(stalled)
        gone = time.monotonic()
        try:
            code, err = ended(crawl, 60)
            took = time.monotonic() - gone
        finally:
            continue_processes(stalled)
        served = _pages_served(srv)
    assert code == 2, err[-3000:]
    named = said_once(err, processes=2)
    assert len(named) == 2 and all("frontier.stall_seconds=3" in line for line in named), err
    fetched = _summaries(err)
    assert served - 4 <= sum(fetched) <= served, (fetched, served)
    assert took < 3 + WITHIN, f"{took:.1f} s to end"


def test_two_ctrl_c_give_each_summary_and_no_asyncio_warning(
    cluster: Cluster, tmp_path: Path, launch: Launch
) -> None:
    with FaultServer(4) as srv:
        crawl = _two(cluster, launch, tmp_path, srv)
        crawl.send_signal(signal.SIGINT)
        time.sleep(0.3)
        crawl.send_signal(signal.SIGINT)
        code, err = ended(crawl, 60)
        served = _pages_served(srv)
    assert code == 130, err[-3000:]
    assert "Warning" not in err and "asyncio" not in err and "Traceback" not in err, err[-3000:]
    fetched = _summaries(err)
    assert served - 4 <= sum(fetched) <= served, (fetched, served)


def _stopped_before(
    cluster: Cluster, tmp_path: Path, url: str, *args: str
) -> tuple[int, str, float]:
    """Run ``indexer ARGS --frontier URL`` against a server SIGSTOPped before it starts:
    ``(exit code, stderr, seconds)``."""
    stalled = cluster.processes()
    stalled = stop_processes(stalled)
    env = {**os.environ, "INDEXER_FRONTIER_STALL_SECONDS": "3"}
    cmd = [sys.executable, "-m", "indexer", *args, "--frontier", url]
    started = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
        code, err = ended(proc, 60)
    finally:
        continue_processes(stalled)
    return code, err, time.monotonic() - started


def test_report_and_a_dry_run_give_up_on_a_stopped_server_within_the_stall_bound(
    cluster: Cluster, tmp_path: Path
) -> None:
    url = frontier_url(cluster)
    for args in (("report",), ("reindex", "--dry-run")):
        code, err, took = _stopped_before(cluster, tmp_path, url, *args)
        assert code == 2, err[-3000:]
        assert "frontier.url postgresql://" in err and "Traceback" not in err, err[-3000:]
        assert took < 3 + 5, f"{args}: {took:.1f} s"  # the bound, plus the start (was 12 s)
