"""An event loop that SIGINT and SIGTERM stop gently (systemd and ``timeout`` send SIGTERM).

While the loop runs, both signals call the command's own stop (the crawl or the reindex job
ends within its stop budget, a second signal aborts). Once the command's coroutine has ended
(also by an abort) the command is ending: it writes its summary, its run record and its
outbox's state. A stop arriving then has nothing left to stop and must not cut that short
(``asyncio.run`` would otherwise leave SIGTERM at its default action, a death by signal
without a summary, and a signal during its shutdown steps leaves them un-awaited): from that
moment both signals are taken and left without effect until :func:`end_deferral`. The process
then exits with the code of its own ending. The ending is bounded without them: a lost
shared frontier raises at once, a stalled one within ``frontier.stall_seconds``, Solr calls
run in daemon threads; a third Ctrl-C to a ``--processes`` parent kills its children.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
#: The signals a command's stop listens to.
STOPS = (signal.SIGINT, signal.SIGTERM)


def run_stoppable(main: Coroutine[Any, Any, T], on_signal: Callable[[], None]) -> T:
    """Run ``main`` in a new event loop with SIGINT and SIGTERM calling ``on_signal``; from
    the moment ``main`` ends (or ``on_signal`` aborts with KeyboardInterrupt) later signals
    are deferred (:func:`defer_stops`).

    Returns:
        ``main``'s result; its exceptions pass unchanged.
    """

    async def with_signals() -> T:
        loop = asyncio.get_running_loop()

        def handle() -> None:
            try:
                on_signal()
            except KeyboardInterrupt:  # an abort: the command ends now
                defer_stops(loop)
                raise

        for sig in STOPS:
            loop.add_signal_handler(sig, handle)
        try:
            return await main
        finally:
            defer_stops(loop)

    return asyncio.run(with_signals())


def defer_stops(loop: asyncio.AbstractEventLoop) -> None:
    """Take SIGINT and SIGTERM from ``loop`` and leave them without effect, while the loop
    still runs: its close then has no handler to remove, so no stop meets the default
    action it would restore (left: the two statements of each swap,
    ``remove_signal_handler`` then ``signal.signal``)."""
    for sig in STOPS:
        loop.remove_signal_handler(sig)
        signal.signal(sig, _late)


def end_deferral(*, exiting: bool) -> None:
    """Where :func:`defer_stops` took both signals: handle them as :func:`indexer.cli.main`
    does at its start (KeyboardInterrupt) again, or, when the process is ``exiting`` with
    its code, ignore them (the interpreter's finalization would give them their default
    action back: a death by signal after the summary)."""
    for sig in STOPS:
        if signal.getsignal(sig) is _late:
            signal.signal(sig, signal.SIG_IGN if exiting else signal.default_int_handler)


def _late(signum: int, frame: FrameType | None) -> None:
    """A stop while the command ends: nothing is left to stop (see the module's text)."""
