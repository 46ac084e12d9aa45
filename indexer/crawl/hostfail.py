"""Giving up on a host that keeps failing: the per-host failure window.

A host whose requests keep timing out or failing to connect (a hung application server, a
dead NFS mount behind it, a tarpit) would otherwise hold the crawl for ``timeout ×
attempts`` per URL. Each host keeps the results of its last ``window`` requests; when
``limit`` of them timed out or failed to connect, the host is *failing*: its remaining
URLs end with outcome ``host-failing`` (class network, documents kept, retried on the next
run). This is the rule of Apache Nutch's ``fetcher.max.exceptions.per.queue``, counted
over a sliding window so that a few slow pages in a long healthy crawl never trip it.

Any HTTP answer, a 500 or a 404 included, counts as the host answering, and so does a
broken response or a reset after the connection was made (the host is there; the page is
bad): only timeouts and connections that could not be made count
(:attr:`indexer.errors.RetryableFetchError.unreachable`).
"""

from __future__ import annotations

from collections import deque


class HostFailures:
    """Sliding windows of request results per host.

    Args:
        limit: failures within the window that make a host failing; 0 disables the rule
            (``fetch.host_failure_limit``).
        window: requests remembered per host (``fetch.host_failure_window``).
    """

    def __init__(self, limit: int, window: int) -> None:
        self._limit = limit
        self._window = window
        self._results: dict[str, deque[bool]] = {}
        self._failing: set[str] = set()

    def observe(self, host: str, unreachable: bool) -> bool:
        """Record one request's result; returns True when the host has just become failing.

        Args:
            host: ``host[:port]``.
            unreachable: the request timed out or could not connect.
        """
        if self._limit <= 0 or host in self._failing:
            return False
        results = self._results.setdefault(host, deque(maxlen=self._window))
        results.append(unreachable)
        if sum(results) >= self._limit:
            self._failing.add(host)
            return True
        return False

    def failing(self, host: str) -> bool:
        """Whether ``host`` was given up for this run."""
        return host in self._failing

    def reason(self, host: str) -> str:
        """The reason recorded with ``host-failing``."""
        return (
            f"{self._limit} of the host's last {self._window} requests timed out or failed "
            "to connect (fetch.host_failure_limit)"
        )
