"""A psycopg 3 connection that runs the frontier's SQL: placeholders, autocommit, errors.

The frontier's queries are written once with SQLite's placeholders (``?`` and ``:name``,
:mod:`indexer.crawl.frontier.sql`); :func:`to_pyformat` rewrites them to psycopg's (``%s``,
``%(name)s``). Statements are bound on the server and prepared on their first use
(``prepare_threshold=0``: each is parsed and planned once per connection, psycopg keeps
the last 100): a parameter whose type the statement does not fix, such as
``? IS NULL``, needs a cast (``CAST(? AS TEXT) IS NULL``, which SQLite reads the same). The
connection is in autocommit mode: each statement is a transaction unless ``BEGIN`` opened
one (:class:`~indexer.crawl.frontier.transaction.Transaction`). Errors are translated at
this boundary into :class:`~indexer.errors.StateError` (the database cannot be reached or
used), :class:`~indexer.errors.FrontierLostError` (a connection that worked went away, or a
statement overran ``frontier.stall_seconds``: :mod:`.stall`; every later call raises it again
at once, without waiting on the network) and :class:`~indexer.errors.StorageError` (disk
full), each one line naming ``frontier.url`` without its password (:func:`redact`).
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus

from indexer.crawl.frontier.postgres.stall import StallWatch
from indexer.errors import FrontierLostError, StateError, StorageError
from indexer.settings_frontier import STALL_SECONDS

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_PASSWORD_PARAM = re.compile(r"(password=)[^&]*", re.I)
_TRANSACTION_WORDS = frozenset({"BEGIN", "COMMIT", "ROLLBACK"})
# psycopg logs a lost connection's pipeline as it unwinds; the error itself is raised and
# translated below, one line at the boundary.
logging.getLogger("psycopg").setLevel(logging.ERROR)
#: Seconds to wait for the server when connecting, at most (:func:`connect_timeout`).
CONNECT_TIMEOUT = 10


def redact(url: str) -> str:
    """``url`` with its password (userinfo or ``password=`` parameter) replaced by ``***``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc and ":" in netloc.rsplit("@", 1)[0]:
        user, host = netloc.rsplit("@", 1)
        netloc = f"{user.split(':', 1)[0]}:***@{host}"
    query = _PASSWORD_PARAM.sub(r"\1***", parts.query)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def connect_timeout(stall_seconds: float) -> int:
    """libpq's ``connect_timeout`` (whole seconds; libpq reads a value under 2 as 2: the
    PostgreSQL documentation, libpq connection parameters) for ``frontier.stall_seconds``:
    a server that does not answer the connect is not answering, the condition that bound
    names, so a shorter bound holds for the connect too (rounded up); a longer one does not
    lengthen the wait past :data:`CONNECT_TIMEOUT`: at the connect nothing is held yet
    (no lease, no claim) that patience could keep, and a command started against a hung
    server says so sooner."""
    return max(2, min(CONNECT_TIMEOUT, math.ceil(stall_seconds)))


def to_pyformat(sql: str) -> str:
    """SQLite placeholders to psycopg's: ``?`` → ``%s``, ``:name`` → ``%(name)s`` (a literal
    ``%`` doubled). The frontier's SQL has no ``?`` or ``:`` inside string literals."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%").replace("?", "%s"))


class PgConnection:
    """The frontier's :class:`~indexer.crawl.frontier.sql.Connection` on PostgreSQL.

    Args:
        url: a ``postgresql://`` URL (libpq's syntax).
        search_path: the database schema the frontier's tables live in.
        stall_seconds: how long one statement may wait for its answer (:mod:`.stall`), and
            the connect (:func:`connect_timeout`).

    Attributes:
        lost: the error of a connection that went away, once it did (else None).

    Raises:
        StateError: the server cannot be reached or refuses the login (names
            ``frontier.url`` without its password and what to check).
    """

    def __init__(self, url: str, search_path: str, stall_seconds: float = STALL_SECONDS) -> None:
        self.url = redact(url)
        #: How errors name this database: the setting and its value, password hidden.
        self.label = f"frontier.url {self.url}"
        self.lost: FrontierLostError | None = None
        try:
            self._conn = psycopg.connect(
                url,
                autocommit=True,
                prepare_threshold=0,
                connect_timeout=connect_timeout(stall_seconds),
                application_name="indexer",
            )
        except psycopg.Error as exc:
            raise StateError(self.label, _cannot_connect(exc)) from None
        self._begin = False  # a BEGIN waits to be sent with the next statement
        self._watch = StallWatch(self._fileno, stall_seconds)
        try:
            self.execute(f"SET search_path TO {search_path}")
        except BaseException:
            self.close()
            raise

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (also one that failed and awaits ROLLBACK)."""
        return self._begin or self._conn.info.transaction_status != TransactionStatus.IDLE

    def execute(self, sql: str, parameters: Any = None, /) -> psycopg.Cursor[Any]:
        """Run one statement (SQLite placeholders); the cursor holds its rows.

        ``BEGIN`` is sent with the transaction's first statement, in one round trip
        (psycopg's pipeline mode); a transaction without statements sends nothing."""
        query = sql if parameters is None else to_pyformat(sql)
        with self._statement():
            if parameters is None and sql in _TRANSACTION_WORDS and (sql == "BEGIN" or self._begin):
                self._begin = sql == "BEGIN"
                return self._conn.cursor()
            if not self._begin:
                return self._conn.cursor().execute(query, parameters)
            self._begin = False
            with self._conn.pipeline():
                self._conn.execute("BEGIN")
                return self._conn.cursor().execute(query, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> psycopg.Cursor[Any]:
        """Run one statement once per parameter row."""
        with self._statement():
            cur = self._conn.cursor()
            self._send_begin()
            cur.executemany(to_pyformat(sql), parameters)
        return cur

    def executescript(self, sql: str, /) -> None:
        """Run statements without parameters (one round trip, never prepared)."""
        with self._statement():
            self._send_begin()
            self._conn.execute(sql, prepare=False)

    @contextlib.contextmanager
    def _statement(self) -> Iterator[None]:
        """Around one statement: raise :attr:`lost` again, else watch for a stall while it
        runs; driver errors leave translated (:meth:`_translate`). Every call into
        psycopg, also a cursor's creation, runs inside it: on a closed connection that
        raises too."""
        self._sending()
        try:
            yield
        except psycopg.Error as exc:
            raise self._translate(exc) from None
        finally:
            self._watch.end()

    def _send_begin(self) -> None:
        """Send the ``BEGIN`` that waits for the transaction's first statement."""
        if self._begin:
            self._begin = False
            self._conn.execute("BEGIN")

    def close(self) -> None:
        """Close the connection (an open transaction is rolled back by the server)."""
        self._watch.close()
        self._conn.close()

    def _sending(self) -> None:
        """Before a statement: raise :attr:`lost` again, else start the stall watch."""
        if self.lost is not None:
            raise self.lost
        self._watch.begin()

    def _fileno(self) -> int:
        return -1 if self._conn.closed else int(self._conn.pgconn.socket)

    def _translate(self, exc: psycopg.Error) -> Exception:
        """StorageError for a full disk; FrontierLostError (kept in :attr:`lost`) when the
        connection went away or stalled; StateError when the server refuses; other errors
        (a bug in a query) pass unchanged."""
        if isinstance(exc, pg_errors.DiskFull | pg_errors.OutOfMemory):
            return StorageError(self.label, f"PostgreSQL: {exc}")
        if self._watch.stalled or self._conn.closed or _gone(exc):
            stalled = f"no answer within frontier.stall_seconds={self._watch.seconds:g}"
            self.lost = FrontierLostError(self.url, stalled if self._watch.stalled else str(exc))
            return self.lost
        if isinstance(exc, psycopg.OperationalError):
            return StateError(self.label, f"PostgreSQL: {exc}")
        return exc


#: SQLSTATE classes of a server going away: 08 connection exception, 57P01–57P03 admin
#: shutdown, crash shutdown, cannot connect now.
_GONE_STATES = ("57P01", "57P02", "57P03")


def _gone(exc: psycopg.Error) -> bool:
    """Whether ``exc`` says the server or the connection went away (not a refusal)."""
    state = exc.sqlstate or ""
    if state.startswith("08") or state in _GONE_STATES:
        return True
    return isinstance(exc, psycopg.OperationalError) and not state  # reset, closed, EOF


def _cannot_connect(exc: psycopg.Error) -> str:
    """The one line of a failed connect: libpq's words and what to check."""
    return (
        f"cannot connect to PostgreSQL ({' '.join(str(exc).split())[:240]}): check the "
        "setting (host, port, user, password, database) and that PostgreSQL runs"
    )
