"""``indexer crawl --frontier URL --processes N`` (issue #20): N crawl processes on one machine
over the shared PostgreSQL frontier, one summary, one ``--out`` file per process; the
refusal on the SQLite frontier; a child killed with -9 is taken over and nothing is lost."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import psycopg

from indexer.crawl.frontier.postgres.view import PgFrontierView
from tests.faults_helpers import cli
from tests.faultserver import FaultServer
from tests.pg_fixtures import leaseholder_pids, out_lines, start_crawl, two_process_flags
from tests.recrawl_site import solr_docs

HOSTS, PAGES, DELAY = 4, 20, 0.3
#: Pages per host of the kill test: ~15 s of crawling per host at DELAY, so that the second
#: child (a Python start, its Solr check, its join) holds hosts before the first is done,
#: also in a loaded full run (with 30, the launch once ended before two children held any).
KILL_PAGES = 50


def test_two_processes_crawl_every_page_once_into_one_out_file_each(
    pg_url: str, tmp_path: Path
) -> None:
    flags = two_process_flags(pg_url, DELAY)
    flags += ["--out", "docs.jsonl", "--summary-json", "summary.json", "--data-dir", "d"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, PAGES, delay=0.01)
        proc = start_crawl(*flags, *seeds, cwd=tmp_path)
        _, err = proc.communicate(timeout=120)
        hits = srv.log()
    assert proc.returncode == 0, err[-3000:]
    fetched = [(h.host, h.path) for h in hits if h.path not in ("/robots.txt", "/sitemap.xml")]
    assert len(fetched) == len(set(fetched)) == HOSTS * (PAGES + 1), "each page fetched once"
    docs = {i: out_lines(tmp_path / f"docs.{i}.jsonl") for i in range(2)}
    assert not (tmp_path / "docs.jsonl").exists()
    assert docs[0] and docs[1], "both processes crawled a share"
    assert sorted(docs[0] + docs[1]) == srv.star_pages(HOSTS, PAGES)
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))
    assert summary["fetched"] == len(fetched) and summary["indexed"] == HOSTS * (PAGES + 1)
    by_process = [p["summary"]["indexed"] for p in summary["processes"]]
    assert by_process == [len(docs[0]), len(docs[1])], "the summary adds up the two"
    assert [p["out"] for p in summary["processes"]] == ["docs.0.jsonl", "docs.1.jsonl"]
    assert summary["open_outboxes"] == [] and summary["died"] == 0
    assert "docs.0.jsonl" in err and "docs.1.jsonl" in err, "the printed summary names them"
    assert (tmp_path / "d" / "p0").is_dir() and (tmp_path / "d" / "p1").is_dir()
    with PgFrontierView(pg_url) as view:
        assert [(r.phase, r.finished) for r in view.runs()] == [("finished", True)]


def test_sigterm_stops_every_process_and_resume_finishes_the_run(
    pg_url: str, tmp_path: Path
) -> None:
    flags = two_process_flags(pg_url, DELAY)
    flags += ["--out", "docs.jsonl", "--summary-json", "s.json", "--data-dir", "d"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, PAGES, delay=0.01)
        proc = start_crawl(*flags, *seeds, cwd=tmp_path)
        try:
            leaseholder_pids(pg_url, proc, time.monotonic() + 60)  # both crawl
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        assert proc.returncode == 130, err[-3000:]
        assert "--resume" in err
        summary = json.loads((tmp_path / "s.json").read_text("utf-8"))
        assert [p["exit_code"] for p in summary["processes"]] == [130, 130], summary["processes"]
        for entry in summary["processes"]:
            try:
                os.kill(entry["pid"], 0)
                raise AssertionError(f"pid {entry['pid']} still runs")
            except ProcessLookupError:
                pass
        with PgFrontierView(pg_url) as view:
            assert [(r.phase, r.finished) for r in view.runs()] == [("interrupted", False)]
        resumed = start_crawl(*flags, "--resume", *seeds, cwd=tmp_path)
        _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err[-3000:]
    docs = out_lines(tmp_path / "docs.0.jsonl") + out_lines(tmp_path / "docs.1.jsonl")
    assert sorted(docs) == srv.star_pages(HOSTS, PAGES), "every page once over the two runs' files"
    with PgFrontierView(pg_url) as view:
        assert [(r.phase, r.finished) for r in view.runs()] == [("finished", True)]


def test_processes_above_one_need_a_shared_frontier(tmp_path: Path) -> None:
    seed = "http://127.0.0.1:9/"
    code, err = cli("crawl", "--processes", "2", "--data-dir", str(tmp_path / "d"), seed)
    assert code == 2 and "frontier.url" in err and "--processes 2" in err, err
    assert len(err.strip().splitlines()) == 1, "one line"
    os.environ["INDEXER_CRAWL_PROCESSES"] = "3"
    try:
        code, err = cli("crawl", "--data-dir", str(tmp_path / "d"), seed)
    finally:
        del os.environ["INDEXER_CRAWL_PROCESSES"]
    assert code == 2 and "frontier.url" in err, err
    assert not (tmp_path / "d").exists(), "refused before any state was made"


def _wait_pages_done_by(pg_url: str, pid: int, more: int, deadline: float) -> None:
    """Wait until ``more`` pages of the hosts process ``pid`` holds were done since now (only
    a host's holder finishes its pages)."""
    query = (
        "SELECT count(*) FROM indexer.urls u JOIN indexer.host_leases l ON l.host = u.host "
        "WHERE l.owner LIKE %s AND u.state = 'done'"
    )
    with psycopg.connect(pg_url, autocommit=True) as conn:
        first = None
        while time.monotonic() < deadline:
            row = conn.execute(query, (f"%:{pid}:%",)).fetchone()
            done = int(row[0]) if row else 0
            first = done if first is None else first
            if done - first >= more:
                return
            time.sleep(0.1)
    raise AssertionError(f"process {pid} finished no pages of its own")


def test_a_child_killed_9_is_taken_over_and_nothing_is_lost_in_solr(
    pg_url: str, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    lease = 2.0
    env = {**os.environ, "INDEXER_FRONTIER_LEASE_SECONDS": str(lease)}
    flags = two_process_flags(pg_url, DELAY)
    flags += ["--solr", base, "--core", core, "--data-dir", "d", "--summary-json", "s.json"]
    with FaultServer(HOSTS) as srv:
        seeds = srv.star_site(HOSTS, KILL_PAGES, delay=0.01)
        parent = start_crawl(*flags, *seeds, cwd=tmp_path, env=env)
        try:
            victim = leaseholder_pids(pg_url, parent, time.monotonic() + 60)[-1]
            _wait_pages_done_by(pg_url, victim, 3, time.monotonic() + 60)
            os.kill(victim, signal.SIGKILL)
            _, err = parent.communicate(timeout=150)
        finally:
            if parent.poll() is None:
                parent.kill()
                parent.wait(10)
    assert parent.returncode == 1, err[-3000:]
    assert sorted(solr_docs(base, core)) == srv.star_pages(HOSTS, KILL_PAGES), "nothing lost"
    summary: dict[str, Any] = json.loads((tmp_path / "s.json").read_text("utf-8"))
    assert summary["died"] == 1 and f"pid {victim}" in err and "signal 9" in err, err[-2000:]
    first = summary["processes"][0]["summary"]["fetched"]
    assert first < len(srv.star_pages(HOSTS, KILL_PAGES)), "the killed child had done a share"
    replacement = [p for p in summary["processes"] if p["replaces"] == victim]
    assert len(replacement) == 1 and replacement[0]["exit_code"] == 0, summary["processes"]
    assert summary["open_outboxes"] == [], "the replacement drained the dead one's outbox"
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
    assert (last.phase, last.finished) == ("finished", True), "closed once every outbox emptied"
