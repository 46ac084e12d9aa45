"""Per-host politeness: minimum delay between request starts and requests in flight.

The delay of a host is the larger of ``fetch.delay`` and its robots.txt ``Crawl-delay``
(RFC 9309 leaves Crawl-delay undefined; we honour it up to ``fetch.crawl_delay_cap``). A
``Retry-After`` answer slows the whole host until then, not only that URL. Times are
``time.monotonic()`` seconds.

With a frontier shared by several crawl processes the Crawl-delay and a Retry-After hold
are also handed to a :class:`SharedPoliteness` (the host's lease row,
:mod:`indexer.crawl.frontier.postgres.leases`), so the process that fetches the host next
keeps them.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

#: Seconds added to a host's delay after a request is written (see :meth:`Politeness.sent`).
GAP_MARGIN = 0.01


class SharedPoliteness(Protocol):
    """Where a host's politeness is kept for the other crawl processes of a shared frontier."""

    def crawl_delay(self, host: str, seconds: float) -> None:
        """Keep ``host``'s Crawl-delay (capped, seconds)."""
        ...

    def hold(self, host: str, until: float) -> None:
        """Hold every request to ``host`` until ``until`` (epoch seconds)."""
        ...

    def started(self, host: str, at: float, *, sent: bool) -> None:
        """A request to ``host`` starts at ``at`` (epoch seconds): reserved for then
        (``sent`` False, it may be written a little later) or written just now."""
        ...


@dataclass(slots=True)
class _Host:
    next_start: float = 0.0
    last_start: float = -1.0  # the last request's start (its turn, or when it was written)
    in_flight: int = 0
    crawl_delay: float = 0.0
    held_until: float = 0.0


class Politeness:
    """Tracks every host's next allowed request start and its requests in flight.

    Args:
        delay: minimum seconds between request starts on one host.
        per_host: requests in flight per host.
        crawl_delay_cap: largest robots.txt Crawl-delay honoured (s).
        shared: where Crawl-delays and Retry-After holds are handed on to other processes
            (None: this process alone crawls its hosts).
    """

    def __init__(
        self,
        delay: float,
        per_host: int,
        crawl_delay_cap: float,
        shared: SharedPoliteness | None = None,
    ) -> None:
        self._delay = delay
        self._per_host = per_host
        self._cap = crawl_delay_cap
        self._hosts: dict[str, _Host] = {}
        self._shared = shared

    def _host(self, host: str) -> _Host:
        return self._hosts.setdefault(host, _Host())

    def set_crawl_delay(self, host: str, seconds: float | None) -> None:
        """Apply a robots.txt Crawl-delay (capped) to ``host``; a changed one is handed on
        (``shared``). It covers every request to the host, the next one included: that is
        a Crawl-delay after the last start (the robots.txt request that taught it, before
        the sitemaps are read), not the delay the last turn reserved."""
        state, capped = self._host(host), min(seconds or 0.0, self._cap)
        if capped == state.crawl_delay:
            return
        if self._shared is not None:
            self._shared.crawl_delay(host, capped)
        state.crawl_delay = capped
        if state.last_start >= 0:
            after = state.last_start + self.delay_of(host) + GAP_MARGIN
            state.next_start = max(state.next_start, after)

    def delay_of(self, host: str) -> float:
        """Seconds between request starts on ``host``."""
        return max(self._delay, self._host(host).crawl_delay)

    def ready_at(self, host: str) -> float | None:
        """Monotonic time the host may start its next request, or None when it is full."""
        state = self._host(host)
        if state.in_flight >= self._per_host:
            return None
        return state.next_start

    def enter(self, host: str) -> None:
        """Count a URL of ``host`` in flight (call :meth:`leave` when it is done)."""
        self._host(host).in_flight += 1

    def leave(self, host: str) -> None:
        """A URL of ``host`` is no longer in flight."""
        self._host(host).in_flight -= 1

    async def turn(self, host: str) -> None:
        """Wait for the host's next request start and reserve it; call before each request."""
        state = self._host(host)
        now = time.monotonic()
        start = max(now, state.next_start)
        state.next_start = start + self.delay_of(host)
        state.last_start = max(state.last_start, start)
        if self._shared is not None:
            self._shared.started(host, time.time() + start - now, sent=False)
        if start > now:
            await asyncio.sleep(start - now)
            # A late wake-up (a busy event loop) must not shorten the next gap.
            state.next_start = max(state.next_start, time.monotonic() + self.delay_of(host))
            state.last_start = max(state.last_start, time.monotonic())

    def sent(self, host: str) -> None:
        """A request to ``host`` was just written: the next one starts a full delay later,
        plus :data:`GAP_MARGIN` when there is a delay (the host sees each request a little
        after it is written, and not always equally late: on loopback, at the kernel's
        receive time, 9,030 requests of two processes at a 0.5 s delay had no gap below
        0.501 s, so at most 9 ms of the margin was spent; a threaded server's own log time
        can lag its kernel's receive time under load and is no measure of it). With a
        shared frontier the request's start is handed on too (``SharedPoliteness.started``:
        a host given back keeps its gap from it)."""
        state, now = self._host(host), time.monotonic()
        delay = self.delay_of(host)
        margin = GAP_MARGIN if delay > 0 else 0.0
        state.next_start = max(state.next_start, now + delay + margin)
        state.last_start = max(state.last_start, now)
        if self._shared is not None:
            self._shared.started(host, time.time(), sent=True)

    def slow_down(self, host: str, seconds: float) -> None:
        """Hold every request to ``host`` for ``seconds`` (a Retry-After answer)."""
        state = self._host(host)
        state.next_start = max(state.next_start, time.monotonic() + seconds)
        state.held_until = max(state.held_until, time.monotonic() + seconds)
        if self._shared is not None:
            self._shared.hold(host, time.time() + seconds)

    def held(self, longer_than: float = 1.0) -> dict[str, float]:
        """Hosts held by a Retry-After for more than ``longer_than`` seconds from now.

        Returns ``{host: wall-clock time (epoch seconds) the hold ends}``, for progress
        displays.
        """
        now_m, now = time.monotonic(), time.time()
        return {
            host: now + (state.held_until - now_m)
            for host, state in self._hosts.items()
            if state.held_until - now_m > longer_than
        }


class HostSlot:
    """One visit's place among its host's URLs in flight (:meth:`Politeness.enter` was
    called for it), left once: when the response is in, or when the visit ends."""

    def __init__(self, politeness: Politeness, host: str) -> None:
        self._politeness, self._host, self._held = politeness, host, True

    def leave(self) -> None:
        """Leave the host's slot (:meth:`Politeness.leave`), unless already left."""
        if self._held:
            self._held = False
            self._politeness.leave(self._host)
