"""Reindex jobs started from the admin page: ``indexer reindex`` (or its ``--dry-run``) as
a child process of the server, one at a time.

The child is the command a nightly timer runs, with the server's effective settings: the
same ``--config`` file, the same environment, and each setting the server got as a flag
passed as its ``INDEXER_*`` variable. It takes the data directory's lock like any
reindex (a crawl running there makes it end with its one-line message), writes its
progress into the crawl state like a crawl, and is stopped by its pid (SIGTERM, then
SIGKILL) when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indexer.settings import LoadedSettings, env_name

log = logging.getLogger(__name__)
#: Lines of a plan shown per action (the page says how many more there are).
PLAN_SHOWN = 200
ACTIONS = ("add", "update", "delete")
#: Characters of a job's stderr kept for the page.
STDERR_KEPT = 20_000


def reindex_command(
    loaded: LoadedSettings, config_file: Path | None
) -> tuple[list[str], dict[str, str]]:
    """The argv and environment of ``indexer reindex`` with the server's settings."""
    argv = [sys.executable, "-m", "indexer", "reindex"]
    if config_file is not None:
        argv += ["--config", str(config_file)]
    env = dict(os.environ)
    data = loaded.settings.model_dump(mode="json")
    for key, source in loaded.sources.items():
        if source != "flag":
            continue
        section, _, name = key.partition(".")
        value = data[section][name]
        env[env_name(section, name)] = value if isinstance(value, str) else json.dumps(value)
    return argv, env


@dataclass
class Plan:
    """A dry run's plan, read from its JSON lines (``indexer reindex --dry-run``)."""

    changes: dict[str, list[str]] = field(default_factory=lambda: {a: [] for a in ACTIONS})
    summary: dict[str, Any] | None = None
    summary_line: str = ""
    totals: dict[str, int] = field(default_factory=dict)  # a stored plan's (ids cut)

    def total(self, action: str) -> int:
        """How many changes of ``action`` the plan has (a stored plan keeps only the first
        ids of each action, and the totals)."""
        return max(self.totals.get(action, 0), len(self.changes.get(action, [])))

    def read(self, line: str) -> None:
        """Take one line of the dry run's output."""
        try:
            item = json.loads(line)
        except ValueError:
            return
        if not isinstance(item, dict):
            return
        if item.get("summary"):
            self.summary, self.summary_line = item, line.strip()
        elif item.get("action") in self.changes:
            self.changes[str(item["action"])].append(str(item.get("id", "")))


@dataclass
class Job:
    """One reindex started from the page.

    Attributes:
        kind: ``plan`` (``--dry-run``) or ``run``.
        started, ended: epoch seconds (ended None while it runs).
        exit_code: the child's exit code once ended (3: the guard refused).
        plan: what a dry run planned.
        stderr: what the child said on stderr (its summary, refusals, errors).
        abandoned: stored as running by a server that stopped before the job ended.
    """

    kind: str
    started: float = field(default_factory=time.time)
    ended: float | None = None
    exit_code: int | None = None
    plan: Plan = field(default_factory=Plan)
    stderr: str = ""
    pid: int | None = None
    abandoned: bool = False

    @property
    def running(self) -> bool:
        """The child has not ended (and this server started it)."""
        return self.exit_code is None and not self.abandoned


class Jobs:
    """The reindex jobs of one server: at most one runs at a time.

    Args:
        argv, env: from :func:`reindex_command`.
        last: the last job of each kind from an earlier server (``job_store.JobStore``).
        on_change: called with :attr:`last` when a job starts or ends (to store it).
    """

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        last: dict[str, Job] | None = None,
        on_change: Callable[[dict[str, Job]], None] | None = None,
    ) -> None:
        self._argv = argv
        self._env = env
        self.last: dict[str, Job] = dict(last or {})
        self._on_change = on_change or (lambda _last: None)
        self._procs: dict[int, asyncio.subprocess.Process] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._starting = False  # a start awaiting its child: a second one must not pass

    @property
    def running(self) -> Job | None:
        """The job running now, or None."""
        return next((j for j in self.last.values() if j.running), None)

    async def start(self, kind: str) -> Job | None:
        """Start a ``plan`` or ``run`` job; None when one is running already."""
        if self.running is not None or self._starting:
            return None
        self._starting = True
        try:
            proc = await asyncio.create_subprocess_exec(
                *self._argv,
                *(["--dry-run"] if kind == "plan" else []),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self._env,
            )
        finally:
            self._starting = False
        job = Job(kind, pid=proc.pid)
        self.last[kind] = job
        self._on_change(self.last)
        self._procs[proc.pid] = proc
        task = asyncio.create_task(self._follow(job, proc))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        log.info("admin: started reindex %s (pid %d)", kind, proc.pid)
        return job

    async def _follow(self, job: Job, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None and proc.stderr is not None

        async def read_out() -> None:
            async for raw in proc.stdout:  # type: ignore[union-attr]
                job.plan.read(raw.decode("utf-8", "replace"))

        async def read_err() -> None:
            async for raw in proc.stderr:  # type: ignore[union-attr]
                if len(job.stderr) < STDERR_KEPT:
                    job.stderr += raw.decode("utf-8", "replace")

        await asyncio.gather(read_out(), read_err())
        job.exit_code = await proc.wait()
        job.ended = time.time()
        self._on_change(self.last)
        self._procs.pop(proc.pid, None)
        log.info("admin: reindex %s ended with exit %d", job.kind, job.exit_code)

    async def stop(self) -> None:
        """Stop the running child by its pid (SIGTERM, 10 s, then SIGKILL)."""
        for proc in list(self._procs.values()):
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
