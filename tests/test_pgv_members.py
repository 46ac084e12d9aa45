"""The processes of a shared run (issue #20, views): the dashboard and ``indexer report`` add
up every process's progress, say which crawl, ended or died, name a dead one's data
directory and drain command, and the run's record says which processes died."""

from __future__ import annotations

import contextlib
import io
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.crawl.frontier.progress import ProgressWriter
from indexer.web.admin.state import overview
from tests.admin_fixtures import log_in, make_client_app
from tests.pg_fixtures import two_processes

ON_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")  # the fixtures' loop


def _progress(f: PgFrontier, fetched: int, outcomes: dict[str, int]) -> None:
    counts = {"fetched": fetched, "indexed": outcomes.get("indexed", 0), "queued": 5}
    ProgressWriter(f.progress, "crawl").write(f.run, counts, (), outcomes)


def _finish(f: PgFrontier, pages: int) -> None:
    for _ in range(pages):
        claimed = f.claim("h", time.time())
        assert claimed is not None
        f.finish(claimed.url, "indexed", "", reached=True)


def _uses_outbox(f: PgFrontier) -> PgFrontier:
    f.set_meta(f.outbox_mark, "1")  # as claim_outbox does before a crawl that sends to Solr
    return f


@ON_SESSION_LOOP
async def test_the_dashboard_adds_up_every_process_of_a_shared_run(
    pg_url: str, tmp_path: Path, free_port: int
) -> None:
    with two_processes(pg_url, tmp_path) as (a, b):
        _progress(a, 30, {"indexed": 25, "http-404": 1})
        _progress(b, 20, {"indexed": 15})  # written last: it was the run's only row
        state = overview(None, pg_url)
        app = make_client_app(
            tmp_path / "served", f"http://127.0.0.1:{free_port}/solr", frontier=pg_url
        )
        client: TestClient[Any, Any]
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
            await log_in(client)
            home = await (await client.get("/admin")).text()
    run = state.runs[0]
    assert run.progress is not None
    assert (run.progress.fetched, run.progress.indexed) == (50, 40), run.progress
    assert run.progress.outcomes == {"http-404": 1, "indexed": 40}
    assert run.tally == "2 processes: 2 crawling" and not run.gone
    assert '<dd class="p-fetched">50</dd>' in home and '<dd class="p-indexed">40</dd>' in home
    assert "2 processes: 2 crawling" in home
    assert str(tmp_path / "a") in home and str(tmp_path / "b") in home, "each process's dir"


def test_a_dead_process_is_named_with_its_drain_command_and_the_record_says_it_died(
    pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "indexer")
    with _uses_outbox(PgFrontier(pg_url, tmp_path / "a")) as a:
        run = a.start_run(resume=False)
        b = _uses_outbox(PgFrontier(pg_url, tmp_path / "b"))
        b.start_run(resume=True)
        urls = [f"http://h/{i}" for i in range(15)]
        b.add((u, "h", 1) for u in urls)
        _finish(b, 12)
        _progress(b, 12, {"indexed": 12})
        b_pid = int(b.leases.owner.split(":")[-2])
        b.close()  # as a kill -9 leaves it: no end written, no heartbeat any more
        a.outbox_left(0)
        a.set_phase("finished", 0)
        said = caplog.text
        with PgFrontierView(pg_url) as view:
            members = view.members(run)
            assert [m.state for m in members] == ["ended", "gone"], members
            assert not view.runs()[-1].finished, "b's outbox may hold changes: open"
        code, report = _report(pg_url, tmp_path / "a")
    assert "1 other process(es) crawl it" not in said
    assert f"pid {b_pid}" in said and str(tmp_path / "b") in said, said
    assert f"--join --data-dir {tmp_path / 'b'}" in said, "the drain command, with its dir"
    assert code == 0 and "--resume" not in report, report
    assert f"--join --data-dir {tmp_path / 'b'}" in report and "2 processes" in report, report
    # the drain README names: a process joins with b's data directory and ends last
    with _uses_outbox(PgFrontier(pg_url, tmp_path / "b", create=False)) as again:
        assert again.start_run(resume=True) == run
        _finish(again, 3)
        _progress(again, 3, {"indexed": 3})
        again.outbox_left(0)
        again.set_phase("finished", 0)
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
        total = view.progress.all()[run]
    assert (last.phase, last.finished, last.exit_code) == ("finished", True, 1), last
    assert f"1 of 3 processes died: pid {b_pid}" in last.reason, last.reason
    assert total.outcomes == {"indexed": 15}, "the dead one's part and its drainer's counted"


def _report(pg_url: str, data_dir: Path) -> tuple[int, str]:
    """``indexer report`` in this process: its exit code and what it printed."""
    from indexer.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["report", "--frontier", pg_url, "--data-dir", str(data_dir)])
    return code, out.getvalue()


async def _dashboard(pg_url: str, tmp_path: Path, free_port: int) -> str:
    solr = f"http://127.0.0.1:{free_port}/solr"
    app = make_client_app(tmp_path / "served", solr, frontier=pg_url)
    client: TestClient[Any, Any]
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        return await (await client.get("/admin")).text()


@ON_SESSION_LOOP
async def test_the_dashboard_names_a_dead_process_and_what_finishes_its_part(
    pg_url: str, tmp_path: Path, free_port: int
) -> None:
    starter = _uses_outbox(PgFrontier(pg_url, tmp_path / "a"))
    starter.start_run(resume=False)
    _progress(starter, 4, {"indexed": 4})
    starter.close()  # the starter killed with -9: no end written
    with _uses_outbox(PgFrontier(pg_url, tmp_path / "b")) as b:
        b.start_run(resume=True)
        _progress(b, 6, {"indexed": 6})
        home = await _dashboard(pg_url, tmp_path, free_port)
        assert "2 processes: 1 crawling, 1 gone" in home, home
        assert f"--join --data-dir {tmp_path / 'a'}" in home, "the dead starter's drain"
        assert "stopped without closing" not in home, "b still crawls the run"
        assert '<dd class="p-indexed">10</dd>' in home
    home = await _dashboard(pg_url, tmp_path, free_port)  # b gone too, without ending
    assert "stopped without closing" in home and "--resume" not in home, home
    assert f"--join --data-dir {tmp_path / 'b'}" in home


def test_the_launch_names_the_drain_command_of_each_outbox_left_open() -> None:
    from indexer.pipeline.summaries import add_up as add_summaries
    from indexer.pipeline.summaries import format_launch

    summary = add_summaries([], 1.0)
    summary |= {"processes": [], "died": 1, "open_outboxes": ["m1:/var/lib/indexer/p1"]}
    text = format_launch(summary)
    assert "1 process(es) died: exit 1" in text
    assert "`indexer crawl --frontier URL --join --data-dir /var/lib/indexer/p1` on m1" in text
    assert "DIR" not in text, text


def test_the_report_names_the_drain_of_a_process_that_ended_with_changes_left(
    pg_url: str, tmp_path: Path
) -> None:
    with (
        _uses_outbox(PgFrontier(pg_url, tmp_path / "a")) as a,
        _uses_outbox(PgFrontier(pg_url, tmp_path / "b")) as b,
    ):
        a.start_run(resume=False)
        b.start_run(resume=True)
        a.outbox_left(3)  # Solr was down for a
        a.set_phase("failed", 1, "Solr unavailable: 3 changes wait in the outbox")
        b.outbox_left(0)
        b.set_phase("finished", 0)
    code, report = _report(pg_url, tmp_path / "b")
    assert code == 0 and "2 processes: 2 ended" in report, report
    assert f"--join --data-dir {tmp_path / 'a'}` on" in report, "a's outbox: its drain"
    assert f"--join --data-dir {tmp_path / 'b'}`" not in report, "b left nothing"
