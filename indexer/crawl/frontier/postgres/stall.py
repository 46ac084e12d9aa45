"""A bound on how long one PostgreSQL statement may go unanswered (``frontier.stall_seconds``).

A server that is stopped (SIGSTOP), hung, or behind a network that drops packets leaves the
socket open: TCP keeps the connection, libpq waits for the answer for ever, and the crawl's
event loop (which runs the frontier's statements) with it. :class:`StallWatch` is one daemon
thread per connection that looks every :data:`TICK` seconds whether the statement in flight
started more than ``seconds`` ago, and if so shuts the connection's socket down: libpq's wait
then ends with an error, which :mod:`.connection` turns into
:class:`~indexer.errors.FrontierLostError`. The statement path costs two attribute writes
(:meth:`StallWatch.begin`, :meth:`StallWatch.end`); the socket is only shut down, never
closed under libpq's feet (psycopg closes it with the connection).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable

#: Seconds between two looks of the watch.
TICK = 0.5


class StallWatch:
    """Shuts a connection's socket down when a statement overruns ``seconds``.

    Args:
        fileno: returns the connection's socket descriptor (-1 when closed).
        seconds: how long one statement may wait for its answer.

    Attributes:
        stalled: set once the watch shut the socket down (the error names the bound).
    """

    def __init__(self, fileno: Callable[[], int], seconds: float) -> None:
        self.seconds = seconds
        self.stalled = False
        self._fileno = fileno
        self._since: float | None = None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="pg-stall-watch", daemon=True)
        self._thread.start()

    def begin(self) -> None:
        """A statement is sent now."""
        self._since = time.monotonic()

    def end(self) -> None:
        """The statement in flight has its answer (or failed)."""
        self._since = None

    def close(self) -> None:
        """Stop watching (the thread ends within :data:`TICK`)."""
        self._closed.set()

    def _watch(self) -> None:
        while not self._closed.wait(TICK):
            since = self._since
            if since is not None and time.monotonic() - since > self.seconds:
                self._shut_down()
                return

    def _shut_down(self) -> None:
        fd = self._fileno()
        if fd < 0:
            return
        self.stalled = True
        sock = socket.socket(fileno=os.dup(fd))
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone: libpq reports it
        finally:
            sock.close()
