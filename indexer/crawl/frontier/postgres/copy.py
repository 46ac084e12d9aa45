"""A SQLite copy of the PostgreSQL frontier, for ``indexer reindex --dry-run``.

A dry run works on a copy of the frontier and its grace counters and changes neither
(:mod:`indexer.pipeline.reindex`); for the shared frontier the copy is a SQLite frontier
in the dry run's scratch directory (``frontier.sqlite3`` with the same tables and rows, and
``missed.sqlite3`` with the ``missed`` counts), read in one ``REPEATABLE READ`` transaction
so that crawl processes writing meanwhile leave it consistent. Left out: the outcome
histories (the SQLite triggers write new ones as the dry run goes) and the host leases
(the dry run is one process).
"""

from __future__ import annotations

from pathlib import Path

from indexer.crawl.datadir import DataDir, open_state
from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.store import Frontier
from indexer.crawl.frontier.transaction import Transaction

#: The frontier's tables a dry run needs, copied in this order.
TABLES = (
    "urls",
    "meta",
    "runs",
    "outlinks",
    "tombstones",
    "template_stats",
    "explanations",
    "run_progress",
)
#: Rows read and written at a time.
CHUNK = 5000


def copy_frontier(db: PgConnection, data_dir: Path) -> None:
    """Write the frontier of ``db`` as a SQLite frontier (and its grace counters as
    ``missed.sqlite3``) into ``data_dir``, which must hold no frontier yet.

    Raises:
        StateError: the database cannot be read (names its URL without the password).
        StorageError: ``data_dir`` cannot be written.
    """
    from indexer.pipeline.reconcile import MISSED  # the pipeline's state file kind

    db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    try:
        with Frontier(data_dir) as copy:
            target: Connection = copy._db
            with Transaction(target):
                for table in TABLES:
                    _copy_table(db, target, table, _columns(target, table))
        missed = open_state(DataDir(data_dir).missed, MISSED, create=True)
        try:
            with Transaction(missed):
                _copy_table(db, missed, "missed", ["id", "runs"])
        finally:
            missed.close()
    finally:
        db.execute("COMMIT")


def _columns(target: Connection, table: str) -> list[str]:
    """The columns of ``table`` in the SQLite copy (the PostgreSQL table has them all)."""
    return [str(r[1]) for r in target.execute(f"PRAGMA table_info({table})")]


def _copy_table(source: PgConnection, target: Connection, table: str, columns: list[str]) -> None:
    names = ", ".join(columns)
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
    cursor = source.execute(f"SELECT {names} FROM {table}")
    while rows := cursor.fetchmany(CHUNK):
        target.executemany(insert, [tuple(_plain(v) for v in row) for row in rows])


def _plain(value: object) -> object:
    """A value SQLite stores: PostgreSQL's ``bytea`` arrives as ``memoryview``."""
    return bytes(value) if isinstance(value, memoryview) else value
