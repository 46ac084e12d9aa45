"""Which process writes a run, and whether it is still there.

A run's progress row (:mod:`indexer.crawl.frontier.progress`) carries the writing process's
:class:`Owner`: the host name, the pid and the process's start time. The admin views read
it to tell a run that is still working (a slow drain writes no progress for a while) from
one whose process is gone (``kill -9``, an out-of-memory kill, a power cut): the pid alone
is not enough, since the kernel reuses pids, so the start time must match too.

The start time is field 22 of ``/proc/PID/stat`` (clock ticks since boot, proc(5)); where
``/proc`` is missing, or the run was written on another host, nothing can be told.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class Owner:
    """A process, as a run record names it.

    Attributes:
        host: the host name it ran on (:func:`socket.gethostname`).
        pid: its process id.
        started: its start time in clock ticks since boot (0: unknown).
    """

    host: str
    pid: int
    started: int


def start_ticks(pid: int, proc: Path = _PROC) -> int | None:
    """The start time of process ``pid`` (clock ticks since boot, proc(5) field 22), or
    None when there is no such process or ``/proc`` cannot be read."""
    try:
        stat = (proc / str(pid) / "stat").read_text("ascii", "replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # the command name may hold spaces or ')'
    try:
        return int(fields[19])  # field 22 of the line; 3 is the first after the name
    except (IndexError, ValueError):
        return None


def current() -> Owner:
    """This process (read each time: a forked child is a process of its own)."""
    pid = os.getpid()
    return Owner(socket.gethostname(), pid, start_ticks(pid) or 0)


def gone(owner: Owner, proc: Path = _PROC) -> bool | None:
    """Whether ``owner`` has ended: True when its pid is free or now names a process
    started at another time; False while it runs; None when it cannot be told (another
    host, no ``/proc``, an owner without a pid or start time)."""
    if owner.pid <= 0 or owner.started <= 0 or owner.host != socket.gethostname():
        return None
    if not proc.is_dir():
        return None
    return start_ticks(owner.pid, proc) != owner.started


def row_gone(row: Sequence[object]) -> bool | None:
    """:func:`gone` for an owner as a progress row stores it (``[host, pid, start ticks]``);
    None for a row without one (older versions) or that does not read as one."""
    if len(row) != 3:
        return None
    host, pid, started = row
    if not isinstance(host, str) or not isinstance(pid, int) or not isinstance(started, int):
        return None
    return gone(Owner(host, pid, started))


#: What a run whose process is gone is called (the dashboard, ``indexer report``).
GONE_LABEL = "stopped without closing (process gone)"
