"""What the ``--processes N`` parent asks the shared frontier (:mod:`indexer.pipeline.processes`):
whether process 0 has opened the run, whether the run is still open (a dead child's
replacement has something to do), and which outboxes keep it open at the end. Each question
opens a connection of its own (the parent holds none while its children crawl); errors are
:class:`~indexer.errors.StateError` naming the URL without its password
(:mod:`indexer.crawl.frontier.postgres.connection`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.runclose import outbox_key
from indexer.crawl.frontier.postgres.schema import NAMESPACE, stored_version
from indexer.settings_frontier import STALL_SECONDS

#: The frontier schema's version with ``run_outboxes`` (:mod:`..postgres.runclose`).
RUN_END_VERSION = 4
#: Seconds between two looks.
POLL = 0.1

_OPENED = (
    "SELECT 1 FROM run_outboxes WHERE outbox=? AND open AND updated >= ? "
    "AND run=(SELECT MAX(id) FROM runs)"
)
_OPEN_OUTBOXES = (
    "SELECT o.outbox FROM run_outboxes o JOIN runs r ON r.id = o.run WHERE o.open "
    "AND r.finished IS NULL AND r.id = (SELECT MAX(id) FROM runs) ORDER BY o.outbox"
)
_RUN_OPEN = "SELECT finished IS NULL FROM runs ORDER BY id DESC LIMIT 1"


def wait_open(
    url: str,
    data_dir: Path,
    since: float,
    waiting: Callable[[], bool],
    stall_seconds: float = STALL_SECONDS,
) -> bool:
    """Wait until the process of ``data_dir`` has registered its outbox in the newest run
    (since epoch ``since``), while ``waiting()`` holds: False when it stopped holding first."""
    key, ready = outbox_key(data_dir), False
    db = PgConnection(url, NAMESPACE, stall_seconds)
    try:
        while waiting():
            ready = ready or (stored_version(db) or 0) >= RUN_END_VERSION  # else being made
            if ready and db.execute(_OPENED, (key, since)).fetchone() is not None:
                return True
            time.sleep(POLL)
    finally:
        db.close()
    return False


def run_open(url: str, stall_seconds: float = STALL_SECONDS) -> bool:
    """Whether the newest run of the frontier at ``url`` is still open."""
    db = PgConnection(url, NAMESPACE, stall_seconds)
    try:
        if (stored_version(db) or 0) < RUN_END_VERSION:
            return False
        row = db.execute(_RUN_OPEN).fetchone()
        return row is not None and bool(row[0])
    finally:
        db.close()


def open_outboxes(url: str, stall_seconds: float = STALL_SECONDS) -> list[str]:
    """The outboxes (``machine:dir``) that keep the newest run open, when it is open."""
    db = PgConnection(url, NAMESPACE, stall_seconds)
    try:
        if (stored_version(db) or 0) < RUN_END_VERSION:  # process 0 failed before making it
            return []
        return [str(row[0]) for row in db.execute(_OPEN_OUTBOXES)]
    finally:
        db.close()
