"""``indexer reindex`` on the shared frontier when PostgreSQL goes away mid-job (issue #20):
the job prints its summary of what was done, then one line naming ``frontier.url`` and what
to run once the server is back — the same command again (reindex has no ``--resume``) —
and exits 2, no traceback; ``indexer report`` advises a reindex for the run it left open,
not a crawl's ``--join`` (and so does ``/admin``); the same command then runs the job to its
end. A real cluster of
the test's own, stopped (fast shutdown) under the running job, and a real Solr."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from indexer.crawl.frontier.members import Member
from indexer.crawl.frontier.progress import Progress
from indexer.crawl.frontier.runs import RunRecord
from indexer.web.admin.render import environment
from indexer.web.admin.state import RunRow
from tests import pg_outage as outage
from tests.faults_helpers import ended
from tests.faultserver import FaultServer
from tests.pg_outage import frontier_url, site
from tests.pgcluster import Cluster

cluster = outage.cluster  # the fixture: a cluster of the test's own, stopped by pid
ENV = {"INDEXER_EXTRACT_WORKERS": "0", "INDEXER_FRONTIER_LEASE_SECONDS": "3"}


def _indexer(cwd: Path, *args: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "indexer", *args]
    env = {**os.environ, **ENV}
    return subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _run(cwd: Path, *args: str) -> tuple[int, str, str]:
    proc = _indexer(cwd, *args)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


@pytest.mark.solr
def test_a_reindex_that_loses_postgresql_says_to_run_it_again(
    cluster: Cluster, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, _ = solr_core
    flags = ["--frontier", frontier_url(cluster), "--solr", base, "--data-dir", "d"]
    with FaultServer(4) as srv:
        seeds = site(srv)
        code, _, err = _run(tmp_path, "crawl", "--delay", "0", "-q", *flags, *seeds)
        assert code == 0, err[-3000:]
        crawled = len(srv.log())
        job = _indexer(tmp_path, "reindex", "--delay", "0.1", *flags)
        deadline = time.monotonic() + 60
        while len(srv.log()) < crawled + 12:  # the recrawl is under way
            assert job.poll() is None and time.monotonic() < deadline, job.communicate()[1]
            time.sleep(0.05)
        os.kill(cluster.pid() or 0, signal.SIGINT)  # pg_ctl stop -m fast
        code, err = ended(job, 60)
        assert code == 2, err[-3000:]
        assert "Traceback" not in err and "unrecognized" not in err, err[-3000:]
        lines = err.splitlines()
        named = [line for line in lines if "frontier.url" in line]
        assert len(named) == 1 and named[0] == lines[-1], err[-3000:]
        assert "PostgreSQL went away" in named[0], named
        assert named[0].endswith("start it, then run the same command again"), named
        assert any(line.startswith("fetched ") for line in lines), "no summary"
        cluster.start()
        time.sleep(3.5)  # the job's heartbeat expires: its process reads as gone
        code, report, err = _run(tmp_path, "report", *flags[:2], "--data-dir", "d")
        assert code == 0, err[-3000:]
        assert "indexer crawl" not in report, report
        assert f"indexer reindex --frontier URL --data-dir {tmp_path / 'd'}" in report, report
        code, _, err = _run(tmp_path, "reindex", "--delay", "0", "-q", *flags)
        assert code == 0, err[-3000:]


def test_the_admin_page_advises_a_reindex_for_a_reindex_run_left_open() -> None:
    gone = Member("m1:4242:ab", "m1:/var/lib/indexer/r", 0.0, None, None, None, None, False)
    record = RunRecord(3, "crawling", None, "", False)
    advice = {
        kind: RunRow(record, 0.0, None, Progress(3, kind, 0.0), [gone]).gone_members[0][1:]
        for kind in ("crawl", "reindex")
    }
    assert advice["reindex"] == ("indexer reindex --frontier URL --data-dir /var/lib/indexer/r", "")
    command, note = advice["crawl"]
    assert command == "indexer crawl --frontier URL --join --data-dir /var/lib/indexer/r"
    assert "--join" not in note and "--solr" in note, note  # what a --join does not adopt


def test_the_admin_page_gives_the_join_note_for_a_crawl_run_only() -> None:
    gone = Member("m1:4242:ab", "m1:/var/lib/indexer/r", 0.0, None, None, None, None, False)
    record = RunRecord(3, "crawling", None, "", False)
    said: dict[str, list[str]] = {}
    for kind in ("crawl", "reindex"):
        row = RunRow(record, 0.0, None, Progress(3, kind, 0.0), [gone])
        page = environment().get_template("progress.html").render(run=row)
        said[kind] = [line for line in page.splitlines() if "gone-member" in line]
    assert len(said["crawl"]) == 1 and "--solr" in said["crawl"][0], said
    assert len(said["reindex"]) == 1 and "--solr" not in said["reindex"][0], said
    assert "indexer reindex --frontier URL" in said["reindex"][0], said
