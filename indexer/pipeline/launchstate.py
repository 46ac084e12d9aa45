"""What the ``--processes N`` parent asks the shared frontier (:mod:`indexer.pipeline.processes`):
whether process 0 has opened the run, whether the run is still open (a dead child's
replacement has something to do), and which outboxes keep it open at the end. Each question
opens a connection of its own (the parent holds none while its children crawl); errors are
:class:`~indexer.errors.StateError` naming the URL without its password
(:mod:`indexer.crawl.frontier.postgres.connection`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.runclose import outbox_key
from indexer.crawl.frontier.postgres.schema import NAMESPACE, stored_version
from indexer.crawl.frontier.progress import parse
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


#: The frontier's version with ``run_members`` (:mod:`..postgres.members`).
MEMBERS_VERSION = 5
_MY_RUN = "SELECT MAX(run) FROM run_members WHERE started >= ? AND outbox IN ({})"
_PROGRESS = "SELECT data FROM run_members WHERE run=? AND started >= ? AND outbox IN ({})"
_ENDED_IN = (
    "SELECT outcome, COUNT(*) FROM urls WHERE run=? AND state='done' AND outcome IS NOT NULL "
    "AND updated >= ? GROUP BY outcome ORDER BY outcome"
)
_LEFT = "SELECT COUNT(*) FROM urls WHERE run=? AND state<>'done'"
_FINISHED = "SELECT finished IS NOT NULL FROM runs WHERE id=?"
# Processes of other launches in the run: those that crawled while this launch did, and
# those alive now (their lease of ``crawl_processes`` not expired).
_OTHERS = (
    "SELECT COUNT(*) FROM run_members WHERE run=? AND (ended IS NULL OR ended >= ?) "
    "AND outbox NOT IN ({})"
)
_OTHERS_LIVE = (
    "SELECT COUNT(*) FROM run_members m JOIN crawl_processes p ON p.owner = m.owner "
    "WHERE m.run=? AND p.expires_at >= ? AND m.outbox NOT IN ({})"
)


@dataclass(frozen=True, slots=True)
class RunCount:
    """What the shared frontier holds of the run a launch crawled.

    Attributes:
        run: the run number.
        outcomes: ``{outcome: URLs}`` of the URLs that ended in the run since the launch
            started, each URL once (its last outcome), whichever process ended it.
        left: URLs of the run not done yet (queued, or claimed by a process that stopped).
        closed: whether the run is closed (``runs.finished`` set).
        fetched: the fetches of the launch's processes in their last progress rows (each
            written at most every 2 s: the count of a process that wrote no summary).
        shared: processes of another launch (``--join``) crawled the run meanwhile: the
            frontier cannot tell whose URLs are whose.
        others_live: processes of another launch still crawl the run.
    """

    run: int
    outcomes: dict[str, int]
    left: int
    closed: bool
    fetched: int
    shared: bool = False
    others_live: bool = False


def run_count(
    url: str, data_dirs: Iterable[Path], since: float, stall_seconds: float = STALL_SECONDS
) -> RunCount | None:
    """The newest run that a process of ``data_dirs`` joined at or after epoch ``since``,
    counted from the frontier at ``url``; None when none did (they failed before joining)
    or the tables are older than ``run_members``.

    Raises:
        StateError: the frontier cannot be read (named without its password).
    """
    keys = [outbox_key(d) for d in data_dirs]
    db = PgConnection(url, NAMESPACE, stall_seconds)
    try:
        if not keys or (stored_version(db) or 0) < MEMBERS_VERSION:
            return None
        marks = ", ".join("?" * len(keys))
        row = db.execute(_MY_RUN.format(marks), (since, *keys)).fetchone()
        if row is None or row[0] is None:
            return None
        run = int(row[0])
        outcomes = {str(o): int(n) for o, n in db.execute(_ENDED_IN, (run, since))}
        left = db.execute(_LEFT, (run,)).fetchone()
        closed = db.execute(_FINISHED, (run,)).fetchone()
        rows = db.execute(_PROGRESS.format(marks), (run, since, *keys))
        fetched = sum(p.fetched for (data,) in rows if data and (p := parse(data)) is not None)
        ended = bool(closed and closed[0])
        others = db.execute(_OTHERS.format(marks), (run, since, *keys)).fetchone()
        live = db.execute(_OTHERS_LIVE.format(marks), (run, time.time(), *keys)).fetchone()
        counts = (bool(others and others[0]), bool(live and live[0]))
        return RunCount(run, outcomes, int(left[0]) if left else 0, ended, fetched, *counts)
    finally:
        db.close()
