"""What the admin views read and what the crawl stores for them: each URL's last five
outcomes, a run's progress every 2 s, the filtered outcome table, its CSV."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.browse import UrlFilter
from indexer.crawl.frontier.history import KEEP
from indexer.crawl.frontier.progress import INTERVAL, ProgressWriter
from indexer.crawl.frontier.schema import FRONTIER
from indexer.crawl.frontier.view import FrontierView
from indexer.settings import load_settings
from indexer.web.admin import pages
from indexer.web.admin.jobs import Plan, reindex_command
from indexer.web.admin.pages import PAGE_SIZE
from tests.admin_fixtures import log_in, make_client_app, write_frontier

ON_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")  # the fixtures' loop
HOST = "127.0.0.1:9"


def test_history_keeps_the_last_five_outcomes_of_each_url(tmp_path: Path) -> None:
    url, other = f"http://{HOST}/a.html", f"http://{HOST}/b.html"
    with Frontier(tmp_path) as frontier:
        for run in range(7):
            frontier.start_run(False)
            frontier.add([(url, HOST, 0), (other, HOST, 0)])
            frontier.claim(HOST, 1e12)
            outcome = "indexed" if run % 2 else "http-503"
            frontier.finish(url, outcome, f"run {run}", reached=outcome == "indexed")
            frontier.finish(url, outcome, f"run {run}", reached=outcome == "indexed")  # again
            frontier.finish_queued("max-pages", "crawl.max_pages=1 reached")
    with FrontierView(tmp_path) as view:
        history = view.history.of(url)
        queued = view.history.of(other)
    assert len(history) == KEEP == 5
    assert [h.reason for h in history] == [f"run {r}" for r in (6, 5, 4, 3, 2)]
    assert [h.outcome for h in history[:2]] == ["http-503", "indexed"]
    assert [h.run for h in history] == [7, 6, 5, 4, 3]
    assert history[0].at >= history[-1].at > time.time() - 60
    assert len(queued) == KEEP and {h.outcome for h in queued} == {"max-pages"}


def test_an_older_frontier_reads_empty_then_gains_the_tables(tmp_path: Path) -> None:
    with Frontier(tmp_path) as frontier:
        frontier.start_run(False)
        frontier._db.execute("DROP TABLE url_history")
        frontier._db.execute("DROP TABLE run_progress")
        frontier._db.execute("PRAGMA user_version=2")  # as written before the admin step
    with FrontierView(tmp_path) as view:  # read-only: no upgrade
        assert view.history.of("http://x/") == [] and view.progress.all() == {}
    with Frontier(tmp_path) as frontier:  # opened for writing: the version 3 step
        assert frontier._db.execute("PRAGMA user_version").fetchone()[0] == FRONTIER.version
        frontier.record("http://x/", "x", 0, "out-of-scope", "not in crawl.allow_hosts")
    with FrontierView(tmp_path) as view:
        assert [h.outcome for h in view.history.of("http://x/")] == ["out-of-scope"]


def test_progress_is_written_every_two_seconds_and_at_the_end(tmp_path: Path) -> None:
    with Frontier(tmp_path) as frontier:
        run = frontier.start_run(False)
        writer = ProgressWriter(frontier.progress, "crawl")
        counts = {"fetched": 10, "indexed": 8, "queued": 5, "outbox": 2}
        assert writer.update(run, counts, {"127.0.0.1:9": 1.0}, {"indexed": 8})
        assert not writer.update(run, {**counts, "fetched": 20}, (), {})  # within 2 s
        with FrontierView(tmp_path) as view:
            assert view.progress.all()[run].fetched == 10
        writer._last -= INTERVAL  # two seconds later
        assert writer.update(run, {**counts, "fetched": 30}, (), {"indexed": 9})
        with FrontierView(tmp_path) as view:
            seen = view.progress.all()[run]
        assert seen.fetched == 30 and seen.outcomes == {"indexed": 9}
        assert 0 < seen.rate <= 20 / INTERVAL + 1
        writer.write(run, {**counts, "fetched": 31}, (), {"indexed": 10, "http-404": 1})
    with FrontierView(tmp_path) as view:
        final = view.progress.all()[run]
    assert (final.kind, final.fetched, final.queued, final.outbox) == ("crawl", 31, 5, 2)
    assert final.outcomes == {"indexed": 10, "http-404": 1}


def test_url_filters_combine(tmp_path: Path) -> None:
    write_frontier(tmp_path, pages=3)
    with FrontierView(tmp_path) as view:
        b = view.browse
        assert b.count(UrlFilter()) == 6
        assert b.count(UrlFilter(outcome="indexed")) == 5
        assert b.count(UrlFilter(outcome="http-404", host=HOST)) == 1
        assert b.count(UrlFilter(host="127.0.0.1:10")) == 0
        assert [r.url for r in b.rows(UrlFilter(q="P001"))] == [f"http://{HOST}/p001.html"]
        assert b.count(UrlFilter(q="not found")) == 1  # reasons too
        assert b.count(UrlFilter(q="%")) == 1  # literal: the one percent-encoded URL
        assert b.count(UrlFilter(q="_")) == 0
        outcomes, hosts = b.choices()
    assert outcomes == ["http-404", "indexed"] and hosts == [HOST]


@pytest.fixture
async def big(tmp_path: Path, free_port: int) -> AsyncIterator[TestClient[Any, Any]]:
    write_frontier(tmp_path / "crawl", pages=120)
    app = make_client_app(tmp_path / "crawl", f"http://127.0.0.1:{free_port}/solr")
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        yield client


@ON_SESSION_LOOP
async def test_the_table_shows_fifty_a_page_and_the_csv_all(
    big: TestClient[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "CSV_BATCH", 50)  # 122 rows: three batches
    first = await (await big.get("/admin/urls?outcome=indexed")).text()
    assert first.count('<td class="outcome">indexed</td>') == PAGE_SIZE == 50
    assert '<span class="url-total">122</span>' in first
    last = await (await big.get("/admin/urls?outcome=indexed&page=3")).text()
    assert last.count('<td class="outcome">indexed</td>') == 122 - 2 * PAGE_SIZE
    wild = await big.get("/admin/urls?page=abc")
    assert wild.status == 200
    nul = await (await big.get("/admin/urls?q=%00%1b")).text()
    assert "\x00" not in nul and "\x1b" not in nul
    resp = await big.get("/admin/urls.csv?outcome=indexed")
    assert resp.headers["Content-Type"].startswith("text/csv")
    assert "attachment" in resp.headers["Content-Disposition"]
    assert resp.headers["Cache-Control"] == "no-store"  # the outcome list stays off caches
    body = (await resp.read()).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["url", "host", "outcome", "reason", "last_fetched"]
    assert len(rows) == 1 + 122 and {r[2] for r in rows[1:]} == {"indexed"}
    assert len({r[0] for r in rows[1:]}) == 122 and [r[0] for r in rows[1:]] == sorted(
        r[0] for r in rows[1:]
    )
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", r[4]) for r in rows[1:])
    assert all(not r[0].startswith("=") for r in rows[1:])  # no formula
    assert any(r[0] == f"http://{HOST}/=cmd" for r in rows[1:])
    gone = list(
        csv.reader(
            io.StringIO(
                (await (await big.get("/admin/urls.csv?q=gone")).read()).decode("utf-8-sig")
            )
        )
    )
    assert len(gone) == 2 and gone[1][2] == "http-404"


@ON_SESSION_LOOP
async def test_the_dashboard_shows_runs_and_counts(big: TestClient[Any, Any]) -> None:
    text = await (await big.get("/admin")).text()
    assert '<table class="runs">' in text and "phase-finished" in text
    assert "did not answer" in text  # the dead Solr port, said in our words
    assert "No reindex has run" in text


def test_the_reindex_child_gets_the_servers_settings(tmp_path: Path) -> None:
    loaded = load_settings(
        None, {"solr.url": "http://127.0.0.1:1/solr", "crawl.data_dir": tmp_path}
    )
    argv, env = reindex_command(loaded, tmp_path / "c.toml")
    assert argv[-3:] == ["reindex", "--config", str(tmp_path / "c.toml")]
    assert env["INDEXER_SOLR_URL"] == "http://127.0.0.1:1/solr"
    assert env["INDEXER_CRAWL_DATA_DIR"] == str(tmp_path)
    again = load_settings(None, {}, {k: v for k, v in env.items() if k.startswith("INDEXER_")})
    assert again.settings.solr.url == loaded.settings.solr.url
    plan = Plan()
    for line in (
        '{"action": "add", "id": "u1"}',
        "not json",
        '{"action": "delete", "id": "u2"}',
        '{"summary": true, "add": 1, "update": 0, "delete": 1, "refused": []}',
    ):
        plan.read(line)
    assert plan.changes == {"add": ["u1"], "update": [], "delete": ["u2"]}
    assert plan.summary is not None and plan.summary["delete"] == 1


@ON_SESSION_LOOP
async def test_a_refused_reindex_says_who_should_look(tmp_path: Path, free_port: int) -> None:
    write_frontier(tmp_path / "crawl")
    with Frontier(tmp_path / "crawl", create=False) as frontier:
        run = frontier.start_run(False)
        ProgressWriter(frontier.progress, "reindex").write(run, {"fetched": 3}, (), {"http-404": 3})
        reason = f"{HOST}: 3 of 5 documents would be deleted (60% > reindex.max_delete_share 25%)"
        frontier.set_phase("refused", 3, reason)
    app = make_client_app(tmp_path / "crawl", f"http://127.0.0.1:{free_port}/solr")
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        text = await (await client.get("/admin")).text()
    last = text[text.index('class="last-reindex"') : text.index("Runs of the data directory")]
    assert '<span class="exit-code">3</span>' in last and "phase-refused" in last
    assert "The mass-delete guard refused" in last and "owner of the host" in last
    assert "3 of 5 documents would be deleted" in last
    assert text.count("<tr>") >= 3  # both runs listed
