"""Host leases: one crawl process at a time fetches a host, with the host's gap kept in the row.

A lease is a row of ``host_leases`` (``host, owner, expires_at, next_allowed_at``). A process
takes a host's lease before it claims the host's URLs, with ``FOR UPDATE SKIP LOCKED`` (two
processes asking at once: one gets it, the other moves on without waiting) and only when it
is free, its own or expired; it renews every lease it holds while it crawls (every third of
``frontier.lease_seconds``) and releases them when the host has nothing queued or the
process ends. Each claim moves ``next_allowed_at`` to the claim time plus the host's delay,
so a process that takes a host over never starts its first request sooner than the delay
after the last one. The host's own politeness lives in the row too: its robots.txt
Crawl-delay (``crawl_delay``, the claim's gap is the larger of it and the delay) and a
Retry-After hold (``held_until``, which also moves ``next_allowed_at``), written by the
process that learnt them (:meth:`HostLeases.crawl_delay`, :meth:`HostLeases.hold`) and read
by the one that takes the host next, so a takeover never shortens the host's gap. Per-host
concurrency needs nothing more: only the holder fetches, and ``--join`` refuses a process
whose ``fetch.per_host`` differs (:mod:`indexer.pipeline.join`).

A process killed with -9 renews nothing: at ``expires_at`` another process takes its hosts
over, and the URLs it left ``fetching`` on them are queued again (at most the pages that
were in flight are fetched twice).
"""

from __future__ import annotations

import math
import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any

from indexer.crawl.frontier.postgres.connection import PgConnection

_TAKE = (
    "WITH free AS (SELECT host, owner FROM host_leases WHERE host=:host AND "
    "(owner IS NULL OR owner=:me OR expires_at < :now) FOR UPDATE SKIP LOCKED) "
    "UPDATE host_leases AS l SET owner=:me, expires_at=:exp FROM free WHERE l.host=free.host "
    "RETURNING l.next_allowed_at, free.owner, l.crawl_delay"
)
_ENSURE = "INSERT INTO host_leases (host) VALUES (?) ON CONFLICT (host) DO NOTHING"
_CRAWL_DELAY = (
    "UPDATE host_leases SET crawl_delay=:delay, "
    "next_allowed_at=GREATEST(next_allowed_at, :next) WHERE host=:host"
)
_HOLD = (
    "UPDATE host_leases SET held_until=GREATEST(held_until, :until), "
    "next_allowed_at=GREATEST(next_allowed_at, :until) WHERE host=:host"
)
_REQUEUE = "UPDATE urls SET state='queued' WHERE host=? AND state='fetching' AND run=?"
_RENEW = "UPDATE host_leases SET expires_at=? WHERE owner=? RETURNING host"
_OTHERS = "SELECT COUNT(*) FROM crawl_processes WHERE owner != ? AND expires_at >= ? AND run=?"
_ANNOUNCE = (
    "INSERT INTO crawl_processes (owner, run, expires_at) VALUES (?, ?, ?) "
    "ON CONFLICT (owner) DO UPDATE SET run=excluded.run, expires_at=excluded.expires_at"
)
_ACTIVE_HOSTS = "SELECT COUNT(DISTINCT host) FROM urls WHERE state != 'done' AND run=?"
_QUEUED = "SELECT 1 FROM urls WHERE host=? AND state='queued' AND run=? LIMIT 1"
#: Seconds between two renewals at most (and between two looks at the fair share).
RENEW_EVERY = 2.0


def owner_id() -> str:
    """A name for this process's leases: ``host:pid:random`` (unique across machines)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass
class _Held:
    next_allowed: float  # epoch seconds
    crawl_delay: float = 0.0  # the row's robots.txt Crawl-delay (s)


class HostLeases:
    """The leases of one process on one frontier database.

    Args:
        db: the frontier's connection (schema with ``host_leases``).
        seconds: ``frontier.lease_seconds``, how long a lease lasts unrenewed.
        delay: seconds between two request starts on a host (``fetch.delay``), written to
            ``next_allowed_at`` at each claim.
    """

    def __init__(self, db: PgConnection, seconds: float, delay: float) -> None:
        self._db = db
        self.owner = owner_id()
        self.seconds = seconds
        self.delay = delay
        self._held: dict[str, _Held] = {}
        self._foreign: dict[str, float] = {}  # host held by another → when to ask again
        self._flight: dict[str, str] = {}  # claimed URL → its host, until it ends
        self._renewed = -math.inf  # monotonic; the first claim announces the process at once
        self._idle_checked = -math.inf  # monotonic, :meth:`_free_idle`
        self.run = 0
        #: Hosts this process may hold while others crawl too (None: no other process).
        self.share: int | None = None

    def held(self, host: str) -> bool:
        """Whether this process holds ``host``'s lease (as last taken or renewed)."""
        return host in self._held

    def take(self, host: str, now: float, run: int) -> float | None:
        """Hold ``host``'s lease: the epoch time its next request may start, or None when
        another process holds it (asked again only at its expiry). Taking a host over from
        another owner queues again the URLs that owner left ``fetching`` in run ``run``."""
        self.renew_due()
        if host in self._held:
            return self._held[host].next_allowed
        if self._foreign.get(host, 0.0) > now:
            return None
        if self.share is not None and len(self._held) >= self.share and not self._free_idle():
            self._foreign[host] = now + RENEW_EVERY  # our share is full: leave it to others
            return None
        self._db.execute(_ENSURE, (host,))
        params = {"host": host, "me": self.owner, "now": now, "exp": now + self.seconds}
        row = self._db.execute(_TAKE, params).fetchone()
        if row is None:
            self._foreign[host] = self._expiry(host, now)
            return None
        if row[1] is not None and row[1] != self.owner:
            self._db.execute(_REQUEUE, (host, run))
        self._foreign.pop(host, None)
        self._held[host] = _Held(float(row[0]), float(row[2]))
        return float(row[0])

    def retry_at(self, host: str) -> float | None:
        """When a host held by another process is asked for again (epoch), else None."""
        return self._foreign.get(host)

    def gap_after(self, now: float, host: str = "") -> float:
        """``next_allowed_at`` after a claim of ``host`` at ``now``: the larger of the delay
        and the host's Crawl-delay in its row later (0 without either: no gap to keep)."""
        held = self._held.get(host)
        gap = max(self.delay, held.crawl_delay if held is not None else 0.0)
        return now + gap if gap > 0 else 0.0

    def claimed(self, url: str, host: str, now: float) -> None:
        """``url`` of ``host`` was claimed at ``now``: the next may start a delay later."""
        self._flight[url] = host
        held = self._held.get(host)
        if held is not None:
            held.next_allowed = max(held.next_allowed, self.gap_after(now, host))

    def crawl_delay(self, host: str, seconds: float) -> None:
        """Store ``host``'s robots.txt Crawl-delay (capped, s) in its lease row, for
        whichever process holds the host next (:class:`~indexer.crawl.politeness.Politeness`
        calls it when the delay it learnt changes, just before the host's next request:
        that request and the next claim are a Crawl-delay apart)."""
        after = time.time() + seconds
        self._db.execute(_ENSURE, (host,))
        self._db.execute(_CRAWL_DELAY, {"delay": seconds, "next": after, "host": host})
        held = self._held.get(host)
        if held is not None:
            held.crawl_delay = seconds
            held.next_allowed = max(held.next_allowed, after)

    def hold(self, host: str, until: float) -> None:
        """Hold every request to ``host`` until ``until`` (epoch s; a Retry-After answer,
        RFC 9110 §10.2.3) in its lease row: no process claims a URL of it sooner."""
        self._db.execute(_ENSURE, (host,))
        self._db.execute(_HOLD, {"until": until, "host": host})
        held = self._held.get(host)
        if held is not None:
            held.next_allowed = max(held.next_allowed, until)

    def ended(self, url: str) -> None:
        """A claimed URL is no longer in flight (finished, queued again or released)."""
        self._flight.pop(url, None)

    def release(self, host: str) -> None:
        """Give ``host``'s lease back (its queue is empty here)."""
        if self._held.pop(host, None) is not None:
            self._db.execute(
                "UPDATE host_leases SET owner=NULL WHERE host=? AND owner=?", (host, self.owner)
            )

    def release_all(self) -> None:
        """Give every lease back (the process ends)."""
        self._db.execute("UPDATE host_leases SET owner=NULL WHERE owner=?", (self.owner,))
        self._db.execute("DELETE FROM crawl_processes WHERE owner=?", (self.owner,))
        self._held.clear()

    def others_alive(self, now: float) -> bool:
        """Whether another process of this run announced itself within its lease time (it
        still crawls)."""
        return self._count(_OTHERS, (self.owner, now, self.run)) > 0

    def renew_due(self) -> None:
        """Renew every held lease when a third of :attr:`seconds` (at most
        :data:`RENEW_EVERY`) has passed since the last renewal; a lease found lost (expired
        and taken) is dropped. Then the fair share is computed again (:meth:`_balance`)."""
        if time.monotonic() - self._renewed < min(self.seconds / 3, RENEW_EVERY):
            return
        self._renewed = time.monotonic()
        expires = time.time() + self.seconds
        self._db.execute(_ANNOUNCE, (self.owner, self.run, expires))
        rows = self._db.execute(_RENEW, (expires, self.owner)).fetchall()
        kept = {str(r[0]) for r in rows}
        for host in [h for h in self._held if h not in kept]:
            del self._held[host]
        self._balance(time.time())

    def _balance(self, now: float) -> None:
        """With other processes crawling, hold at most an equal share of the hosts that have
        URLs queued or in flight; give back hosts beyond it that have nothing in flight
        here (their gap stays in the row)."""
        others = self._count(_OTHERS, (self.owner, now, self.run))
        if not others:
            self.share = None
            return
        hosts = self._count(_ACTIVE_HOSTS, (self.run,))
        self.share = max(1, math.ceil(hosts / (others + 1)))
        busy = set(self._flight.values())
        for host in [h for h in self._held if h not in busy][: len(self._held) - self.share]:
            self.release(host)

    def _free_idle(self) -> bool:
        """With the share full: give back held hosts with nothing queued in this run and
        nothing in flight here (a host the dispatcher left at its page limit would hold a
        place forever, and two processes each holding one could leave a queued host to
        nobody); at most once per :data:`RENEW_EVERY`. True when there is room now."""
        if time.monotonic() - self._idle_checked < RENEW_EVERY:
            return False
        self._idle_checked = time.monotonic()
        busy = set(self._flight.values())
        for host in [h for h in self._held if h not in busy]:
            if self._db.execute(_QUEUED, (host, self.run)).fetchone() is None:
                self.release(host)
        return self.share is None or len(self._held) < self.share

    def _count(self, sql: str, params: tuple[object, ...]) -> int:
        row: Any = self._db.execute(sql, params).fetchone()
        return int(row[0])

    def _expiry(self, host: str, now: float) -> float:
        row = self._db.execute("SELECT expires_at FROM host_leases WHERE host=?", (host,))
        found = row.fetchone()
        expires = now + self.seconds if found is None else float(found[0])
        return min(max(expires, now + 0.05), now + RENEW_EVERY)
