"""Per-host robots.txt cache (RFC 9309) with protego.

Fetched once per host (scheme + authority) and cached. RFC 9309 §2.3.1: a 4xx means no
rules apply (allow all); a 5xx or a network failure means the host is treated as fully
disallowed for now, and robots.txt is tried again after ``fetch.robots_retry`` seconds
(the pipeline defers the host's URLs until then instead of giving them up). A host that
cannot be reached at all (connection refused, timeout) is tried again sooner
(``network_retry``), and its URLs end as ``connection-error`` or ``timeout``. Redirects are
followed (at least five, §2.3.1.2), each hop at its host's politeness turn when the crawl
gives one (``before_hop``), and only the first 500 KiB are parsed (§2.5).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Protocol

from protego import Protego
from yarl import URL

from indexer.crawl.fetch import Fetcher, HopCheck
from indexer.errors import FetchError
from indexer.outcomes import Outcome, http_outcome
from indexer.settings import FetchSettings

#: Failures meaning the host itself cannot be reached (not a robots.txt answer).
NETWORK_FAILURES = frozenset({Outcome.CONNECTION_ERROR, Outcome.TIMEOUT})
_MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309 §2.5: at least 500 KiB must be parsed


@dataclass(slots=True)
class _Entry:
    rules: Protego | None  # None: unavailable, disallow everything until retry_at
    retry_at: float = 0.0
    sitemaps: list[str] = field(default_factory=list)
    failure: str = ""


class RobotsStore(Protocol):
    """Where the crawl processes of a shared frontier keep the run's robots.txt answers
    (:mod:`indexer.crawl.frontier.postgres.robots_share`)."""

    def get(self, origin: str) -> tuple[int, bytes] | None:
        """``(status, body)`` another process got for ``origin``'s robots.txt, or None."""
        ...

    def put(self, origin: str, status: int, body: bytes) -> None:
        """Keep the answer got for ``origin``'s robots.txt (a 2xx or 4xx)."""
        ...


def robots_network_retry(fetch: FetchSettings) -> float:
    """Seconds before robots.txt of an unreachable host is tried again:
    ``fetch.robots_network_retry``, or when unset 4 × ``fetch.backoff_base`` capped at
    ``fetch.robots_retry`` (an unreachable host is usually back within the retry backoff)."""
    if fetch.robots_network_retry is not None:
        return fetch.robots_network_retry
    return min(fetch.robots_retry, 4 * fetch.backoff_base)


class RobotsCache:
    """Answers "may this URL be fetched" per RFC 9309.

    Args:
        fetcher: used to GET ``/robots.txt``.
        user_agent: product token matched against ``User-agent`` lines.
        retry_after: seconds before a robots.txt that answered 5xx is tried again.
        network_retry: seconds before an unreachable host's robots.txt is tried again.
        before_hop: awaited with each redirect target of a robots.txt (its host's turn).
        shared: the answers other crawl processes of the run got (a shared frontier): a
            robots.txt one of them fetched is not fetched again here (None: this process
            alone).
    """

    def __init__(
        self,
        fetcher: Fetcher,
        user_agent: str,
        retry_after: float,
        network_retry: float,
        before_hop: HopCheck | None = None,
        shared: RobotsStore | None = None,
    ) -> None:
        self._fetcher = fetcher
        self._shared = shared
        self._agent = user_agent
        self._retry_after = retry_after
        self._network_retry = network_retry
        self._before_hop = before_hop
        self._entries: dict[str, _Entry] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    @staticmethod
    def origin(url: str) -> str:
        """``scheme://host[:port]`` of ``url``."""
        return str(URL(url).origin())

    def is_cached(self, url: str) -> bool:
        """Whether the URL's robots.txt is known and need not be fetched now (another
        process of the run fetched it: it is read from there)."""
        origin = self.origin(url)
        entry = self._entries.get(origin)
        if entry is None and self._shared is not None:
            known = self._shared.get(origin)
            if known is not None:
                entry = self._entries[origin] = _answer(*known)
        return entry is not None and (entry.rules is not None or entry.retry_at > time.time())

    async def allowed(self, url: str) -> tuple[bool, str]:
        """``(allowed, reason)`` for ``url``; fetches robots.txt on first use per origin."""
        entry = await self._entry(self.origin(url))
        if entry.rules is None:
            return False, f"robots.txt unavailable ({entry.failure})"
        if entry.rules.can_fetch(url, self._agent):
            return True, ""
        return False, "disallowed by robots.txt"

    async def crawl_delay(self, url: str) -> float | None:
        """The Crawl-delay (s) for our agent at the URL's origin, or None."""
        entry = await self._entry(self.origin(url))
        if entry.rules is None:
            return None
        delay = entry.rules.crawl_delay(self._agent)
        return float(delay) if delay is not None else None

    def failure(self, url: str) -> str:
        """Why the origin's robots.txt is unavailable (an outcome name), or ``""``."""
        entry = self._entries.get(self.origin(url))
        return entry.failure if entry is not None and entry.rules is None else ""

    def unavailable_until(self, url: str) -> float | None:
        """Epoch time robots.txt of the URL's origin is tried again, or None when known."""
        entry = self._entries.get(self.origin(url))
        return entry.retry_at if entry is not None and entry.rules is None else None

    async def sitemaps(self, url: str) -> list[str]:
        """``Sitemap:`` URLs listed in the origin's robots.txt."""
        return list((await self._entry(self.origin(url))).sitemaps)

    async def _entry(self, origin: str) -> _Entry:
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            entry = self._entries.get(origin)
            if entry is None or (entry.rules is None and entry.retry_at <= time.time()):
                entry = await self._load(origin)
                self._entries[origin] = entry
            return entry

    async def _load(self, origin: str) -> _Entry:
        known = self._shared.get(origin) if self._shared is not None else None
        if known is not None:  # another process of the run fetched it
            return _answer(*known)
        try:
            status, body = await self._fetcher.get_text(
                f"{origin}/robots.txt",
                _MAX_ROBOTS_BYTES,
                truncate=True,
                before_hop=self._before_hop,
            )
        except FetchError as exc:
            wait = self._network_retry if exc.outcome in NETWORK_FAILURES else self._retry_after
            return _Entry(None, time.time() + wait, failure=exc.outcome)
        if status >= 500 or status < 200 or 300 <= status < 400:
            return _Entry(None, time.time() + self._retry_after, failure=http_outcome(status))
        if self._shared is not None:
            self._shared.put(origin, status, body)
        return _answer(status, body)


def _answer(status: int, body: bytes) -> _Entry:
    """The rules of a robots.txt answer that gives them: a 4xx allows all (RFC 9309
    §2.3.1.3), a 2xx is parsed."""
    if 400 <= status < 500:
        return _Entry(Protego.parse(""))
    rules = Protego.parse(body.decode("utf-8", errors="replace"))
    return _Entry(rules, sitemaps=list(rules.sitemaps))
