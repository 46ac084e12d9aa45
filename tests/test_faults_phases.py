"""A run's end names the phase the stop came in, and a second signal (abort) still writes
the run's end before the process exits (issue #12)."""

from __future__ import annotations

import asyncio

import pytest

from indexer.errors import SolrDocumentError, SolrUnavailableError
from indexer.pipeline.outage import Stopped, patiently
from indexer.pipeline.phases import Phase, RunPhases, StopEvent, abort
from indexer.settings import SolrSettings


class _Store:
    def __init__(self) -> None:
        self.rows: list[tuple[str, int | None, str]] = []

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        self.rows.append((phase, exit_code, reason))


async def test_stopped_in_is_the_phase_the_stop_came_in() -> None:
    store, stop = _Store(), StopEvent()
    phases = RunPhases(store, stop)
    phases.enter(Phase.CRAWLING)
    stop.set()  # the stop comes while crawling; the run then drains and commits
    phases.enter(Phase.DRAINING)
    phases.enter(Phase.COMMITTING)
    end = phases.conclude(stopped=True, failure="", pending=0)
    assert (end.phase, end.stopped_in) == (Phase.INTERRUPTED, Phase.CRAWLING)
    assert store.rows[-1] == ("interrupted", 130, "stopped by a signal while crawling")


async def test_a_stop_before_the_run_began_names_its_first_phase() -> None:
    stop = StopEvent()
    stop.set()
    phases = RunPhases(_Store(), stop)
    assert phases.conclude(stopped=True, failure="", pending=0).stopped_in == Phase.CRAWLING


async def test_an_abort_writes_the_end_and_nothing_overwrites_it() -> None:
    store, stop = _Store(), StopEvent()
    phases = RunPhases(store, stop)
    phases.enter(Phase.DRAINING)
    stop.set()
    with pytest.raises(KeyboardInterrupt):
        abort(stop)
    assert store.rows[-1] == ("interrupted", 130, "aborted by a second signal while draining")
    phases.enter(Phase.COMMITTING)  # the cancelled run's cleanup: the end stays
    assert phases.conclude(stopped=True, failure="", pending=3).reason.startswith("aborted")
    assert store.rows[-1][0] == "interrupted" and len(store.rows) == 2


class _Flaky:
    def __init__(self, failures: int, error: Exception) -> None:
        self.calls, self.failures, self.error = 0, failures, error

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return "ids"


_FAST = SolrSettings(backoff_base=0.05, backoff_max=0.1, drain_timeout=1.0)


async def test_an_outage_is_waited_out_within_drain_timeout() -> None:
    flaky = _Flaky(3, SolrUnavailableError("HTTP 503"))
    assert await patiently(_FAST, StopEvent(), "asking", flaky) == "ids" and flaky.calls == 4
    endless = _Flaky(10**6, SolrUnavailableError("HTTP 503"))
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(SolrUnavailableError):
        await patiently(_FAST, StopEvent(), "asking", endless)
    assert 0.5 < loop.time() - started <= 1.5
    rejected = _Flaky(1, SolrDocumentError("bad doc", 400))
    with pytest.raises(SolrDocumentError):
        await patiently(_FAST, StopEvent(), "asking", rejected)
    assert rejected.calls == 1  # not an outage: not retried


async def test_a_stop_ends_the_wait_at_once() -> None:
    stop = StopEvent()
    loop = asyncio.get_running_loop()
    loop.call_later(0.2, stop.set)
    slow = SolrSettings(backoff_base=5, backoff_max=5, drain_timeout=60)
    started = loop.time()
    with pytest.raises(Stopped):
        await patiently(slow, stop, "asking", _Flaky(10**6, SolrUnavailableError("down")))
    assert loop.time() - started < 1.0


def test_an_abort_with_the_frontier_gone_still_gives_up_with_keyboard_interrupt() -> None:
    """A second signal after the shared frontier went away: the run's end cannot be written
    (FrontierLostError, a StateError); the process still gives up as on any abort, without
    the error escaping the signal handler (it printed a traceback)."""
    from indexer.errors import FrontierLostError
    from indexer.pipeline.phases import StopEvent, abort

    stop = StopEvent()
    ended: list[str] = []

    def lost() -> None:
        raise FrontierLostError("postgresql://x", "server closed the connection")

    stop.on_abort.extend([lost, lambda: ended.append("next")])
    with pytest.raises(KeyboardInterrupt):
        abort(stop)
    assert ended == ["next"], "the other callbacks still run"
