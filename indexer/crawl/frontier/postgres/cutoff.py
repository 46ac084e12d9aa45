"""A process cut off from the shared frontier, and the resume that writes its end for it.

A crawl process whose PostgreSQL went away mid-run (:class:`~indexer.errors.FrontierLostError`)
stops and exits 2, but cannot write its end into ``run_members`` (the database is gone): it
would read as gone without ending, as a process killed with -9 does, and the run's record
would say it died. What it can still write is its own data directory: on closing it leaves
:data:`NOTE` there (its run, its lease owner id, what the driver said). The next process on
that data directory — ``crawl --resume`` (the same command, as the one line tells the user)
or ``crawl --join --data-dir DIR`` — has the same outbox key, so it continues that part of
the run; when it starts or joins the same run it writes the end the cut-off process could
not (phase :data:`~indexer.crawl.frontier.members.CUT_OFF`, exit 2) and removes the note.
Before that, a view on the note's machine reads the member as stopped when PostgreSQL went
away, waiting for its resume (:func:`noted`); after it, every view reads the member as
continued, not dead (:attr:`~indexer.crawl.frontier.members.Member.continued`), and the
closing process counts it so (:func:`~indexer.crawl.frontier.postgres.members.closing_note`).
A process killed with -9 writes no note: it still reads as died.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

from indexer.crawl.frontier.members import CUT_OFF, split_outbox
from indexer.crawl.frontier.postgres.connection import PgConnection

#: The note's file name in the data directory.
NOTE = "frontier-lost.json"
#: Exit code of a crawl whose shared frontier went away (README: exit 2).
EXIT_CODE = 2
_ENDED = (
    "UPDATE run_members SET phase=?, exit_code=?, ended=? WHERE run=? AND owner=? AND ended IS NULL"
)


def leave_note(data_dir: Path, run: int, owner: str, detail: str) -> None:
    """Leave the note of a process cut off from the frontier in ``data_dir`` (written under
    a temporary name, then renamed; a disk that refuses it leaves none: the process then
    reads as gone, as before)."""
    if run <= 0:
        return  # no run was started: nothing to continue
    note = {"run": run, "owner": owner, "detail": detail, "at": time.time()}
    path = data_dir / NOTE
    part = path.with_suffix(".part")
    with contextlib.suppress(OSError):
        part.write_text(json.dumps(note, ensure_ascii=False), "utf-8")
        os.replace(part, path)


def settle(db: PgConnection, data_dir: Path, run: int) -> str | None:
    """A process starts or joins ``run`` on ``data_dir``: when the note there names a member
    of ``run``, write that member's end (phase :data:`CUT_OFF`, exit 2, when it was left);
    remove the note either way (one of another run is stale: that run was not continued
    here; an unreadable one is as if none). Returns the owner id whose end was written,
    else None."""
    path = data_dir / NOTE
    note = _read(path)
    found = None
    if note is not None and note[0] == run:
        _run, owner, at = note
        cursor = db.execute(_ENDED, (CUT_OFF, EXIT_CODE, at, run, owner))
        found = owner if int(cursor.rowcount) > 0 else None
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
    return found


def noted(outbox: str, owner: str) -> bool:
    """Whether the data directory of ``outbox`` (``machine:/dir``, :func:`.runclose.outbox_key`)
    holds the note of ``owner``: read only on that machine (elsewhere False: unknown)."""
    machine, folder = split_outbox(outbox)
    if machine != socket.gethostname():
        return False
    note = _read(Path(folder) / NOTE)
    return note is not None and note[1] == owner


def _read(path: Path) -> tuple[int, str, float] | None:
    """The note at ``path`` as ``(run, owner, at)``, or None when missing or not one (not
    JSON, a field missing or of the wrong type)."""
    try:
        note = json.loads(path.read_text("utf-8"))
        run, owner, at = note["run"], note["owner"], float(note.get("at") or time.time())
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if not isinstance(run, int) or not isinstance(owner, str):
        return None
    return run, owner, at
