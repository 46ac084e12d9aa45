"""A ``--join`` process killed with -9 (issue #20 views): the process that ends last says that
the run stays open because of it — its pid, data directory and README's drain command
(``indexer crawl --frontier URL --join --data-dir DIR``), not "other processes crawl it" —,
``indexer report`` gives that command rather than ``--resume``, and running it drains the
dead one's outbox and closes the run, whose record says which process died. Real crawl
processes, real PostgreSQL, real Solr, a real local site."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from indexer.crawl.frontier.postgres.view import PgFrontierView
from tests.faults_helpers import ended
from tests.faultserver import FaultServer
from tests.recrawl_site import solr_docs

HOSTS, PAGES, LEASE = 3, 25, "2"


def _crawl(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "INDEXER_EXTRACT_WORKERS": "0", "INDEXER_FRONTIER_LEASE_SECONDS": LEASE}
    return subprocess.Popen(
        [sys.executable, "-m", "indexer", "crawl", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait(pg_url: str, query: str, proc: subprocess.Popen[str], *params: object) -> None:
    """Wait until ``query`` finds a row while ``proc`` runs."""
    deadline = time.monotonic() + 60
    with psycopg.connect(pg_url, autocommit=True) as conn:
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(psycopg.errors.UndefinedTable):
                if conn.execute(query, params).fetchone():
                    return
            time.sleep(0.05)
    err = proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
    raise AssertionError(f"never found ({query}): {err[-2000:]}")


def _report(pg_url: str, data_dir: Path) -> str:
    from indexer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert main(["report", "--frontier", pg_url, "--data-dir", str(data_dir)]) == 0
    return out.getvalue()


def test_a_killed_join_is_named_with_its_drain_command_which_finishes_the_run(
    pg_url: str, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    common = ["--frontier", pg_url, "--solr", base, "--core", core, "--delay", "0.2"]
    joined_dir = tmp_path / "j"
    with FaultServer(HOSTS) as srv:
        starter = _crawl(
            *common,
            "--data-dir",
            str(tmp_path / "s"),
            *srv.star_site(HOSTS, PAGES, delay=0.01),
            cwd=tmp_path,
        )
        joiner = None
        try:
            _wait(pg_url, "SELECT 1 FROM indexer.run_members", starter)  # the run is open
            joiner = _crawl(*common, "--join", "--data-dir", str(joined_dir), cwd=tmp_path)
            held = "SELECT 1 FROM indexer.host_leases WHERE owner LIKE %s"
            _wait(pg_url, held, joiner, f"%:{joiner.pid}:%")  # it crawls a host
            time.sleep(0.8)  # a few pages of its own, some of them in its outbox
            os.kill(joiner.pid, signal.SIGKILL)
            joiner.wait(10)
            _, said = starter.communicate(timeout=120)
        finally:
            for proc in (starter, joiner):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
        assert starter.returncode == 0, said[-3000:]
        report = _report(pg_url, tmp_path / "s")
        drain = _crawl(*common, "--join", "--data-dir", str(joined_dir), cwd=tmp_path)
        _, drained = ended(drain)
    assert "other process(es) crawl it" not in said
    assert f"pid {joiner.pid}" in said and f"--join --data-dir {joined_dir}" in said, said[-2000:]
    assert "--resume" not in report and f"--join --data-dir {joined_dir}" in report, report
    assert f"pid {joiner.pid}" in report and "gone without ending" in report, report
    assert drain.returncode == 0, drained[-2000:]
    every = sorted(
        srv.url(p, h) for h in range(HOSTS) for p in ["/", *[f"/p{i}" for i in range(PAGES)]]
    )
    assert sorted(solr_docs(base, core)) == every, "nothing lost"
    after = _report(pg_url, tmp_path / "s")
    assert "finished (exit 1)" in after and f"died: pid {joiner.pid}" in after, after
    assert "3 processes: 2 ended, 1 gone" in after, after
    with PgFrontierView(pg_url) as view:
        closed = view.progress.all()[view.runs()[-1].id]
    assert closed.outcomes == {"indexed": len(every)}, "the run's counts: every process's"
