"""The record of a run resumed after PostgreSQL went away (issue #20, views of a shared run).

The crawl processes stop with exit 2 and the "went away" line, unable to write their end;
``--resume`` (the same command) ends 0 with every page. The run's record then says
``finished (exit 0)``, not that the cut-off processes died; ``indexer report`` and the
dashboard call them stopped when PostgreSQL went away and continued by the resume, with no
drain command. Real crawl processes, a real PostgreSQL cluster of each test's own (it is
stopped), a real local site (:mod:`tests.pg_outage`'s)."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from indexer.crawl.frontier.postgres.cutoff import NOTE
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.web.admin.state import overview
from tests import pg_outage as outage
from tests.faults_helpers import ended
from tests.faultserver import FaultServer
from tests.pgcluster import Cluster, start_cluster


@pytest.fixture
def own(pg_cluster: Cluster) -> Iterator[Cluster]:
    """A cluster of this test's own (stopped mid-test), stopped by pid at the end; commits
    survive a -9 of the server."""
    cluster = start_cluster()
    try:
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET synchronous_commit = on")
            conn.execute("SELECT pg_reload_conf()")
        yield cluster
    finally:
        cluster.stop()


def _report(url: str, data_dir: Path) -> str:
    from indexer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert main(["report", "--frontier", url, "--data-dir", str(data_dir)]) == 0
    return out.getvalue()


def _cut_and_resume(own: Cluster, tmp_path: Path, flags: list[str], kill: bool) -> tuple[str, str]:
    """Crawl with ``flags``; stop the server mid-crawl (``kill``: -9 of every server
    process, else a fast shutdown); start it; resume; both ends asserted. Returns what
    ``indexer report`` prints before the resume and after it."""
    with FaultServer(outage.HOSTS) as srv:
        seeds = outage.site(srv, outage.MORE)
        crawl = outage.start_crawl(tmp_path, *flags, *seeds)
        try:
            outage.wait_docs(tmp_path, 12, crawl)
            deadline = time.monotonic() + 90
            while "--processes" in flags and not outage.both_crawl(tmp_path):
                assert crawl.poll() is None and time.monotonic() < deadline, "no two processes"
                time.sleep(0.05)
            for pid in own.processes() if kill else [own.pid() or 0]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL if kill else signal.SIGINT)
            code, err = ended(crawl, 60)
        finally:
            if crawl.poll() is None:
                crawl.kill()
                crawl.wait(10)
        assert code == 2 and "PostgreSQL went away" in err, err[-3000:]
        own.start()
        before = _report(flags[1], tmp_path / ".indexer" / "crawl")
        code, err = ended(outage.start_crawl(tmp_path, *flags, "--resume"), within=150)
        assert code == 0, err[-3000:]
        assert sorted(set(outage.out_urls(tmp_path))) == outage.every_page(srv, outage.MORE)
    return before, _report(flags[1], tmp_path / ".indexer" / "crawl")


def _record(url: str) -> tuple[str | None, int | None, str, list[str]]:
    with PgFrontierView(url) as view:
        run = view.runs()[-1]
        return run.phase, run.exit_code, run.reason, [m.state for m in view.members(run.id)]


def test_a_single_crawl_resumed_after_a_fast_shutdown_is_recorded_finished_exit_0(
    own: Cluster, tmp_path: Path
) -> None:
    url = outage.frontier_url(own)
    flags = ["--frontier", url, "--out", "docs.jsonl"]
    before, report = _cut_and_resume(own, tmp_path, flags, False)
    assert "stopped when PostgreSQL went away (exit 2), not continued yet" in before, before
    phase, code, reason, states = _record(url)
    assert (phase, code) == ("finished", 0), reason
    assert "died" not in reason and "stopped when PostgreSQL went away" in reason, reason
    assert states == ["ended", "ended"], states
    assert "finished (exit 0)" in report and "gone without ending" not in report, report
    assert "stopped when PostgreSQL went away (exit 2); continued by the resume" in report
    assert "--join --data-dir" not in report, "nothing to drain"
    assert not (tmp_path / ".indexer" / "crawl" / NOTE).exists(), "the note was settled"
    row = overview(None, url).runs[0]
    assert not row.gone and row.gone_members == [], row
    assert [m.continued for m in row.members] == [True, False]


def test_two_processes_resumed_after_a_kill_9_of_the_server_are_not_recorded_dead(
    own: Cluster, tmp_path: Path
) -> None:
    url = outage.frontier_url(own)
    flags = ["--frontier", url, "--out", "docs.jsonl", "--processes", "2"]
    before, report = _cut_and_resume(own, tmp_path, flags, True)
    assert before.count("(exit 2), not continued yet") == 2, before
    phase, code, reason, states = _record(url)
    assert (phase, code) == ("finished", 0), reason
    assert "died" not in reason, reason
    assert states == ["ended"] * 4, (states, reason)
    assert "gone without ending" not in report and "4 processes: 4 ended" in report, report
    assert report.count("(exit 2); continued by the resume") == 2, report
