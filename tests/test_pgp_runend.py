"""The end of a run shared by several crawl processes (issue #20): the run is finished only
when every process's outbox is empty and committed, whoever ends last closes it, and the
missed-ids step runs once per run under a run lease."""

from __future__ import annotations

from pathlib import Path

import psycopg

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.pipeline.reconcile import reconcile
from indexer.settings import load_settings
from tests.pg_fixtures import two_processes


def _runs(url: str) -> list[tuple[str | None, bool]]:
    with PgFrontierView(url) as view:
        return [(r.phase, r.finished) for r in view.runs()]


def _uses_outbox(f: PgFrontier) -> PgFrontier:
    f.set_meta(f.outbox_mark, "1")  # as claim_outbox does before a crawl that sends to Solr
    return f


def test_the_run_stays_open_while_another_outbox_holds_changes(pg_url: str, tmp_path: Path) -> None:
    with (
        _uses_outbox(PgFrontier(pg_url, tmp_path / "a")) as a,
        _uses_outbox(PgFrontier(pg_url, tmp_path / "b")) as b,
    ):
        run = a.start_run(resume=False)
        assert b.start_run(resume=True) == run, "b joins the open run"
        a.outbox_left(3)  # Solr was down for a: three changes wait in its outbox
        a.set_phase("failed", 1, "Solr unavailable: 3 changes wait in the outbox")
        b.outbox_left(0)
        b.set_phase("finished", 0)
        assert b.closing.waiting and b.closing.waiting[0][1] == 3, b.closing.waiting
        assert _runs(pg_url) == [("failed", False)], "not finished: a's outbox holds changes"
        assert b.open_run() == run
    with _uses_outbox(PgFrontier(pg_url, tmp_path / "a", create=False)) as again:
        assert again.start_run(resume=True) == run, "a's data directory resumed: same run"
        again.outbox_left(0)  # drained and committed
        again.set_phase("finished", 0)
    assert _runs(pg_url) == [("finished", True)], "closed once the last outbox was empty"


def test_whoever_ends_last_closes_the_run_and_a_killed_one_keeps_it_open(
    pg_url: str, tmp_path: Path
) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        a.outbox_left(0)
        a.set_phase("finished", 0)  # b still crawls: the run stays open
        assert not _runs(pg_url)[0][1], "open while b crawls"
        b.outbox_left(0)
        b.set_phase("finished", 0)
    assert _runs(pg_url) == [("finished", True)]
    with (
        _uses_outbox(PgFrontier(pg_url, tmp_path / "a")) as a,
        _uses_outbox(PgFrontier(pg_url, tmp_path / "c")) as c,
    ):
        second = a.start_run(resume=False)
        c.start_run(resume=True)  # c is then killed with -9: it never leaves the run
        a.outbox_left(0)
        a.set_phase("finished", 0)
        assert a.open_run() == second, "c's outbox may hold changes: the run stays open"


def test_the_missed_ids_step_runs_once_per_run(pg_url: str, tmp_path: Path) -> None:
    settings = load_settings(flags={"frontier.url": pg_url}).settings
    ids = {"h": ["http://h/gone"]}
    with two_processes(pg_url, tmp_path) as (a, b):
        a.add([("http://h/gone", "h", 0)])
        a.finish("http://h/gone", "http-404", "gone")  # a deleting outcome in this run
        for f, d in ((a, tmp_path / "a"), (b, tmp_path / "b")):
            totals = reconcile(settings, f, d, ids, {"h": set()}, lambda _: True)
            assert totals == {"h": 1}, "the guard's denominators for every process"
        assert not b.run_task("reconcile"), "done in this run: no other process does it"
    assert _missed(pg_url) == [("http://h/gone", 1)], "counted once in the run, not twice"


def _missed(pg_url: str) -> list[tuple[str, int]]:
    """The shared grace counters (``indexer.missed``)."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT id, runs FROM indexer.missed ORDER BY id").fetchall()
    return [(str(i), int(n)) for i, n in rows]
