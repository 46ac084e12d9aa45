"""An event loop that SIGINT and SIGTERM stop gently (systemd and ``timeout`` send SIGTERM).

While the loop runs, both signals call the command's own stop (the crawl or the reindex job
ends within its stop budget, a second signal aborts). ``asyncio.run`` leaves SIGTERM at its
default action when it ends (a death by signal, no summary); afterwards it is handled again
as :func:`indexer.cli.main` sets it up, like SIGINT.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_stoppable(main: Coroutine[Any, Any, T], on_signal: Callable[[], None]) -> T:
    """Run ``main`` in a new event loop with SIGINT and SIGTERM calling ``on_signal``.

    Returns:
        ``main``'s result; its exceptions pass unchanged.
    """

    async def with_signals() -> T:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, on_signal)
        return await main

    try:
        return asyncio.run(with_signals())
    finally:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
