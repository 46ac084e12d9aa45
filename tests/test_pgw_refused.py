"""A new run is refused on a shared frontier while a process crawls its open run (issue #20,
found by a fresh attack): a plain ``indexer crawl`` beside a running crawl, or a
``reindex``, used to start a run of its own, which ended the running one under its
processes — recorded ``finished (exit 0)`` with its queue left. The refusal names
``--join`` (crawl) or ``frontier.url`` (reindex) and the running process; once the crawl
ended, a new run starts as before; a SIGSTOPped crawl of this machine, its heartbeat lapsed,
still counts as crawling (a second attack). Real PostgreSQL, the first crawl a real process. And a
process that ended is not said to still crawl the run it leaves, nor one killed whose data
directory a replacement took on said to need a drain (the same attack)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from indexer.crawl.frontier.members import CRAWLING, Member, died, to_drain
from indexer.crawl.frontier.postgres.members import LEAVING, STILL_CRAWLS, open_lines
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.errors import StateError
from tests.faults_helpers import cli, ended
from tests.faultserver import FaultServer, Reply, html

PAGES = 30
#: The first crawl's lease (s): its heartbeat lapses soon after a SIGSTOP.
LEASE = 2.0


def _crawling(pg_url: str) -> bool:
    """Whether a process crawls the frontier's open run (False before the frontier exists)."""
    with contextlib.suppress(StateError), PgFrontierView(pg_url) as view:
        runs = view.runs()
        if not runs or runs[-1].finished:
            return False
        # with its progress written: the row that tells a stopped process from a dead one
        return any(m.state == CRAWLING and m.progress for m in view.members(runs[-1].id))
    return False


def test_a_new_run_is_refused_while_the_open_one_is_crawled(pg_url: str, tmp_path: Path) -> None:
    with FaultServer(2) as srv:
        srv.page("/", "home", [f"/p{i}" for i in range(PAGES)])
        for i in range(PAGES):
            srv.route(f"/p{i}", Reply(body=html(f"page {i}", f"text of page {i} " * 20)))
        srv.page("/", "other", [], host=1)
        mine = ["--data-dir", str(tmp_path / "a"), "--out", str(tmp_path / "a.jsonl")]
        command = [sys.executable, "-m", "indexer", "crawl", srv.url("/"), "--frontier", pg_url]
        first = subprocess.Popen(
            [*command, *mine, "--delay", "0.15", "-q"],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(LEASE)},
        )
        try:
            deadline = time.monotonic() + 60
            while not _crawling(pg_url):
                assert first.poll() is None and time.monotonic() < deadline, "no crawl ran"
                time.sleep(0.1)
            other = ["--frontier", pg_url, "--data-dir", str(tmp_path / "b")]
            code, err = cli("crawl", srv.url("/", 1), *other, "--out", str(tmp_path / "b.jsonl"))
            assert code == 2 and "--join: run 1 is being crawled by 1 process (pid " in err, err
            assert "add --join to crawl with it" in err and "Traceback" not in err, err
            dead_solr = ["--solr", "http://127.0.0.1:9/solr"]  # never asked: refused first
            code, err = cli("reindex", *other, *dead_solr, "-q")
            assert code == 2 and "frontier.url: run 1 is being crawled by 1 process" in err, err
            assert "run the reindex once it has ended" in err, err
            first.send_signal(signal.SIGSTOP)  # past its lease: no heartbeat, but it runs here
            try:
                time.sleep(LEASE + 1.5)
                code, err = cli("crawl", srv.url("/", 1), *other, "--out", f"{tmp_path}/b.jsonl")
            finally:
                first.send_signal(signal.SIGCONT)
            assert code == 2 and "--join: run 1 is being crawled by 1 process" in err, err
            code, err = ended(first, 120)
            assert code == 0, err[-2000:]
        finally:
            if first.poll() is None:
                first.kill()
                first.wait(10)
        lines = (tmp_path / "a.jsonl").read_text().splitlines()
        assert len(lines) == PAGES + 1, "the running crawl lost pages to the refused ones"
        with PgFrontierView(pg_url) as view:
            runs = view.runs()
        assert [(r.id, r.phase, r.exit_code) for r in runs] == [(1, "finished", 0)], runs
        # the crawl ended: a new run starts as before (at delay 0: the first run's URLs,
        # outside this one's scope, take a politeness turn each to end, see the notes)
        out = ["--out", str(tmp_path / "b.jsonl"), "--delay", "0"]
        code, err = cli("crawl", srv.url("/", 1), *other, *out)
        assert code == 0, err


def test_a_process_that_ended_is_not_said_to_crawl_the_run_it_leaves() -> None:
    ended_one = Member("m1:4242:ab", "m1:/d/p1", 0.0, None, "finished", 0, 1.0, False)
    crawling = Member("m1:4343:cd", "m1:/d/p2", 0.0, None, None, None, None, True)
    lines = open_lines([("m1:/d/p1", 0), ("m1:/d/p2", None)], [ended_one, crawling])
    assert lines[0].endswith(LEAVING) and "ended finished (exit 0)" in lines[0], lines
    assert lines[1] == f"pid 4343 on m1 (/d/p2) {STILL_CRAWLS}", lines  # not "crawling still"


def test_a_dead_process_whose_directory_was_taken_on_is_not_to_drain() -> None:
    killed = Member("m1:4285:ab", "m1:/d/p0", 0.0, None, None, None, None, False)
    replacement = Member("m1:4566:cd", "m1:/d/p0", 5.0, None, "finished", 0, 9.0, False)
    other = Member("m1:4600:ef", "m1:/d/j", 6.0, None, None, None, None, False)
    assert to_drain([killed, replacement, other]) == [other]  # j's outbox is nobody's yet
    assert died([killed, replacement, other]) == [killed, other]  # it died all the same
