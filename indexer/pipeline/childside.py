"""The child's side of ``indexer crawl --processes N`` (:mod:`indexer.pipeline.processes`).

A child is started as ``indexer crawl … --from-parent FD``. FD is the read end of a pipe the
parent wrote one JSON object into and closed: ``{"parent": PID, "flags": {"frontier.url":
…}}``. The flags are the settings kept off the child's command line, where any user of
the machine could read them (``ps``, ``/proc/PID/cmdline``): the frontier URL carries the
database password. :func:`take_handoff` reads them once and closes the pipe, so they live
only in the child's memory, and applies them with a flag's precedence.

It also ties the child's life to the parent's: Linux's parent-death signal
(``prctl(PR_SET_PDEATHSIG, SIGTERM)``, prctl(2)) sends the child SIGTERM when the parent dies,
``kill -9`` included, so the child stops as on a Ctrl-C (its outbox kept, its leases given
back; the run continues with ``--resume``). The signal is armed after the child started, so a
parent that died before is caught by comparing ``getppid()`` with the parent's pid.

While it crawls the child writes its counts to stderr about once a second, one line each
(:data:`PROGRESS_MARK` + JSON, :class:`ChildProgress`); the parent adds them up into its own
progress line and passes every other line through with the child's number
(:mod:`indexer.pipeline.childstreams`).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import time
from typing import Any, TextIO

from indexer.errors import ConfigError
from indexer.report import RunStats

#: The hidden flag naming the hand-off pipe's file descriptor.
HANDOFF_FLAG = "--from-parent"
#: What starts a child's progress line on its stderr.
PROGRESS_MARK = "indexer-progress "
#: prctl(2) option: the signal the kernel sends when the parent thread ends.
PR_SET_PDEATHSIG = 1
#: Seconds between two progress lines of a child.
PROGRESS_EVERY = 1.0


def take_handoff(fd: int) -> dict[str, Any]:
    """Read the parent's hand-off from pipe ``fd`` (then closed), arm the parent-death
    signal and check the parent still lives.

    Returns:
        the settings flags it carries (``{"frontier.url": "postgresql://…"}``).

    Raises:
        ConfigError: ``fd`` is no readable pipe or holds no hand-off (names the flag).
        KeyboardInterrupt: the parent died before the signal was armed (the child then
            ends as interrupted, exit 130).
    """
    try:
        with os.fdopen(fd, "rb") as pipe:
            data = json.loads(pipe.read().decode("utf-8"))
        parent, flags = int(data["parent"]), dict(data["flags"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(HANDOFF_FLAG, f"no hand-off from the parent on fd {fd}: {exc}") from exc
    die_with_parent(parent)
    return flags


def die_with_parent(parent: int) -> None:
    """Ask the kernel for SIGTERM when the parent process ends (Linux; elsewhere nothing),
    then raise SIGTERM at once when ``parent`` is no longer this process's parent.

    Raises:
        KeyboardInterrupt: through the SIGTERM handler of :func:`indexer.cli.main`.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        signal.raise_signal(signal.SIGTERM)


def progress_data(stats: RunStats, queued: int) -> dict[str, Any]:
    """What a child reports of its run: ``fetched``, ``indexed``, ``queued`` (the shared
    queue), ``retries`` and ``outcomes`` (``{name: count}``), ``waiting`` (``{host:
    epoch s}``)."""
    return {
        "fetched": stats.fetched,
        "indexed": stats.indexed,
        "queued": queued,
        "retries": dict(stats.retries),
        "outcomes": dict(stats.outcomes),
        "waiting": dict(stats.waiting),
    }


class ChildProgress:
    """The crawler's ``on_progress`` in a child: a :data:`PROGRESS_MARK` line on ``out``
    at most every :data:`PROGRESS_EVERY` seconds (a parent gone, a closed pipe: nothing)."""

    def __init__(self, out: TextIO | None = None) -> None:
        self._out = out or sys.stderr
        self._last = -PROGRESS_EVERY

    def update(self, stats: RunStats, queued: int) -> None:
        """Write the line when it is due."""
        if time.monotonic() - self._last < PROGRESS_EVERY:
            return
        self._last = time.monotonic()
        line = PROGRESS_MARK + json.dumps(progress_data(stats, queued), ensure_ascii=False)
        with contextlib.suppress(OSError, ValueError):
            print(line, file=self._out, flush=True)


def without_value(argv: list[str], value: str) -> list[str]:
    """``argv`` without the option that carries ``value`` (``--frontier URL``,
    ``--frontier=URL``, an abbreviation of the option too): what a child's command line may
    show."""
    if not value:
        return list(argv)
    kept: list[str] = []
    for token in argv:
        if token == value and kept and kept[-1].startswith("-"):
            kept.pop()
        elif not (token.startswith("-") and token.partition("=")[2] == value):
            kept.append(token)
    return kept


def send_handoff(fd: int, flags: dict[str, Any]) -> None:
    """Write the hand-off (this process as the parent, ``flags``) into pipe ``fd`` and close
    it (a child already gone: nothing)."""
    data = json.dumps({"parent": os.getpid(), "flags": flags}).encode("utf-8")
    with contextlib.suppress(OSError), os.fdopen(fd, "wb") as pipe:
        pipe.write(data)
