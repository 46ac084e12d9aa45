"""The note of a process cut off from the shared frontier (:mod:`indexer.crawl.frontier.postgres
.cutoff`), on real PostgreSQL: the next process of the same run on its data directory writes
its end (continued, not died); a note of another run, or a garbled one, is dropped and
writes nothing; a process that left no note (killed with -9) still counts as died."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.crawl.frontier.members import died
from indexer.crawl.frontier.postgres.cutoff import NOTE, leave_note
from indexer.crawl.frontier.postgres.members import closing_note
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView


def _cut(pg_url: str, data_dir: Path, *, note: bool) -> tuple[int, str]:
    """A process of a new run on ``data_dir`` that stops without writing its end (with the
    note a lost frontier leaves, or none: a kill -9); its run and owner id."""
    with PgFrontier(pg_url, data_dir) as f:
        run = f.start_run(resume=False)
        if note:
            leave_note(data_dir, run, f.leases.owner, "server closed the connection")
        return run, f.leases.owner


def test_the_resume_on_its_data_directory_writes_the_cut_off_processs_end(
    pg_url: str, tmp_path: Path
) -> None:
    run, owner = _cut(pg_url, tmp_path / "a", note=True)
    assert (tmp_path / "a" / NOTE).exists()
    with PgFrontier(pg_url, tmp_path / "a", create=False) as again:
        assert again.start_run(resume=True) == run
        members = again.members.of(run)
        note, dead = closing_note(members, again.leases.owner)
    first = next(m for m in members if m.owner == owner)
    assert (first.state, first.phase, first.exit_code, first.continued) == (
        "ended",
        "frontier-lost",
        2,
        True,
    )
    assert not dead and died(members) == [] and "continued by the resume" in note, note
    assert not (tmp_path / "a" / NOTE).exists(), "settled once"


def test_a_process_without_a_note_still_died_and_a_stale_or_garbled_note_is_dropped(
    pg_url: str, tmp_path: Path
) -> None:
    run, owner = _cut(pg_url, tmp_path / "a", note=False)  # as a kill -9 leaves it
    (tmp_path / "a" / NOTE).write_text("{not json", "utf-8")
    (tmp_path / "b").mkdir()
    leave_note(tmp_path / "b", run + 7, owner, "of another run")
    assert (tmp_path / "b" / NOTE).exists()
    with PgFrontier(pg_url, tmp_path / "a", create=False) as again:
        again.start_run(resume=True)
        with PgFrontier(pg_url, tmp_path / "b") as other:
            other.start_run(resume=True)
            members = again.members.of(run)
            note, dead = closing_note(members, again.leases.owner)
    assert [m.owner for m in died(members)] == [owner], members
    assert dead and "1 of 3 processes died" in note and "continued" not in note, note
    assert not (tmp_path / "a" / NOTE).exists() and not (tmp_path / "b" / NOTE).exists()


def test_a_cut_off_process_whose_hosts_the_others_took_over_did_not_die(
    pg_url: str, tmp_path: Path
) -> None:
    """Without an outbox (``--out`` only) a cut-off process does not hold the run open: the
    process that ends last closes it, and on the note's machine counts it as cut off."""
    run, owner = _cut(pg_url, tmp_path / "a", note=True)
    with PgFrontier(pg_url, tmp_path / "b") as other:  # b took a's hosts over
        assert other.start_run(resume=True) == run
        other.outbox_left(0)
        other.set_phase("finished", 0)
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
        members = view.members(run)
    assert (last.phase, last.finished, last.exit_code) == ("finished", True, 0), last
    assert "died" not in last.reason and "its hosts taken over" in last.reason, last.reason
    assert [(m.owner == owner, m.lost) for m in members] == [(True, True), (False, False)]
    assert died(members) == []
    assert "not continued yet" in members[0].status


def test_a_note_with_a_field_of_the_wrong_type_is_dropped_not_a_traceback(
    pg_url: str, tmp_path: Path
) -> None:
    """A note whose run matches but whose ``at`` is no number: the start goes on (the note
    is removed; the process reads as died, as without one)."""
    run, owner = _cut(pg_url, tmp_path / "a", note=False)
    note = {"run": run, "owner": owner, "detail": "x", "at": "soon"}
    (tmp_path / "a" / NOTE).write_text(json.dumps(note), "utf-8")
    with PgFrontier(pg_url, tmp_path / "a", create=False) as again:
        again.start_run(resume=True)
        members = again.members.of(run)
    assert [m.owner for m in died(members)] == [owner], members
    assert not (tmp_path / "a" / NOTE).exists()
