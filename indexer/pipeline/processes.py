"""``indexer crawl --processes N``: N crawl processes on this machine over the shared frontier.

The parent runs no crawl itself. It starts ``indexer crawl`` N times with the command line it
was given (each child its own event loop, ``extract.workers`` pool and data directory
``crawl.data_dir/pK`` for its outbox, missed ids and lock; ``--out FILE.jsonl`` becomes
``FILE.K.jsonl``): process 0 opens (or resumes) the run and the others join it (as ``crawl
--join`` does) once it is open; with ``--join`` every child joins. Children run in sessions
of their own, so a Ctrl-C reaches the parent only, which passes each SIGINT or SIGTERM on
to every child by pid (a second one aborts them, as for one crawl). A child that fails
(an exit code other than 0) stops the others. A child killed by a signal (``kill -9``)
does not: its hosts are taken over by the others at their lease expiry
(:mod:`indexer.crawl.frontier.postgres.leases`), and once its leases have expired
(``frontier.lease_seconds``) one replacement joins the run on its data directory: it queues
the URLs the dead process had in flight, drains its outbox and crawls a share of what is
left, so the run can end (:mod:`indexer.crawl.frontier.postgres.runclose`). The parent
adds up the children's summaries (:mod:`indexer.pipeline.summaries`), names each process
and exits 1 when one died, else with the worst of the children's exit codes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from indexer.crawl.frontier.postgres.runclose import outbox_key
from indexer.errors import ConfigError, StateError
from indexer.pipeline.summaries import add_up
from indexer.settings import Settings

log = logging.getLogger("indexer")

#: The frontier schema's version with ``run_outboxes`` (:mod:`..postgres.runclose`).
RUN_END_VERSION = 4
#: Seconds between two looks at the children.
POLL = 0.1
#: Seconds process 0 may take to open the run before the launch is given up.
OPEN_TIMEOUT = 120.0


def require_frontier(settings: Settings) -> None:
    """Refuse ``crawl.processes`` above 1 without a shared frontier.

    Raises:
        ConfigError: ``frontier.url`` is empty (names it).
    """
    if settings.crawl.processes > 1 and not settings.frontier.url:
        raise ConfigError(
            "frontier.url",
            f"--processes {settings.crawl.processes} needs a shared frontier: "
            "give --frontier postgresql://…",
        )


def out_file(out: Path, index: int) -> Path:
    """``FILE.jsonl`` → ``FILE.{index}.jsonl`` (a name without a suffix gets ``.{index}``)."""
    return out.with_name(f"{out.stem}.{index}{out.suffix}")


@dataclass(frozen=True)
class Plan:
    """What the parent starts.

    Attributes:
        argv: the command line after ``indexer`` (``crawl …``), repeated for each child.
        count: ``crawl.processes``.
        data_dir: ``crawl.data_dir``; child K uses ``data_dir/pK``.
        out: the ``--out`` file or None.
        url: ``frontier.url``.
        lease_seconds: ``frontier.lease_seconds`` (a dead child's leases expire after it).
        join: every child joins the running crawl (the parent was given ``--join``).
    """

    argv: tuple[str, ...]
    count: int
    data_dir: Path
    out: Path | None
    url: str
    lease_seconds: float
    join: bool = False

    def dir_of(self, index: int) -> Path:
        """Child ``index``'s data directory."""
        return self.data_dir / f"p{index}"

    def out_of(self, index: int) -> Path | None:
        """Child ``index``'s ``--out`` file (:func:`out_file`), or None."""
        return None if self.out is None else out_file(self.out, index)

    def summary_of(self, index: int) -> Path:
        """Where child ``index`` writes its ``--summary-json``."""
        return self.data_dir / f"p{index}.summary.json"

    def command(self, index: int, *, join: bool) -> list[str]:
        """The child's command: the parent's own, with its data directory, outputs, one
        process and ``--join`` (later flags override earlier ones)."""
        cmd = [sys.executable, "-m", "indexer", *self.argv, "--processes", "1", "-q"]
        cmd += ["--data-dir", str(self.dir_of(index))]
        cmd += ["--summary-json", str(self.summary_of(index))]
        out = self.out_of(index)
        cmd += ["--out", str(out)] if out is not None else []
        return cmd + (["--join"] if join else [])


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

    def start(self, index: int, *, join: bool, replaces: int | None = None) -> Child:
        """Start child ``index`` in a session of its own."""
        self.plan.dir_of(index).mkdir(parents=True, exist_ok=True)
        self.plan.summary_of(index).unlink(missing_ok=True)
        proc = subprocess.Popen(self.plan.command(index, join=join), start_new_session=True)
        child = Child(index, proc, replaces)
        self.children.append(child)
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
            if child.code < 0 and not (self.signals or self.failed) and child.replaces is None:
                at = time.monotonic() + self.plan.lease_seconds + 0.5
                self.due[child.index] = (at, child.proc.pid)
                log.warning(_DIED, child.index, child.proc.pid, -child.code)
            elif child.code != 0 and not self.signals and not self.failed:
                self.failed = True
                self.due.clear()
                self.signal_all()

    def replace_due(self) -> None:
        """Start the replacements whose dead child's leases have expired (none once the
        launch is stopping)."""
        if self.signals or self.failed:
            self.due.clear()
        for index, (at, pid) in list(self.due.items()):
            if time.monotonic() >= at:
                del self.due[index]
                child = self.start(index, join=True, replaces=pid)
                log.warning("process %d replaced by pid %d", index, child.proc.pid)


_DIED = "process %d (pid %d) died by signal %d: its hosts go to the others at lease expiry"


def run_processes(plan: Plan) -> tuple[int, dict[str, Any]]:
    """Start, watch and end the children of ``plan`` (see the module docstring).

    Returns:
        the exit code (130 when stopped by a signal, 1 when a child died or failed without
        a code of its own, else the worst child's) and the summary: the children's added
        up (:func:`indexer.pipeline.summaries.add_up`) with ``processes``, one entry each,
        ``died`` and ``open_outboxes`` (those that keep the run open at the end).

    Raises:
        StateError: the shared frontier cannot be reached (while waiting for process 0).
    """
    started = time.monotonic()
    launch = Launch(plan)
    previous = _install(launch)
    try:
        _start_all(launch)
        while launch.children or launch.due:
            launch.reap()
            launch.replace_due()
            time.sleep(POLL)
    finally:
        _end_all(launch)
        _restore(previous)
    return _exit_code(launch), _summary(launch, time.monotonic() - started)


def plan_of(argv: list[str], settings: Settings, out: Path | None, *, join: bool) -> Plan:
    """The :class:`Plan` of ``indexer ARGV`` with these settings (``crawl.processes`` > 1)."""
    return Plan(
        argv=tuple(argv),
        count=settings.crawl.processes,
        data_dir=settings.crawl.data_dir,
        out=out,
        url=settings.frontier.url,
        lease_seconds=settings.frontier.lease_seconds,
        join=join,
    )


def prepare_outputs(plan: Plan, *, resume: bool, overwrite: bool) -> None:
    """Check the children's ``--out`` files before any starts: with ``overwrite`` existing
    ones are removed (the joining children append), else they must not exist unless
    ``resume``.

    Raises:
        ConfigError: a child's ``--out`` file exists (names ``--out`` and the file).
    """
    for index in range(plan.count):
        path = plan.out_of(index)
        if path is None or not path.exists() or resume:
            continue
        if not overwrite:
            raise ConfigError(
                "--out", f"{path} exists: --resume continues it, --overwrite replaces it"
            )
        path.unlink()


def _end_all(launch: Launch) -> None:
    """After the watch (also when it raised): stop any child still running by its pid
    (SIGTERM, then SIGKILL after the stop budget) and collect them all."""
    if launch.children:
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
    plan = launch.plan
    from indexer.crawl.frontier.postgres.connection import PgConnection
    from indexer.crawl.frontier.postgres.schema import NAMESPACE, stored_version

    key = outbox_key(plan.dir_of(0))
    query = (
        "SELECT 1 FROM run_outboxes WHERE outbox=? AND open AND updated >= ? "
        "AND run=(SELECT MAX(id) FROM runs)"
    )
    deadline = time.monotonic() + OPEN_TIMEOUT
    db = PgConnection(plan.url, NAMESPACE)
    try:
        while first.proc.poll() is None and not launch.signals and time.monotonic() < deadline:
            ready = (stored_version(db) or 0) >= RUN_END_VERSION  # else being made
            if ready and db.execute(query, (key, since)).fetchone() is not None:
                return True
            time.sleep(POLL)
    finally:
        db.close()
    return False


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


def _exit_code(launch: Launch) -> int:
    codes = [1 if c.code is None else c.code for c in launch.ended]
    if launch.signals:
        return 130
    failures = [code for code in codes if code not in (0, 130) and code > 0]
    if launch.failed and failures:  # the others were stopped for it (a signal is ours)
        return failures[0]
    if any(code < 0 for code in codes):
        return 1  # a process died: said in the summary, even when its work was taken over
    failures = [code for code in codes if code not in (0, 130)]
    return failures[0] if failures else max(codes, default=1)


def _summary(launch: Launch, seconds: float) -> dict[str, Any]:
    """The children's summaries added up, with one entry per process in ``processes``."""
    stopped = bool(launch.signals) or launch.failed  # the stop passed on was ours
    entries = [_entry(launch.plan, c, stopped) for c in sorted(launch.ended, key=_order)]
    total = add_up([e["summary"] for e in entries if e["summary"] is not None], seconds)
    total["processes"] = entries
    total["died"] = sum(1 for e in entries if e["signal"])
    total["open_outboxes"] = []
    with contextlib.suppress(StateError):  # the frontier is gone: the children said so
        total["open_outboxes"] = _open_outboxes(launch.plan)
    return total


def _open_outboxes(plan: Plan) -> list[str]:
    """The outboxes (``machine:dir``) that keep the newest run open, when it is open."""
    from indexer.crawl.frontier.postgres.connection import PgConnection
    from indexer.crawl.frontier.postgres.schema import NAMESPACE, stored_version

    query = (
        "SELECT o.outbox FROM run_outboxes o JOIN runs r ON r.id = o.run WHERE o.open "
        "AND r.finished IS NULL AND r.id = (SELECT MAX(id) FROM runs) ORDER BY o.outbox"
    )
    db = PgConnection(plan.url, NAMESPACE)
    try:
        if (stored_version(db) or 0) < RUN_END_VERSION:  # process 0 failed before making it
            return []
        return [str(row[0]) for row in db.execute(query)]
    finally:
        db.close()


def _order(child: Child) -> tuple[int, bool]:
    return child.index, child.replaces is not None


def _entry(plan: Plan, child: Child, stopped: bool) -> dict[str, Any]:
    """One child's entry: index, pid, exit code, data dir, out file, the signal that killed
    it (not the stop passed on while it was starting: ``stopped``), the pid it replaces, its
    summary (read and removed; None when it wrote none)."""
    code = 1 if child.code is None else child.code
    ours = stopped and -code in (signal.SIGTERM, signal.SIGINT)
    path = plan.summary_of(child.index)
    one = None
    if code >= 0 and path.exists():
        one = json.loads(path.read_text("utf-8"))
        path.unlink()
    out = plan.out_of(child.index)
    return {
        "index": child.index,
        "pid": child.proc.pid,
        "exit_code": code,
        "data_dir": str(plan.dir_of(child.index)),
        "out": None if out is None else str(out),
        "signal": -code if code < 0 and not ours else None,
        "replaces": child.replaces,
        "summary": one,
    }
