"""The ``--processes N`` parent's replacement path (:class:`indexer.pipeline.processes.Launch`),
with small stand-in children (a Python process that reads the hand-off pipe and sleeps) so that
each case is exact: a stop that comes while a child starts reaches it; a number whose
replacement is killed too is not replaced again and the others crawl on; nothing is replaced
once the run is closed."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.pipeline.processes import Child, Launch
from indexer.pipeline.processplan import Plan

#: A child: reads its hand-off (fd argv[1]), then sleeps argv[2] seconds.
CHILD = "import os, sys, time; os.read(int(sys.argv[1]), 65536); time.sleep(float(sys.argv[2]))"


@dataclass(frozen=True)
class SleepPlan(Plan):
    """A plan whose child K sleeps ``seconds[K]`` (s)."""

    seconds: tuple[float, ...] = ()

    def command(self, index: int, *, join: bool, handoff: int) -> list[str]:
        return [sys.executable, "-c", CHILD, str(handoff), str(self.seconds[index])]


def _plan(pg_url: str, tmp_path: Path, *seconds: float) -> SleepPlan:
    return SleepPlan(("crawl",), len(seconds), tmp_path, None, pg_url, 0.1, True, "", seconds)


def _until(check: Callable[[], bool], launch: Launch, within: float) -> None:
    """Run the parent's watch (reap, replace) until ``check()`` holds."""
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, "never came"
        launch.reap()
        launch.replace_due()
        time.sleep(0.05)


def _running(launch: Launch, index: int) -> Child:
    (child,) = [c for c in launch.children if c.index == index]
    return child


def test_a_stop_that_came_while_a_child_started_reaches_it(pg_url: str, tmp_path: Path) -> None:
    launch = Launch(_plan(pg_url, tmp_path, 30.0))
    launch.signals = 1  # the handler ran between the child's start and its entry in the list
    child = launch.start(0, join=True)
    try:
        assert child.proc.wait(5) == -signal.SIGTERM
    finally:
        child.proc.kill()
        child.proc.wait()


def test_a_replacement_killed_too_is_not_replaced_again_and_the_others_crawl_on(
    pg_url: str, tmp_path: Path
) -> None:
    with PgFrontier(pg_url, tmp_path / "open") as frontier:
        frontier.start_run(resume=False)  # an open run: a replacement has work
    launch = Launch(_plan(pg_url, tmp_path, 6.0, 60.0))
    try:
        for index in (0, 1):
            launch.start(index, join=True)
        first = _running(launch, 1)
        os.kill(first.proc.pid, signal.SIGKILL)
        _until(lambda: any(c.replaces == first.proc.pid for c in launch.children), launch, 5)
        os.kill(_running(launch, 1).proc.pid, signal.SIGKILL)
        _until(lambda: not launch.children and not launch.due, launch, 15)
    finally:
        launch.signal_all(signal.SIGKILL)
    codes = sorted((c.index, c.replaces is not None, c.code) for c in launch.ended)
    assert codes == [(0, False, 0), (1, False, -9), (1, True, -9)], codes
    assert not launch.failed, "a second death does not stop the others"


def test_nothing_is_replaced_once_the_run_is_closed(pg_url: str, tmp_path: Path) -> None:
    with PgFrontier(pg_url, tmp_path / "closed") as frontier:
        frontier.start_run(resume=False)
        frontier.finish_run()
    launch = Launch(_plan(pg_url, tmp_path, 60.0))
    try:
        child = launch.start(0, join=True)
        os.kill(child.proc.pid, signal.SIGKILL)
        _until(lambda: not launch.children and not launch.due, launch, 5)
    finally:
        launch.signal_all(signal.SIGKILL)
    assert [(c.replaces, c.code) for c in launch.ended] == [(None, -9)]
