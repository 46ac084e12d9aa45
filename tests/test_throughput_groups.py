"""Grouped commits of a crawl's frontier writes (issue #16, :mod:`indexer.crawl.frontier.groups`):
pages' writes wait for a commit that comes when it is due, a failing page undoes only its
own writes, the outbox is committed before the frontier, and outside a grouping every
page's writes are committed at once, as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from indexer.crawl.frontier import Frontier, groups

HOST = "127.0.0.1"


def _url(i: int) -> str:
    return f"http://{HOST}/p/{i}.html"


def _seen(path: Path) -> set[str]:
    """URLs another process would see in the frontier file (committed rows only)."""
    db = sqlite3.connect(f"file:{path / 'frontier.sqlite3'}?mode=ro", uri=True)
    try:
        return {r[0] for r in db.execute("SELECT url FROM urls")}
    finally:
        db.close()


def _page(frontier: Frontier, i: int) -> None:
    with frontier.batch():
        frontier.add([(_url(i), HOST, 1)])


def test_pages_wait_for_the_due_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(groups, "GROUP_SECONDS", 3600.0)
    with Frontier(tmp_path) as frontier:
        frontier.start_run(False)
        with frontier.grouped():
            _page(frontier, 1)
            _page(frontier, 2)
            frontier.commit_due()  # not due: an hour, and 2 of GROUP_PAGES pages
            assert _seen(tmp_path) == set()
            assert frontier.queued_count() == 2  # the crawl itself sees its writes
            monkeypatch.setattr(groups, "GROUP_SECONDS", 0.0)
            frontier.commit_due()
            assert _seen(tmp_path) == {_url(1), _url(2)}
            monkeypatch.setattr(groups, "GROUP_SECONDS", 3600.0)
            _page(frontier, 3)
            assert _url(3) not in _seen(tmp_path)
        assert _url(3) in _seen(tmp_path)  # the grouping's end commits what is left
        _page(frontier, 4)  # outside a grouping: committed with its page
        assert _url(4) in _seen(tmp_path)


def test_a_full_group_commits_when_its_page_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(groups, "GROUP_SECONDS", 3600.0)
    monkeypatch.setattr(groups, "GROUP_PAGES", 3)
    with Frontier(tmp_path) as frontier:
        frontier.start_run(False)
        with frontier.grouped():
            for i in range(3):
                assert _seen(tmp_path) == set()
                _page(frontier, i)
            assert _seen(tmp_path) == {_url(0), _url(1), _url(2)}


def test_a_failing_page_undoes_only_its_own_writes(tmp_path: Path) -> None:
    with Frontier(tmp_path) as frontier:
        frontier.start_run(False)
        with frontier.grouped():
            _page(frontier, 1)
            with pytest.raises(RuntimeError), frontier.batch():
                frontier.add([(_url(2), HOST, 1)])
                with frontier.batch():  # nested: the outer page decides
                    frontier.add([(_url(3), HOST, 1)])
                raise RuntimeError("a bug while visiting")
            _page(frontier, 4)
        assert _seen(tmp_path) == {_url(1), _url(4)}


def test_followers_commit_before_the_frontier(tmp_path: Path) -> None:
    outbox = sqlite3.connect(tmp_path / "outbox.sqlite3", isolation_level=None)
    outbox.execute("CREATE TABLE outbox (doc_id TEXT)")
    commits: list[str] = []
    outbox.set_trace_callback(lambda sql: commits.append("outbox") if sql == "COMMIT" else None)
    with Frontier(tmp_path) as frontier:
        frontier.start_run(False)
        db = frontier._db
        db.set_trace_callback(lambda sql: commits.append("frontier") if sql == "COMMIT" else None)
        with frontier.grouped(outbox):
            outbox.execute("INSERT INTO outbox VALUES (?)", (_url(1),))
            _page(frontier, 1)
        db.set_trace_callback(None)
    assert commits == ["outbox", "frontier"]
    assert not outbox.in_transaction
    assert outbox.execute("SELECT doc_id FROM outbox").fetchall() == [(_url(1),)]
    outbox.close()
