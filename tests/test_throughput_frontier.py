"""The frontier's claim path stays an index lookup however many URLs are queued."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.crawl.frontier import Frontier
from tests.pg_fixtures import OpenFrontier, read_elsewhere


def _plans(f: Frontier, call: str) -> list[str]:
    """The query plans of the SELECTs the frontier runs for ``call`` (``claim``/``next_due``)."""
    seen: list[str] = []
    db = f._db  # the statements the public call runs, not a copy of their text
    db.set_trace_callback(seen.append)
    try:
        if call == "claim":
            f.claim("a", now=1e12)
        else:
            f.next_due("a")
    finally:
        db.set_trace_callback(None)
    plans = []
    for sql in seen:
        if sql.lstrip().upper().startswith("SELECT"):
            plans += [str(r[3]) for r in db.execute("EXPLAIN QUERY PLAN " + sql)]
    return plans


def test_next_due_and_claim_are_index_lookups(tmp_path: Path) -> None:
    with Frontier(tmp_path) as f:
        f.start_run(resume=False)
        f.add([(f"http://a/{i}", "a", i % 3) for i in range(50)])
        due = _plans(f, "next_due")
        assert due == ["SEARCH urls USING COVERING INDEX urls_due (host=? AND state=? AND run=?)"]
        claim = _plans(f, "claim")
        assert claim == ["SEARCH urls USING INDEX urls_claim (host=? AND state=?)"]


def test_next_due_is_the_earliest_queued_time(tmp_path: Path, open_frontier: OpenFrontier) -> None:
    with open_frontier(tmp_path) as f:
        f.start_run(resume=False)
        f.add([("http://a/0", "a", 0), ("http://a/1", "a", 1), ("http://a/2", "a", 2)])
        first = f.claim("a", now=1e12)
        assert first is not None and first.url == "http://a/0"
        f.retry_later("http://a/0", at=5e12, reason="503")
        second = f.claim("a", now=1e12)
        assert second is not None
        f.retry_later(second.url, at=3e12, reason="503")
        assert f.next_due("a") == 0  # http://a/2 still due now
        third = f.claim("a", now=1e12)
        assert third is not None and third.url == "http://a/2"
        assert f.next_due("a") == 3e12  # the fetching one does not count
        f.finish("http://a/2", "indexed")
        assert f.next_due("b") is None


def test_an_older_frontier_gets_the_due_index_on_open(tmp_path: Path) -> None:
    with Frontier(tmp_path) as f:
        f.start_run(resume=False)
        f.add([("http://a/0", "a", 0)])
    path = tmp_path / "frontier.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX urls_due")
    with Frontier(tmp_path, create=False) as f:
        assert f.start_run(resume=True) == 1
        assert f.next_due("a") == 0
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "urls_due" in names


def test_a_batch_is_one_transaction_with_nested_groups(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    with open_frontier(tmp_path) as f:
        f.start_run(resume=False)
        f.add([("http://a/0", "a", 0)])
        with f.batch():  # nested groups (add, record_many, template statistics) join it
            f.add([("http://a/1", "a", 1)])
            f.record_many([("http://b/x", "b", 1, "out-of-scope", "outside")])
            f.extract_state.save_template_stats([("a", '{"pages": 1, "counts": {}}')])
            f.finish("http://a/0", "indexed", reached=True, content_hash="h")
            assert f.reached_now("http://a/0")  # the batch reads its own writes
            rows = read_elsewhere(f, "SELECT COUNT(*) FROM urls")
            assert rows == [(1,)], "nothing is visible outside before the commit"
        assert read_elsewhere(f, "SELECT COUNT(*) FROM urls") == [(3,)]
        try:
            with f.batch():
                f.add([("http://a/2", "a", 1)])
                raise RuntimeError("a bug in the verdict")
        except RuntimeError:
            pass
        assert f.next_due("a") == 0 and f.claim("a", now=1e12) is not None
        assert f.claim("a", now=1e12) is None, "the failed batch's add was rolled back"


def test_hosts_with_queued_are_those_with_a_url_queued_in_this_run(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    with open_frontier(tmp_path) as f:
        f.start_run(resume=False)
        f.add([(f"http://{h}/{i}", h, 0) for h in ("c", "a", "b", "d") for i in range(3)])
        for _ in range(3):  # host d: every URL fetched, none queued
            claimed = f.claim("d", now=1e12)
            assert claimed is not None
            f.finish(claimed.url, "indexed")
        first = f.claim("b", now=1e12)  # host b: one fetching, two queued
        assert first is not None
        assert f.hosts_with_queued() == ["a", "b", "c"]
