"""``indexer crawl --processes N``: N crawl processes on this machine over the shared frontier.

The parent runs no crawl itself. It starts ``indexer crawl`` N times with the command line it
was given (each child its own event loop, ``extract.workers`` pool and data directory
``crawl.data_dir/pK`` for its outbox, missed ids and lock; ``--out FILE.jsonl`` becomes
``FILE.K.jsonl``): process 0 opens (or resumes) the run and the others join it (as ``crawl
--join`` does) once it is open; with ``--join`` every child joins. Children run in sessions
of their own, so a Ctrl-C reaches the parent only, which passes each SIGINT or SIGTERM on
to every child by pid (a second one aborts them, as for one crawl). A child that fails
(an exit code other than 0) stops the others — not when the shared frontier went away: each
finds it out itself (within ``frontier.stall_seconds``; stopped only past that bound and its
stop budget, :data:`LOST_STOP_WITHIN`). A child killed by a signal (``kill -9``) does
not: its hosts are taken over by the others at their lease expiry
(:mod:`indexer.crawl.frontier.postgres.leases`), and once its leases have expired
(``frontier.lease_seconds``) one replacement joins the run on its data directory: it queues
the URLs the dead process had in flight, drains its outbox and crawls a share of what is
left, so the run can end (:mod:`indexer.crawl.frontier.postgres.runclose`). The parent
adds up the children's summaries (:mod:`indexer.pipeline.summaries`), names each process
and exits 1 when one died, else with the worst of the children's exit codes. A number is
replaced once, and not when the run is closed by then (nothing is left for it).

The frontier URL (its password) is not on the children's command lines, which any user can
read: it goes to each child through a pipe (:mod:`indexer.pipeline.childside`), as does the
parent's pid, so that a child stops (as on SIGTERM, resumable) when the parent dies, also by
``kill -9``. Each child's stderr is a pipe the parent reads (:mod:`.childstreams`): its
progress lines add up into the parent's progress line, its warnings and errors are passed
on prefixed with its number.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from indexer.crawl.frontier.members import LOST_KEY, drain_command
from indexer.errors import IndexerError
from indexer.pipeline.childside import send_handoff
from indexer.pipeline.childstreams import LaunchProgress
from indexer.pipeline.launchend import exit_code, summary
from indexer.pipeline.launchstate import run_open, wait_open
from indexer.pipeline.phases import STOP_BUDGET
from indexer.pipeline.processplan import Plan
from indexer.report import RunStats
from indexer.settings import env_name

log = logging.getLogger("indexer")

#: Seconds between two looks at the children.
POLL = 0.1
#: Seconds process 0 may take to open the run before the launch is given up.
OPEN_TIMEOUT = 120.0
#: Seconds a child may take to end once it found the frontier lost: its stop budget and 1 s.
LOST_STOP_WITHIN = STOP_BUDGET + 1.0
#: Seconds between two progress lines of the parent.
SHOW_EVERY = 1.0
#: The environment variable of ``frontier.url`` (handed to the children by pipe instead).
FRONTIER_ENV = env_name("frontier", "url")


@dataclass
class Child:
    """One started crawl process."""

    index: int
    proc: subprocess.Popen[bytes]
    replaces: int | None = None  # pid of the dead child it replaces
    code: int | None = None


@dataclass
class Launch:
    """The running children and how the launch is ending."""

    plan: Plan
    children: list[Child] = field(default_factory=list)
    ended: list[Child] = field(default_factory=list)
    due: dict[int, tuple[float, int]] = field(default_factory=dict)  # index → (at, dead pid)
    signals: int = 0
    failed: bool = False
    stop_at: float | None = None  # the frontier went away: the others stopped at this time
    progress: LaunchProgress = field(default_factory=LaunchProgress)
    began: float = field(default_factory=time.time)  # epoch s: what the frontier counts

    def start(self, index: int, *, join: bool, replaces: int | None = None) -> Child:
        """Start child ``index`` in a session of its own, hand it the frontier URL by pipe
        and follow its stderr; a stop that came while it started is passed on to it."""
        self.plan.dir_of(index).mkdir(parents=True, exist_ok=True)
        self.plan.summary_of(index).unlink(missing_ok=True)
        read, write = os.pipe()
        try:
            proc = subprocess.Popen(
                self.plan.command(index, join=join, handoff=read),
                start_new_session=True,
                pass_fds=(read,),
                stderr=subprocess.PIPE,
                env={k: v for k, v in os.environ.items() if k != FRONTIER_ENV},
            )
        except BaseException:
            os.close(write)
            raise
        finally:
            os.close(read)
        send_handoff(write, {"frontier.url": self.plan.url})
        child = Child(index, proc, replaces)
        self.children.append(child)
        self.progress.follow(index, proc.pid, proc.stderr)
        if self.signals:  # the handler ran before the child was in the list
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGTERM)
        return child

    def signal_all(self, signum: int = signal.SIGTERM) -> None:
        """Send ``signum`` to every child still running, by its pid."""
        for child in self.children:
            if child.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.proc.pid, signum)

    def reap(self) -> None:
        """Move children that ended to :attr:`ended`; a failure stops the others, a death
        by signal schedules one replacement after the lease time."""
        for child in [c for c in self.children if c.proc.poll() is not None]:
            self.children.remove(child)
            child.code = child.proc.returncode
            self.ended.append(child)
            self.progress.ended(child.proc.pid)
            if child.code < 0 and not (self.signals or self.failed):
                self._died(child)
            elif child.code != 0 and not self.signals and not self.failed:
                self.failed = True
                self.due.clear()
                if self._lost(child):
                    self.stop_at = time.monotonic() + self.plan.stall_seconds + LOST_STOP_WITHIN
                else:
                    self.signal_all()

    def _lost(self, child: Child) -> bool:
        """Whether ``child`` failed because the shared frontier went away (its summary)."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            one = json.loads(self.plan.summary_of(child.index).read_text("utf-8"))
            return bool(one.get(LOST_KEY))
        return False

    def stop_late(self) -> None:
        """Stop the children still running at :attr:`stop_at` (the frontier went away)."""
        if self.stop_at is not None and not self.signals and time.monotonic() >= self.stop_at:
            self.stop_at = None
            self.signal_all()

    def _died(self, child: Child) -> None:
        """A child killed by a signal: one replacement of its number after the lease time;
        a number replaced already is left to the others (its outbox named at the end)."""
        log.warning(_DIED, child.index, child.proc.pid, -(child.code or 0))
        if child.replaces is not None:  # a number is replaced once
            log.warning(_NOT_AGAIN, child.index, drain_command(str(self.plan.dir_of(child.index))))
            return
        self.due[child.index] = (time.monotonic() + self.plan.lease_seconds + 0.5, child.proc.pid)

    def replace_due(self) -> None:
        """Start the replacements whose dead child's leases have expired (none once the
        launch is stopping, none when the run has been closed meanwhile)."""
        if self.signals or self.failed:
            self.due.clear()
        now = time.monotonic()
        for index, (_, pid) in [(i, due) for i, due in self.due.items() if due[0] <= now]:
            del self.due[index]
            if not _still_open(self.plan.url, self.plan.stall_seconds):
                log.warning("process %d not replaced: the run is closed", index)
                continue
            child = self.start(index, join=True, replaces=pid)
            log.warning("process %d replaced by pid %d", index, child.proc.pid)


def _still_open(url: str, stall_seconds: float) -> bool:
    """Whether the run is open (True when the frontier cannot be asked: the replacement then
    finds out itself, and says so)."""
    try:
        return run_open(url, stall_seconds)
    except IndexerError:
        return True


_DIED = "process %d (pid %d) died by signal %d: its hosts go to the others at lease expiry"
_NOT_AGAIN = "process %d is not replaced again: `%s` drains its outbox"


def run_processes(
    plan: Plan, show: Callable[[RunStats, int], None] | None = None
) -> tuple[int, dict[str, Any]]:
    """Start, watch and end the children of ``plan`` (see the module docstring); ``show``
    gets the children's counts added up about every :data:`SHOW_EVERY` seconds.

    Returns:
        the exit code (130 when stopped by a signal, 1 when a child died or failed without
        a code of its own, else the worst child's) and the summary: the children's added
        up (:func:`indexer.pipeline.summaries.add_up`) with ``processes``, one entry each,
        ``died`` and ``open_outboxes`` (those that keep the run open at the end).

    Raises:
        StateError: the shared frontier cannot be reached (while waiting for process 0).
    """
    started = time.monotonic()
    launch = Launch(plan, progress=LaunchProgress(show, SHOW_EVERY))
    previous = _install(launch)
    try:
        _start_all(launch)
        while launch.children or launch.due:
            launch.reap()
            launch.replace_due()
            launch.stop_late()
            launch.progress.tick()
            time.sleep(POLL)
    finally:
        _end_all(launch)
        _restore(previous)
    return exit_code(launch), summary(launch, time.monotonic() - started)


def _end_all(launch: Launch) -> None:
    """After the watch (also when it raised): stop any child still running by its pid
    (SIGTERM, then SIGKILL after the stop budget) and collect them all; a child stopped
    here did not die: the stop is ours (no "died by signal" warning, no replacement)."""
    if launch.children:
        launch.failed = launch.failed or not launch.signals
        launch.signal_all()
    deadline = time.monotonic() + 10.0
    for child in launch.children:
        try:
            child.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.proc.kill()
            child.proc.wait()
    launch.due.clear()
    launch.reap()


def _start_all(launch: Launch) -> None:
    """Start process 0, wait until it has opened the run (it registered its outbox), then
    the others; with ``plan.join`` all at once."""
    plan = launch.plan
    first = launch.start(0, join=plan.join)
    if not plan.join and not _wait_open(launch, first, time.time()):
        if not launch.signals:  # process 0 ended (or hung) before its run was open
            launch.failed = True
            launch.signal_all()
        return
    for index in range(1, plan.count):
        if launch.signals or launch.failed:
            return
        launch.start(index, join=True)


def _wait_open(launch: Launch, first: Child, since: float) -> bool:
    """Wait until process 0 has registered its outbox in the newest run (since ``since``):
    False when it ended (or a signal came) first."""
    deadline = time.monotonic() + OPEN_TIMEOUT

    def waiting() -> bool:
        launch.progress.tick()
        alive = first.proc.poll() is None and not launch.signals
        return alive and time.monotonic() < deadline

    plan = launch.plan
    return wait_open(plan.url, plan.dir_of(0), since, waiting, plan.stall_seconds)


def _install(launch: Launch) -> dict[int, Any]:
    """SIGINT/SIGTERM: passed on to every child (the third time as SIGKILL)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        launch.signals += 1
        launch.due.clear()
        launch.signal_all(signal.SIGTERM if launch.signals <= 2 else signal.SIGKILL)
        if launch.signals == 1:
            log.warning("stopping the %d crawl processes (again to abort)", len(launch.children))

    return {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}


def _restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)
