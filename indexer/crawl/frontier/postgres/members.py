"""The processes of a run on the shared frontier, a row each: progress, heartbeat, end.

``run_members`` (schema version 5) holds one row per crawl process of a run (``run,
owner``; the owner id of :func:`.leases.owner_id`, so a process started again on the same
data directory is a row of its own and the dead one's part stays counted), written when it
starts or joins the run (:meth:`RunMembers.joined`), its progress every 2 s
(:class:`PgProgressStore`, in place of the one row a run of
:mod:`indexer.crawl.frontier.progress`) and its end, phase and exit code
(:meth:`RunMembers.ended`). Whether a process lives is its heartbeat: its ``crawl_processes``
row (:mod:`.leases`), renewed with its host leases, deleted when it ends. The views add the
rows up (:func:`indexer.crawl.frontier.members.add_up`) and name the dead ones with the
command that finishes their part (:func:`indexer.crawl.frontier.members.drain_command`).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, replace

from indexer.crawl.frontier.members import (
    CRAWLING,
    DRAIN_NOTE,
    GONE,
    Member,
    add_up,
    continued,
    describe,
    died,
    drain_command,
    split_outbox,
    who,
)
from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.cutoff import noted
from indexer.crawl.frontier.progress import Progress, ProgressStore, parse, run_outcomes
from indexer.crawl.owner import row_gone

#: Schema step (version 5 of the frontier's tables in PostgreSQL).
TABLE = """
CREATE TABLE run_members (
    run INTEGER NOT NULL,
    owner TEXT NOT NULL,
    outbox TEXT COLLATE "C" NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    data TEXT,
    phase TEXT,
    exit_code INTEGER,
    ended DOUBLE PRECISION,
    PRIMARY KEY (run, owner)
);
"""

_JOINED = (
    "INSERT INTO run_members (run, owner, outbox, started, updated) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (run, owner) DO UPDATE SET ended=NULL, phase=NULL, exit_code=NULL"
)
_ENDED = "UPDATE run_members SET phase=?, exit_code=?, ended=? WHERE run=? AND owner=?"
_PROGRESS = "UPDATE run_members SET data=?, updated=? WHERE run=? AND owner=?"
_READ = (
    "SELECT m.run, m.owner, m.outbox, m.started, m.data, m.phase, m.exit_code, m.ended, "
    "EXISTS (SELECT 1 FROM crawl_processes p WHERE p.owner = m.owner AND p.expires_at >= ?) "
    "FROM run_members m"
)
_ORDER = " ORDER BY m.run, m.started, m.owner"


class RunMembers:
    """The ``run_members`` rows of one frontier database.

    Args:
        db: the frontier's connection.
        owner: this process's lease owner id ('' for a read-only view).
        outbox: this process's outbox key (:func:`.runclose.outbox_key`; '' for a view).
    """

    def __init__(self, db: PgConnection, owner: str = "", outbox: str = "") -> None:
        self._db = db
        self.owner = owner
        self.outbox = outbox

    def joined(self, run: int) -> None:
        """This process starts (or joins, or resumes) ``run``."""
        now = time.time()
        self._db.execute(_JOINED, (run, self.owner, self.outbox, now, now))

    def ended(self, run: int, phase: str, exit_code: int) -> None:
        """This process ends its part of ``run`` in ``phase`` with ``exit_code``."""
        self._db.execute(_ENDED, (phase, exit_code, time.time(), run, self.owner))

    def progress(self, progress: Progress) -> bool:
        """Store this process's progress in its row; False when it has none (it did not
        start the run: the caller keeps the one row a run)."""
        data = json.dumps(asdict(progress), ensure_ascii=False)
        cursor = self._db.execute(_PROGRESS, (data, progress.updated, progress.run, self.owner))
        return int(cursor.rowcount) > 0

    def of(self, run: int) -> list[Member]:
        """The processes of ``run``, in the order they started."""
        rows = self._db.execute(_READ + " WHERE m.run=?" + _ORDER, (time.time(), run))
        return [_member(*row[1:]) for row in rows]

    def by_run(self) -> dict[int, list[Member]]:
        """``{run: its processes}`` of every run that has member rows (one query)."""
        found: dict[int, list[Member]] = {}
        for row in self._db.execute(_READ + _ORDER, (time.time(),)):
            found.setdefault(int(row[0]), []).append(_member(*row[1:]))
        return found


def _member(
    owner: str,
    outbox: str,
    started: float,
    data: str | None,
    phase: str | None,
    exit_code: int | None,
    ended: float | None,
    heartbeat: bool,
) -> Member:
    progress = parse(data) if data else None
    gone = progress is not None and row_gone(progress.owner) is True  # same machine: sure
    alive = bool(heartbeat) and not gone
    lost = not alive and ended is None and noted(str(outbox), str(owner))
    return Member(
        str(owner), str(outbox), float(started), progress, phase, exit_code, ended, alive, lost
    )


class PgProgressStore(ProgressStore):
    """:class:`~indexer.crawl.frontier.progress.ProgressStore` on the shared frontier: each
    process writes its own row of ``run_members``; a run's progress is their sum.

    Args:
        db: the frontier's connection.
        members: the ``run_members`` rows (with this process's owner id when it writes).
    """

    def __init__(self, db: PgConnection, members: RunMembers) -> None:
        super().__init__(db)
        self.members = members

    def write(self, progress: Progress) -> None:
        """This process's row (the run's one ``run_progress`` row when it has none)."""
        if not self.members.progress(progress):
            super().write(progress)

    def all(self) -> dict[int, Progress]:
        """``{run: progress}``: the members' rows added up for runs that have them (with the
        outcomes :meth:`close_run` stored once the run closed), else the run's one row."""
        found = super().all()
        for run, members in self.members.by_run().items():
            total = add_up(run, members)
            closed = found.get(run)
            if total is not None and closed is not None:
                total = replace(total, outcomes=closed.outcomes)
            if total is not None:
                found[run] = total
        return found

    def close_run(self, run: int) -> None:
        """The run closes: store the outcomes the frontier holds for its URLs as the run's
        (every process's, exact: a process killed with -9 wrote its last progress up to 2 s
        before it died) in its ``run_progress`` row."""
        total = add_up(run, self.members.of(run)) or Progress(run, "crawl", time.time())
        outcomes = run_outcomes(self._db, run)
        super().write(replace(total, updated=time.time(), outcomes=outcomes))

    def earlier(self, run: int) -> Progress | None:
        """None: an earlier process's part of the run is its own row, added up by
        :meth:`all`."""
        return None

    def run_outcomes(self, run: int) -> dict[str, int] | None:
        """None: each process stores its own outcomes (:meth:`all` adds them up)."""
        return None


def closing_note(members: list[Member], me: str) -> tuple[str, bool]:
    """What the closing process (owner id ``me``) adds to the run's reason about the others
    ('' when none died, failed or was cut off), and whether one died: the processes gone
    without ending (:func:`~indexer.crawl.frontier.members.died`: killed with -9, crashed),
    those that ended ``failed``, and those that stopped when PostgreSQL went away, continued
    on their data directory or (their note seen here) taken over by the others (not a
    death: the run ends with the closer's code)."""
    others = [m for m in members if m.owner != me]
    gone = died(others)
    odd = [m for m in others if m.state != GONE and m.phase == "failed"]
    said = "stopped when PostgreSQL went away"
    cut = {
        f"{said}, continued by the resume": continued(others),
        f"{said}, its hosts taken over by the others": [m for m in others if m.lost],
    }
    parts = []
    if gone:
        parts.append(f"{len(gone)} of {len(members)} processes died: " + _names(gone))
    if odd:
        parts.append(f"{len(odd)} failed: " + _names(odd))
    for what, which in cut.items():
        if which:
            parts.append(f"{len(which)} {what}: " + ", ".join(who(m) for m in which))
    return "; ".join(parts), bool(gone)


def _names(members: list[Member]) -> str:
    shown = ", ".join(describe(m) for m in members[:3])
    return shown + (f" and {len(members) - 3} more" if len(members) > 3 else "")


def open_lines(waiting: list[tuple[str, int | None]], members: list[Member]) -> list[str]:
    """Why a run stays open when this process leaves it, one line per outbox ``waiting``
    (``machine:dir``, changes held or None): the process still crawling it, the changes its
    outbox holds, or the process gone without ending, each with what finishes its part."""
    latest = {m.outbox: m for m in members}  # in start order: the newest of each outbox
    lines = []
    for key, pending in waiting:
        m = latest.get(key)
        if m is not None and m.state == GONE:
            lines.append(
                f"{describe(m)}; its outbox may hold changes: `{drain_command(m.data_dir)}` "
                f"on {m.machine} drains it and finishes the run ({DRAIN_NOTE})"
            )
        elif pending:
            machine, folder = split_outbox(key)
            cmd = f"`{drain_command(folder)}` on {machine}"
            lines.append(
                f"the outbox of {key} holds {pending} changes: {cmd} sends them ({DRAIN_NOTE})"
            )
        elif m is None or m.state == CRAWLING:
            lines.append(f"{who(m) if m is not None else key} {STILL_CRAWLS}")
        else:  # it wrote its end a moment ago and leaves the run now
            lines.append(f"{describe(m)}; {LEAVING}")
    return lines


#: The end of an :func:`open_lines` line of a process that crawls the run.
STILL_CRAWLS = "still crawls it"
#: The end of an :func:`open_lines` line of a process that ended and is leaving the run.
LEAVING = "it is leaving the run now"
