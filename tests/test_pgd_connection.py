"""The frontier's PostgreSQL connection when the server goes away (issue #20): a connection
ended by the server (``pg_terminate_backend``: what a restart or a reset does to it) is
:class:`~indexer.errors.FrontierLostError`, raised again at once by every later call, and a
statement left unanswered (a lock that never comes, standing in for a stalled server) ends
after ``stall_seconds`` with the same error naming the bound."""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg
import pytest

from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.errors import FrontierLostError, StateError


def _lose(db: PgConnection, pg_url: str) -> FrontierLostError:
    """End ``db``'s connection from the server side; the error of the next statement."""
    (pid,) = db.execute("SELECT pg_backend_pid()").fetchall()[0]
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(FrontierLostError) as lost:
        db.execute("SELECT 1")
    return lost.value


def test_a_connection_ended_by_the_server_is_lost_for_every_later_call(pg_url: str) -> None:
    db = PgConnection(pg_url, "public")
    try:
        lost = _lose(db, pg_url)
        message = str(lost)
        assert message.startswith("frontier.url postgresql://indexer@127.0.0.1:"), message
        assert "PostgreSQL went away" in message and "--resume" in message, message
        assert isinstance(lost, StateError), "exit 2 at the boundary, like a state file"
        started = time.monotonic()
        for _ in range(3):
            with pytest.raises(FrontierLostError) as again:
                db.execute("SELECT 1")
            assert again.value is lost
        assert time.monotonic() - started < 0.1, "later calls waited on the network"
    finally:
        db.close()


LATER_CALLS: dict[str, Callable[[PgConnection], object]] = {
    "executemany": lambda db: db.executemany("SELECT ?", [(1,), (2,)]),
    "executescript": lambda db: db.executescript("SELECT 1; SELECT 2"),
    "BEGIN": lambda db: db.execute("BEGIN"),
    "COMMIT": lambda db: db.execute("COMMIT"),
}


@pytest.mark.parametrize("call", sorted(LATER_CALLS))
def test_every_kind_of_call_on_a_lost_connection_raises_the_lost_error(
    pg_url: str, call: str
) -> None:
    """Also the calls that make a cursor first (a driver error there once left as a
    traceback: CI, a crawl's template flush after PostgreSQL stopped)."""
    db = PgConnection(pg_url, "public")
    try:
        lost = _lose(db, pg_url)
        with pytest.raises(FrontierLostError) as again:
            LATER_CALLS[call](db)
        assert again.value is lost
    finally:
        db.close()


def test_a_statement_left_unanswered_ends_after_the_stall_bound(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(4242)")
        db = PgConnection(pg_url, "public", stall_seconds=1.0)
        try:
            started = time.monotonic()
            with pytest.raises(FrontierLostError, match=r"frontier.stall_seconds=1\b"):
                db.execute("SELECT pg_advisory_lock(4242)")  # waits for ever
            took = time.monotonic() - started
            assert 1.0 <= took < 4.0, f"{took:.1f} s"
            with pytest.raises(FrontierLostError):
                db.execute("SELECT 1")
        finally:
            db.close()


def test_a_refused_login_is_no_lost_connection(pg_url: str) -> None:
    """A server that refuses is the setting's fault, said as such (not 'went away')."""
    with pytest.raises(StateError) as refused:
        PgConnection(pg_url.rsplit("/", 1)[0] + "/no_such_db", "public")
    assert not isinstance(refused.value, FrontierLostError)
    assert "cannot connect to PostgreSQL" in str(refused.value)
