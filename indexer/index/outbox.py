"""The durable outbox: every add and delete is stored locally before it is sent to Solr.

A change is written to SQLite (WAL) under the data directory before the crawl counts
the page as done, and removed only when Solr acknowledges it. If Solr is down or the crawl
is killed, the changes wait there and are replayed on the next start. Document ids are
stable (the normalized URL), so a replay overwrites rather than duplicates. A later change
to the same id supersedes an earlier unsent one.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indexer.crawl.datadir import StateKind, open_state
from indexer.errors import StateError, StorageError
from indexer.index.stored import StoredDoc

if TYPE_CHECKING:
    from indexer.crawl.frontier import Frontier

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    doc_id TEXT NOT NULL UNIQUE,
    action TEXT NOT NULL CHECK (action IN ('add', 'delete')),
    payload TEXT
);
"""

#: The outbox's state file (version 1: the schema above, as first released).
OUTBOX = StateKind(
    name="outbox.sqlite3",
    version=1,
    tables={"outbox": ("seq", "doc_id", "action", "payload")},
    schema=_SCHEMA,
    remedy="run `indexer reindex --repair` (recreates the outbox and re-sends what Solr lacks)",
)


#: The frontier's ``meta`` key telling that a crawl of its data directory used an outbox.
OUTBOX_USED = "outbox"


def claim_outbox(frontier: Frontier) -> None:
    """Before a crawl that sends to Solr: check that the outbox is there if one was used.

    A missing outbox of a data directory whose crawls used one has lost the changes it
    held; it is refused like a broken one, naming ``indexer reindex --repair``. Then the
    frontier remembers that this data directory uses an outbox.

    Raises:
        StateError: the outbox was used before and is missing now.
    """
    path = frontier.data_dir.outbox
    if frontier.meta(frontier.outbox_mark) and not path.exists():
        raise StateError(path, f"missing, though earlier crawls used it; {OUTBOX.remedy}")
    if not path.exists():  # create it first: the mark must never name a file never made
        Outbox(path).close()  # (a full disk fails here, before the mark)
    frontier.set_meta(frontier.outbox_mark, "1")


@dataclass(frozen=True, slots=True)
class Change:
    """One pending change.

    Attributes:
        seq: position in the outbox (acknowledge with it).
        doc_id: the Solr document id.
        action: ``add`` or ``delete``.
        payload: the document's JSON text for ``add``, else None.
        size: payload size in bytes (UTF-8).
    """

    seq: int
    doc_id: str
    action: str
    payload: str | None
    size: int

    @property
    def doc(self) -> StoredDoc | None:
        """The document of an ``add`` (its stored JSON, parsed only when read), else None."""
        return None if self.payload is None else StoredDoc(self.payload)


class Outbox:
    """SQLite-backed queue of pending Solr changes.

    Args:
        path: the database file (its directory must exist); created when missing.

    Raises:
        StateError: the file is broken, foreign or newer (its message names
            ``indexer reindex --repair``).
    """

    def __init__(self, path: Path) -> None:
        self._db: sqlite3.Connection = open_state(path, OUTBOX, create=True, threads=True)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The outbox's connection (autocommit mode), for a grouping of commits."""
        return self._db

    def add(self, doc: dict[str, Any]) -> None:
        """Queue an add (or replacement) of ``doc``; ``doc["id"]`` is its id."""
        payload = json.dumps(doc, ensure_ascii=False)
        self._put(str(doc["id"]), "add", payload)

    def delete(self, doc_id: str) -> None:
        """Queue the deletion of ``doc_id``."""
        self._put(doc_id, "delete", None)

    def _put(self, doc_id: str, action: str, payload: str | None) -> None:
        # REPLACE moves the id to the end: the newest change for an id is the one sent.
        self._db.execute(
            "INSERT OR REPLACE INTO outbox (doc_id, action, payload) VALUES (?, ?, ?)",
            (doc_id, action, payload),
        )

    def pending(self, max_count: int, max_bytes: int) -> list[Change]:
        """The oldest pending changes, at most ``max_count`` and about ``max_bytes`` (at
        least one when any is pending); see :meth:`next_batch`."""
        return self.next_batch(max_count, max_bytes)[0]

    def next_batch(
        self, max_count: int, max_bytes: int, busy: Collection[str] = ()
    ) -> tuple[list[Change], bool]:
        """The oldest pending changes, at most ``max_count`` and about ``max_bytes``, with
        whether a cap cut the batch short (more changes wait behind it).

        At least one change is returned when any is pending, however large. Changes of the
        ids in ``busy`` (sent and not yet acknowledged) are left out, and so is a newer
        change of such an id: it goes only after the one in flight was answered, so Solr
        sees the changes of one id in their order (a delete after an add stays after it).
        """
        rows = self._db.execute(
            "SELECT seq, doc_id, action, payload, length(CAST(payload AS BLOB)) FROM outbox"
            " ORDER BY seq LIMIT ?",
            (max_count + len(busy) + 1,),  # doc_id is UNIQUE: a busy id holds at most one row
        ).fetchall()
        changes: list[Change] = []
        total = 0
        for seq, doc_id, action, payload, length in rows:
            if doc_id in busy:
                continue
            size = length if payload else len(doc_id)
            if len(changes) == max_count or (changes and total + size > max_bytes):
                return changes, True
            total += size
            changes.append(Change(seq, doc_id, action, payload, size))
        return changes, False

    def ack(self, changes: list[Change]) -> None:
        """Remove acknowledged changes (a change superseded meanwhile stays), in one
        transaction (a savepoint: inside a grouping of commits it joins that transaction).
        """
        self._db.execute("SAVEPOINT ack")
        try:
            self._db.executemany("DELETE FROM outbox WHERE seq=?", [(c.seq,) for c in changes])
        except BaseException:
            with contextlib.suppress(sqlite3.Error, StorageError, StateError):  # rolled back
                self._db.execute("ROLLBACK TO ack")
                self._db.execute("RELEASE ack")
            raise
        self._db.execute("RELEASE ack")

    def retract(self, match: Callable[[str], bool], also: Iterable[str] = ()) -> list[str]:
        """Turn every pending add whose id ``match``es into a delete, and queue deletes of
        the ids in ``also``, in one transaction; returns the ids queued for deletion.

        ``indexer delete`` uses it, so that adds still waiting (a crawl killed before its
        drain) can no longer bring back what it deletes.
        """
        self._db.execute("BEGIN IMMEDIATE")
        try:
            rows = self._db.execute("SELECT doc_id FROM outbox WHERE action='add'").fetchall()
            ids = list(dict.fromkeys([r[0] for r in rows if match(r[0])] + list(also)))
            for doc_id in ids:
                self._put(doc_id, "delete", None)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return ids

    def settle_deletes(self, ids: Iterable[str]) -> None:
        """Remove pending deletes of ``ids`` that were applied outside the index stage."""
        self._db.executemany(
            "DELETE FROM outbox WHERE doc_id=? AND action='delete'", [(i,) for i in ids]
        )

    def count(self, at_most: int | None = None) -> int:
        """Pending changes; with ``at_most``, counted only up to it (a bounded scan, for a
        check made at each new change)."""
        if at_most is None:
            return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
        sql = "SELECT COUNT(*) FROM (SELECT 1 FROM outbox LIMIT ?)"
        return int(self._db.execute(sql, (at_most,)).fetchone()[0])
