"""The PostgreSQL adapter of the frontier's SQL (issue #20): statements prepared once per
connection, a transaction's BEGIN sent with its first statement, all or nothing kept."""

from __future__ import annotations

import pytest

from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.transaction import Transaction


def _table(db: PgConnection) -> None:
    db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")


def _seen_elsewhere(url: str) -> list[tuple[str, str | None]]:
    other = PgConnection(url, "public")
    try:
        return [tuple(r) for r in other.execute("SELECT k, v FROM t ORDER BY k").fetchall()]
    finally:
        other.close()


def test_statements_are_prepared_once_and_untyped_nulls_need_a_cast(pg_url: str) -> None:
    db = PgConnection(pg_url, "public")
    try:
        _table(db)
        for key in ("a", "b"):
            db.execute("INSERT INTO t (k, v) VALUES (?, ?)", (key, None))
        prepared = db.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ?",
            ("INSERT INTO t%",),
        ).fetchone()
        assert prepared == (1,), "one server-side statement for both inserts"
        found = db.execute("SELECT k FROM t WHERE CAST(:v AS TEXT) IS NULL ORDER BY k", {"v": None})
        assert [r[0] for r in found] == ["a", "b"]
    finally:
        db.close()


def test_a_transaction_is_all_or_nothing_and_an_empty_one_sends_nothing(pg_url: str) -> None:
    db = PgConnection(pg_url, "public")
    try:
        _table(db)
        with Transaction(db):
            assert db.in_transaction, "BEGIN counts as open before it is sent"
        assert not db.in_transaction
        with pytest.raises(RuntimeError), Transaction(db):
            db.execute("INSERT INTO t (k, v) VALUES (?, ?)", ("lost", "x"))
            assert _seen_elsewhere(pg_url) == [], "not committed yet"
            raise RuntimeError("the page failed")
        assert not db.in_transaction
        with Transaction(db):
            db.execute("INSERT INTO t (k, v) VALUES (?, ?)", ("kept", "1"))
            db.execute("UPDATE t SET v=? WHERE k=?", ("2", "kept"))
        assert _seen_elsewhere(pg_url) == [("kept", "2")]
    finally:
        db.close()
