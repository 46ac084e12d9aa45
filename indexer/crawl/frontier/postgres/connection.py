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
used) and :class:`~indexer.errors.StorageError` (disk full), each one line naming the URL
without its password (:func:`redact`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus

from indexer.errors import StateError, StorageError

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_PASSWORD_PARAM = re.compile(r"(password=)[^&]*", re.I)
_TRANSACTION_WORDS = frozenset({"BEGIN", "COMMIT", "ROLLBACK"})
#: Seconds to wait for the server when connecting.
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


def to_pyformat(sql: str) -> str:
    """SQLite placeholders to psycopg's: ``?`` → ``%s``, ``:name`` → ``%(name)s`` (a literal
    ``%`` doubled). The frontier's SQL has no ``?`` or ``:`` inside string literals."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%").replace("?", "%s"))


class PgConnection:
    """The frontier's :class:`~indexer.crawl.frontier.sql.Connection` on PostgreSQL.

    Args:
        url: a ``postgresql://`` URL (libpq's syntax).
        search_path: the database schema the frontier's tables live in.

    Raises:
        StateError: the server cannot be reached or refuses the login (names the URL
            without its password).
    """

    def __init__(self, url: str, search_path: str) -> None:
        self.url = redact(url)
        try:
            self._conn = psycopg.connect(
                url,
                autocommit=True,
                prepare_threshold=0,
                connect_timeout=CONNECT_TIMEOUT,
                application_name="indexer",
            )
        except psycopg.Error as exc:
            raise StateError(self.url, f"cannot connect to PostgreSQL: {exc}") from None
        self._begin = False  # a BEGIN waits to be sent with the next statement
        self.execute(f"SET search_path TO {search_path}")

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (also one that failed and awaits ROLLBACK)."""
        return self._begin or self._conn.info.transaction_status != TransactionStatus.IDLE

    def execute(self, sql: str, parameters: Any = None, /) -> psycopg.Cursor[Any]:
        """Run one statement (SQLite placeholders); the cursor holds its rows.

        ``BEGIN`` is sent with the transaction's first statement, in one round trip
        (psycopg's pipeline mode); a transaction without statements sends nothing."""
        if parameters is None and sql in _TRANSACTION_WORDS and (sql == "BEGIN" or self._begin):
            self._begin = sql == "BEGIN"
            return self._conn.cursor()
        query = sql if parameters is None else to_pyformat(sql)
        try:
            if not self._begin:
                return self._conn.cursor().execute(query, parameters)
            self._begin = False
            with self._conn.pipeline():
                self._conn.execute("BEGIN")
                return self._conn.cursor().execute(query, parameters)
        except psycopg.Error as exc:
            raise self._translate(exc) from None

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> psycopg.Cursor[Any]:
        """Run one statement once per parameter row."""
        cur = self._conn.cursor()
        try:
            if self._begin:
                self._begin = False
                self._conn.execute("BEGIN")
            cur.executemany(to_pyformat(sql), parameters)
        except psycopg.Error as exc:
            raise self._translate(exc) from None
        return cur

    def executescript(self, sql: str, /) -> None:
        """Run statements without parameters (one round trip, never prepared)."""
        try:
            if self._begin:
                self._begin = False
                self._conn.execute("BEGIN")
            self._conn.execute(sql, prepare=False)
        except psycopg.Error as exc:
            raise self._translate(exc) from None

    def close(self) -> None:
        """Close the connection (an open transaction is rolled back by the server)."""
        self._conn.close()

    def _translate(self, exc: psycopg.Error) -> Exception:
        """StorageError for a full disk, StateError when the connection is gone or the
        server refuses; other errors (a bug in a query) pass unchanged."""
        if isinstance(exc, pg_errors.DiskFull | pg_errors.OutOfMemory):
            return StorageError(self.url, f"PostgreSQL: {exc}")
        if isinstance(exc, psycopg.OperationalError) or self._conn.closed:
            return StateError(self.url, f"PostgreSQL: {exc}")
        return exc
