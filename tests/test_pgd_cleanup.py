"""Throwaway PostgreSQL clusters never outlive their owner (issue #20): a SIGTERM to the owner
(the benchmark, a pytest run stopped by ``timeout``) stops its clusters by pid; a cluster
whose owner was killed with -9 is stopped by the next :func:`tests.pgcluster.start_cluster`
(by the pid in its ``postmaster.pid``), and a cluster whose owner lives is left alone."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import pgcluster

REPO = Path(__file__).resolve().parent.parent
_OWNER = """
import sys, time
from tests.pgcluster import start_cluster
cluster = start_cluster()
print(cluster.root, cluster.pid(), flush=True)
time.sleep(600)
"""


def _owner(tmp: Path) -> tuple[subprocess.Popen[str], Path, int]:
    """A process that starts a cluster in ``tmp`` and sleeps: (it, the cluster's root, pid)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _OWNER],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    root, pid = proc.stdout.readline().split()
    return proc, Path(root), int(pid)


def _gone(pid: int, within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def _running_under(tmp: Path, naming: str = "") -> list[int]:
    """The pids of the processes whose command line names a path under ``tmp`` (the
    benchmark's site server writes its log there), and ``naming`` too."""
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if str(tmp) in cmdline and naming in cmdline:
                pids.append(int(proc.name))
    return pids


@pytest.fixture
def tmp(pg_cluster: pgcluster.Cluster) -> Iterator[Path]:
    """A temporary directory of its own for the owners' clusters (TMPDIR), which the
    cluster's user (under root: indexer-pg) can enter, unlike pytest's ``tmp_path``
    (``pg_cluster`` for its skip, or failure under CI, without PostgreSQL)."""
    path = Path(tempfile.mkdtemp(prefix="pgd-owners-"))
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        pgcluster.stop_orphans(path)
        shutil.rmtree(path, ignore_errors=True)


def test_sigterm_to_the_owner_stops_its_cluster(tmp: Path) -> None:
    proc, root, pid = _owner(tmp)
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == -signal.SIGTERM, "it still dies of the signal"
        assert _gone(pid), "the cluster outlived its owner's SIGTERM"
        assert not root.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
        pgcluster.Cluster(root, 0, Path()).stop()


def test_a_cluster_of_an_owner_killed_9_is_stopped_by_the_next_start(tmp: Path) -> None:
    proc, root, pid = _owner(tmp)
    live, live_root, live_pid = _owner(tmp)
    try:
        proc.kill()
        proc.wait(10)
        assert not _gone(pid, within=1.0), "killed with -9, the owner stopped nothing"
        assert pgcluster.stop_orphans(tmp) == [root]
        assert _gone(pid) and not root.exists()
        assert not _gone(live_pid, within=0.5), "the cluster of a live owner was stopped"
    finally:
        for owner in (proc, live):
            if owner.poll() is None:
                owner.send_signal(signal.SIGTERM)
                owner.wait(30)
        for left in (root, live_root):
            pgcluster.Cluster(left, 0, Path()).stop()
    assert _gone(live_pid)


def test_the_benchmark_stopped_with_sigterm_stops_its_cluster(tmp: Path) -> None:
    bench = subprocess.Popen(
        [sys.executable, "scripts/bench/throughput.py", "--part", "pg", "--hosts", "2"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pid = None
    try:
        deadline = time.monotonic() + 90
        site: list[int] = []
        while not (pid and site) and time.monotonic() < deadline and bench.poll() is None:
            for root in tmp.glob(f"{pgcluster.PREFIX}*"):
                pid = pgcluster.Cluster(root, 0, Path()).pid()
            site = _running_under(tmp, "throughput_site")
            time.sleep(0.2)
        assert pid is not None, "the benchmark started no cluster"
        assert site, "the benchmark's site server never ran: the last check would hold vacuously"
        bench.send_signal(signal.SIGTERM)
        bench.wait(60)
        assert _gone(pid), "the benchmark's cluster outlived its SIGTERM"
        assert not list(tmp.glob(f"{pgcluster.PREFIX}*"))
        left = _running_under(tmp)
        assert all(_gone(p, 10.0) for p in left), f"the benchmark left processes: {left}"
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait(10)
