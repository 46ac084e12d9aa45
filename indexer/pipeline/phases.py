"""A run's lifecycle: named phases, stored in the run record, and stops honoured in each.

A run goes ``crawling`` → ``draining`` (the outbox into Solr) → ``committing`` (the one hard
commit) → ``finished``; reindex adds ``reconciling`` before it ends, and ``refused`` when
its mass-delete guard trips. A run that does not reach its end is ``interrupted`` (a
signal) or ``failed`` (Solr refused the credentials or the schema for longer than
``solr.auth_wait``, Solr stayed away past ``solr.drain_timeout``, a disk or ``--out``
error); ``--resume`` continues both. A run is ``finished`` only when its outbox is empty
and committed: a crawl killed with -9 while draining or committing is continued by
``--resume`` rather than started anew.

Each phase change is written to the frontier's run record at once, with the exit code and
a one-line reason when the run ends (:meth:`indexer.crawl.frontier.Frontier.set_phase`).

Stops: :class:`StopEvent` remembers when the stop came; every phase waits at most its
share of :data:`STOP_BUDGET` after it (pages in flight, then the drain), so a stopped crawl
exits within 5 s whatever phase it was in. What was not sent stays in the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import NoReturn, Protocol

from indexer.errors import StateError


class Phase(StrEnum):
    """The phase a run is in, or how it ended (the last four)."""

    CRAWLING = "crawling"
    DRAINING = "draining"
    COMMITTING = "committing"
    RECONCILING = "reconciling"
    FINISHED = "finished"
    INTERRUPTED = "interrupted"
    FAILED = "failed"
    REFUSED = "refused"


#: Exit code of each way a run ends (``indexer crawl`` and ``indexer reindex``).
EXIT_CODES: dict[Phase, int] = {
    Phase.FINISHED: 0,
    Phase.FAILED: 1,
    Phase.REFUSED: 3,
    Phase.INTERRUPTED: 130,
}

#: Seconds from a stop (SIGINT, SIGTERM) to the end of the run, in every phase.
STOP_BUDGET = 5.0
#: Share of the budget that pages in flight get to finish; the rest are fetched on resume.
IN_FLIGHT_SHARE = 1.5
#: Share of the budget (from the stop) by which the drain must have ended.
DRAIN_SHARE = 3.0


class StopEvent(asyncio.Event):
    """An :class:`asyncio.Event` that remembers when it was first set (``at``, monotonic s).

    Attributes:
        on_abort: called by :func:`abort` before the process gives up (a second signal):
            each run tracking this stop writes its end there.
    """

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None
        self.on_abort: list[Callable[[], None]] = []

    def set(self) -> None:
        """Set the event; the first call records the time."""
        if self.at is None:
            self.at = time.monotonic()
        super().set()


def abort(stop: asyncio.Event | None) -> NoReturn:
    """Give up at once (a second SIGINT or SIGTERM): let the runs tracking ``stop`` write
    their end (``interrupted``, exit 130, a reason), then raise :class:`KeyboardInterrupt`.

    A run whose state cannot be written (the shared frontier went away: the crawl said so in
    its one line) is left as it is: it stays open for ``--resume``.

    Raises:
        KeyboardInterrupt: always (``indexer.cli.main`` turns it into exit 130).
    """
    for callback in getattr(stop, "on_abort", ()):
        with contextlib.suppress(StateError):
            callback()
    raise KeyboardInterrupt


def stop_remaining(stop: asyncio.Event, share: float) -> float:
    """Seconds left until ``share`` seconds after the stop (0 when past; ``share`` when the
    event is not a :class:`StopEvent` and so has no time)."""
    at: float | None = getattr(stop, "at", None)
    if at is None:
        return share
    return max(0.0, at + share - time.monotonic())


async def settle_in_flight(tasks: set[asyncio.Task[None]], stop: asyncio.Event) -> None:
    """Wait for ``tasks``; once ``stop`` is set, at most until :data:`IN_FLIGHT_SHARE` after
    it, then cancel the rest (a cancelled visit puts its URL back in the queue)."""
    pending = set(tasks)
    while pending and not stop.is_set():
        _, pending = await asyncio.wait(pending, timeout=0.5)
    if pending:
        _, pending = await asyncio.wait(pending, timeout=stop_remaining(stop, IN_FLIGHT_SHARE))
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class PhaseStore(Protocol):
    """Where run records live (the frontier)."""

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        """Store the current run's phase (and, when it ends, its exit code and reason)."""


@dataclass(frozen=True)
class RunEnd:
    """How a run ended.

    Attributes:
        phase: ``finished``, ``interrupted``, ``failed`` or ``refused``.
        exit_code: the process exit code for it (:data:`EXIT_CODES`).
        reason: one line ('' when finished).
        stopped_in: the phase the run was in when the stop came (when it ended, if no
            stop came).
    """

    phase: Phase
    exit_code: int
    reason: str
    stopped_in: Phase


class RunPhases:
    """Tracks and stores the phases of the current run.

    Args:
        store: the frontier (its current run is the one tracked).
        stop: the run's stop; when it is a :class:`StopEvent` that was set, a run's end
            names the phase the stop came in (not the one the run ended in).
    """

    def __init__(self, store: PhaseStore, stop: asyncio.Event | None = None) -> None:
        self._store = store
        self._stop = stop
        self.current = Phase.CRAWLING
        self._entered: list[tuple[float, Phase]] = [(time.monotonic(), Phase.CRAWLING)]
        self._end: RunEnd | None = None
        if isinstance(stop, StopEvent):
            stop.on_abort.append(self.abort)

    def enter(self, phase: Phase) -> None:
        """Move to ``phase`` and store it (nothing once the run has ended)."""
        if self._end is not None:
            return
        self.current = phase
        self._entered.append((time.monotonic(), phase))
        self._store.set_phase(phase)

    def stopped_in(self) -> Phase:
        """The phase the run was in when the stop came (the current one when not stopped
        or the stop has no time)."""
        at: float | None = getattr(self._stop, "at", None)
        if at is None or self._stop is None or not self._stop.is_set():
            return self.current
        before = [phase for since, phase in self._entered if since <= at]
        return before[-1] if before else self._entered[0][1]  # a stop before the run began

    def end(self, phase: Phase, reason: str = "") -> RunEnd:
        """End the run as ``phase`` (one of the last four) and store it with its exit code;
        a run ends once (later calls return the first end)."""
        if self._end is not None:
            return self._end
        end = RunEnd(phase, EXIT_CODES[phase], " ".join(reason.split())[:300], self.stopped_in())
        self.current = phase
        self._store.set_phase(phase, end.exit_code, end.reason)
        self._end = end
        return end

    def abort(self) -> None:
        """End the run ``interrupted`` at once (a second signal: the process exits with 130
        before the run could end in order)."""
        self.end(Phase.INTERRUPTED, f"aborted by a second signal while {self.stopped_in()}")

    def conclude(
        self, *, stopped: bool, failure: str, pending: int, keep_open: bool = False
    ) -> RunEnd:
        """End a crawl: ``failed`` with ``failure`` when set, ``interrupted`` when
        ``stopped``, ``failed`` when ``pending`` changes are left in the outbox, else
        ``finished`` (not stored with ``keep_open``: the caller ends the run)."""
        if failure:
            return self.end(Phase.FAILED, failure)
        if stopped:
            return self.end(Phase.INTERRUPTED, f"stopped by a signal while {self.stopped_in()}")
        if pending:
            return self.end(Phase.FAILED, f"Solr unavailable: {pending} changes wait in the outbox")
        if keep_open:
            return RunEnd(Phase.FINISHED, EXIT_CODES[Phase.FINISHED], "", self.stopped_in())
        return self.end(Phase.FINISHED)
