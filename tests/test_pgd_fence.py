"""Lease fencing (issue #31): one crawl process's PostgreSQL backends frozen (SIGSTOP) longer
than the lease while another crawls on. The other takes its hosts at the leases' expiry; at
the thaw the frozen process's waiting claim returns, and a process whose lease may have
expired fetches nothing of that host until it holds the lease again, read from its row. The
server log shows every gap between two requests to a host at least the delay (before the
fence: gaps of a few ms right after the thaw)."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg

from tests.faultserver import LOG_JITTER, FaultServer
from tests.pg_outage import HOSTS, MORE, cluster, frontier_url, out_urls, site, wait_docs
from tests.pgcluster import Cluster, continue_processes, stop_processes

__all__ = ["cluster"]  # the fixture, imported for its name
LEASE, DELAY, FROZEN = 3.0, 0.2, 6.0


def _crawl(cwd: Path, *args: str) -> subprocess.Popen[str]:
    """A crawl that outlives the freeze: statements may wait 30 s, the lease is 3 s."""
    cwd.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "INDEXER_EXTRACT_WORKERS": "0",
        "INDEXER_FRONTIER_LEASE_SECONDS": str(LEASE),
        "INDEXER_FRONTIER_STALL_SECONDS": "30",
    }
    cmd = [sys.executable, "-m", "indexer", "crawl", "--delay", str(DELAY), "--per-host", "1"]
    cmd += ["--out", "docs.jsonl", *args]
    return subprocess.Popen(cmd, cwd=cwd, env=env, stderr=subprocess.PIPE, text=True)


def _backends_of(cluster: Cluster, pid: int) -> list[int]:
    """The pids of the server's backends serving process ``pid`` (by its TCP ports)."""
    port = int(cluster.url().rsplit(":", 1)[1].split("/")[0])
    mine = psutil.Process(pid).net_connections(kind="tcp")
    ports = {c.laddr.port for c in mine if c.raddr and c.raddr.port == port}
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        rows = conn.execute("SELECT pid, client_port FROM pg_stat_activity").fetchall()
    return [int(row[0]) for row in rows if row[1] in ports]


def test_a_process_past_its_lease_fetches_nothing_of_the_host_until_it_holds_it_again(
    cluster: Cluster, tmp_path: Path
) -> None:
    url = frontier_url(cluster)
    procs: list[subprocess.Popen[str]] = []
    try:
        with FaultServer(HOSTS) as srv:
            seeds = site(srv, MORE)
            procs.append(_crawl(tmp_path / "a", "--frontier", url, *seeds))
            wait_docs(tmp_path / "a", 5, procs[0])
            procs.append(_crawl(tmp_path / "b", "--frontier", url, "--join"))
            wait_docs(tmp_path / "b", 3, *procs)
            stalled = _backends_of(cluster, procs[0].pid)
            assert stalled, "no backend of the first process found"
            stalled = stop_processes(stalled)
            time.sleep(FROZEN)
            thawed = time.monotonic()
            continue_processes(stalled)
            for proc in procs:
                _, err = proc.communicate(timeout=180)
                assert proc.returncode == 0, err[-3000:]
            hits = srv.log()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        for pid in cluster.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    for host in range(HOSTS):
        starts = sorted(h.start for h in hits if h.host == host and h.path != "/robots.txt")
        near = [b - a for a, b in itertools.pairwise(starts) if b > thawed - 1]
        assert near and min(near) >= DELAY - LOG_JITTER, (host, sorted(near)[:3])
        gaps = [b - a for a, b in itertools.pairwise(starts)]
        assert min(gaps) >= DELAY - LOG_JITTER, (host, min(gaps))
    urls = out_urls(tmp_path / "a") + out_urls(tmp_path / "b")
    assert len(set(urls)) == HOSTS * (MORE + 1), "a page is missing"
