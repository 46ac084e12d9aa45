"""The last process of a shared run does not close it ``finished`` while URLs another process
left queued when it was stopped remain (issue #20; found by a fresh attack: a joined process
got SIGTERM while the last one ended, its page stayed queued in a run recorded ``finished
(exit 0)``, and its ``--resume`` advice was refused: no crawl runs). The run stays open,
``interrupted``, saying how a ``--join`` continues it. And one process stopped while another
crawls does not write the run's phase (report and /admin said ``interrupted``: a second
attack). Real PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView


def test_urls_a_stopped_process_left_keep_the_run_open(pg_url: str, tmp_path: Path) -> None:
    with PgFrontier(pg_url, tmp_path / "a") as a:
        run = a.start_run(resume=False)
        a.add([("http://h/0", "h", 0), ("http://g/0", "g", 0)])
        with PgFrontier(pg_url, tmp_path / "b") as b:  # a process that joined
            b.start_run(resume=True)
            theirs = b.claim("h", time.time())
            assert theirs is not None
            b.release(theirs.url)  # b is stopped: its page goes back to the queue
            b.set_phase("interrupted", 130, "stopped by a signal while crawling")
        mine = a.claim("g", time.time())
        assert mine is not None
        a.finish(mine.url, "indexed", reached=True)
        a.set_phase("finished", 0)
        assert a.open_run() == run, "the run closed with a page left queued"
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
    assert (last.phase, last.finished) == ("interrupted", False), last
    assert "1 URL" in last.reason and "--join" in last.reason, last.reason


def test_one_process_stopped_is_not_the_runs_end_while_another_crawls(
    pg_url: str, tmp_path: Path
) -> None:
    with PgFrontier(pg_url, tmp_path / "a") as a:
        a.start_run(resume=False)
        with PgFrontier(pg_url, tmp_path / "b") as b:
            b.start_run(resume=True)
            b.set_phase("interrupted", 130, "stopped by a signal while crawling")
        with PgFrontierView(pg_url) as view:
            during = view.runs()[-1]
        a.set_phase("finished", 0)
    assert during.phase != "interrupted", f"a crawls it still: {during}"
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
    assert (last.phase, last.exit_code, last.finished) == ("finished", 0, True), last
