"""The start check of ``extract.tika_url``, run where a crawl's stop can abandon it.

A service that accepts connections but never answers holds ``GET /health`` for up to
``max(15 s, extract.document_timeout)``; a crawl stopped meanwhile must still end within
its 5 s stop (:data:`indexer.pipeline.phases.STOP_BUDGET`). So the check runs in a daemon
thread of its own, begun when the crawl starts (the event loop never waits on it), and
whoever needs its answer waits on it and on the stop together.
"""

from __future__ import annotations

import logging
import threading

from indexer.extract.formats.tika import service_problem

log = logging.getLogger("indexer.pipeline.tikadocs")  # the log of the documents it decides

#: Seconds at least that the check waits for ``/health`` (a just-started JVM on a loaded
#: machine may take seconds).
HEALTH_TIMEOUT = 15.0
#: Seconds between looks at the stop while waiting for the answer.
POLL = 0.05


class Stopped(Exception):
    """The stop was set before the check answered."""


class UrlCheck:
    """One check of the service at ``url``, begun at once in a daemon thread.

    Args:
        url: ``extract.tika_url``.
        document_timeout: ``extract.document_timeout`` (seconds); the check waits
            ``max(HEALTH_TIMEOUT, document_timeout)``.
    """

    def __init__(self, url: str, document_timeout: float) -> None:
        self.url = url
        self._wait = max(HEALTH_TIMEOUT, document_timeout)
        self._done = threading.Event()
        self._problem: str | None = None
        threading.Thread(target=self._check, name="tika-url-check", daemon=True).start()

    def _check(self) -> None:
        self._problem = service_problem(self.url, self._wait)
        if self._problem is not None:
            log.warning("DOC/XLS/PPT/RTF end unsupported-format: %s", self._problem)
        self._done.set()

    def problem(self, stop: threading.Event) -> str | None:
        """Why the service cannot be used (None: it answered ``ok``), once known.

        Raises:
            Stopped: ``stop`` was set first (the check thread is abandoned; it ends by its
                own timeout).
        """
        while not self._done.wait(POLL):
            if stop.is_set():
                raise Stopped
        return self._problem
