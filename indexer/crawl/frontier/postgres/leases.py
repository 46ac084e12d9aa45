"""Host leases: one crawl process at a time fetches a host, with the host's gap kept in the row.

A lease is a row of ``host_leases`` (``host, owner, expires_at, next_allowed_at``). A process
takes a host's lease before it claims the host's URLs, with ``FOR UPDATE SKIP LOCKED`` (two
processes asking at once: one gets it, the other moves on without waiting) and only when it
is free, its own or expired; it renews every lease it holds while it crawls (every third of
``frontier.lease_seconds``) and releases them when the host has nothing queued, when the
host is beyond its fair share while other processes crawl (:meth:`HostLeases._balance`) or
when the process ends. Each claim moves ``next_allowed_at`` to the claim time plus the
host's delay, and a release to the release time plus the delay (a request may start later
than its claim), so a process that takes a host over never starts its first request sooner
than the delay after the last one. The host's own politeness lives in the row too: its
robots.txt Crawl-delay (``crawl_delay``, the claim's gap is the larger of it and the delay)
and a Retry-After hold (``held_until``, which also moves ``next_allowed_at``), written by the
process that learnt them (:meth:`HostLeases.crawl_delay`, :meth:`HostLeases.hold`) and read
by the one that takes the host next, so a takeover never shortens the host's gap. Per-host
concurrency needs nothing more: only the holder fetches, and ``--join`` refuses a process
whose ``fetch.per_host`` differs (:mod:`indexer.pipeline.join`).

A process killed with -9 renews nothing: at ``expires_at`` another process takes its hosts
over, and the URLs it left ``fetching`` on them are queued again (at most the pages that
were in flight are fetched twice).

Fencing: a process whose statements stalled (PostgreSQL frozen or unreachable past the lease
time) may find, when they return, that another process took its hosts at their expiry. So a
held lease counts only until the expiry its last take or renewal wrote, less
:data:`FENCE_SHARE` of the lease time (:meth:`HostLeases.valid`); past it the host is taken
again from its row (its ``next_allowed_at`` read anew) before any URL of it is claimed, and
a URL claimed by a statement that returned too late goes back to the queue unfetched.
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
from indexer.crawl.frontier.postgres.lease_sql import (
    ACTIVE_HOSTS,
    ANNOUNCE,
    CRAWL_DELAY,
    ENSURE,
    FREE,
    FREED,
    HOLD,
    OTHERS,
    RELEASE_DRAINED,
    RENEW,
    REQUEUE,
    TAKE,
)
from indexer.crawl.politeness import GAP_MARGIN

#: Seconds between two renewals at most (and between two looks at the fair share).
RENEW_EVERY = 2.0
#: Seconds before a host left to others (this process's share is full, or it gave the host
#: back) is asked for again.
ASK_AGAIN = 0.5
#: Seconds between two looks (one query for all of them) at the lease rows of the hosts
#: other processes hold: a host given back or expired is taken up within it, and one with
#: nothing queued or in flight any more is asked about again (the crawl stops waiting).
POLL_EVERY = 0.1


def owner_id() -> str:
    """A name for this process's leases: ``host:pid:random`` (unique across machines)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


#: Share of ``frontier.lease_seconds`` before a lease's expiry from which it no longer
#: counts as held here (:meth:`HostLeases.valid`): room for a claim's request to start.
FENCE_SHARE = 1 / 3


@dataclass
class _Held:
    next_allowed: float  # epoch seconds
    crawl_delay: float = 0.0  # the row's robots.txt Crawl-delay (s)
    expires: float = math.inf  # epoch seconds: the expiry the last take or renewal wrote


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
        self._elsewhere: set[str] = set()  # of those, the ones another process holds
        self._polled = 0.0  # epoch, :meth:`_poll`
        self._asks: dict[str, int] = {}  # host → refused asks while left to others
        self._flight: dict[str, str] = {}  # claimed URL → its host, until it ends
        self._leaving: set[str] = set()  # held hosts beyond the share, released when idle
        self._idle: set[str] = set()  # held hosts the crawl stopped asking for, likewise
        self._rows: set[str] = set()  # hosts whose lease row exists
        #: host → (epoch start of its last request here, whether it was written by then)
        self._started: dict[str, tuple[float, bool]] = {}
        self._renewed = -math.inf  # monotonic; the first claim announces the process at once
        self._drained_checked = -math.inf  # monotonic, :meth:`_free_drained`
        self.run = 0
        #: Hosts this process may hold while others crawl too (None: no other process).
        self.share: int | None = None

    def held(self, host: str) -> bool:
        """Whether this process holds ``host``'s lease (as last taken or renewed)."""
        return host in self._held

    def valid(self, host: str) -> bool:
        """Whether ``host``'s lease is held and surely not expired: now is more than
        :data:`FENCE_SHARE` of the lease time before the expiry last written (a statement
        that stalled past it may have let another process take the host)."""
        held = self._held.get(host)
        return held is not None and time.time() < held.expires - self.seconds * FENCE_SHARE

    def lapsed(self, host: str) -> None:
        """Forget ``host``'s lease without writing (it may be another's now): the next
        :meth:`take` takes it again from its row, or finds it held elsewhere."""
        self._held.pop(host, None)

    def lease_of(self, host: str) -> object | None:
        """This process's lease of ``host`` as a token (a new one each time it is taken), or
        None when it holds none."""
        return self._held.get(host)

    def take(self, host: str, now: float, run: int) -> float | None:
        """Hold ``host``'s lease: the epoch time its next request may start, or None when
        another process holds it (asked again at its expiry, at most :data:`ASK_AGAIN`
        later), when it is being given back, or when this process holds its share of the
        hosts. Taking a host over from another owner queues again the URLs that owner left
        ``fetching`` in run ``run``."""
        self.renew_due()
        if host in self._leaving:  # asked for when its politeness slot is free: no request
            self.release(host)  # of it runs here (its pages may wait for a verdict)
            self._leave_to_others(host, now + ASK_AGAIN)
            return None
        if host in self._held and not self.valid(host):
            self.lapsed(host)  # past its fence: taken again below, its row read anew
        if host in self._held:
            return self._held[host].next_allowed
        if self._foreign.get(host, 0.0) > now and not self._poll(host, now):
            return None
        if self.share is not None and len(self._held) >= self.share and not self._free_drained():
            self._leave_to_others(host, now + ASK_AGAIN)  # our share is full
            return None
        row = self._take_row(host, now)
        if row is None:
            self._leave_to_others(host, self._expiry(host, now), elsewhere=True)
            return None
        if row[1] is not None and row[1] != self.owner:
            self._db.execute(REQUEUE, (host, run))
        self._foreign.pop(host, None)
        self._elsewhere.discard(host)
        self._held[host] = _Held(float(row[0]), float(row[2]), now + self.seconds)
        return float(row[0])

    def _take_row(self, host: str, now: float) -> Any:
        """The lease row taken (``next_allowed_at, previous owner, crawl_delay``), or None
        when another process holds it; a host never seen gets its row first."""
        params = {"host": host, "me": self.owner, "now": now, "exp": now + self.seconds}
        if host not in self._rows:
            self._db.execute(ENSURE, (host,))
            self._rows.add(host)
        return self._db.execute(TAKE, params).fetchone()

    def retry_at(self, host: str) -> float | None:
        """When a host held by another process is asked for again (epoch; at the next look
        at the lease rows, :data:`POLL_EVERY`), else None."""
        until = self._foreign.get(host)
        if until is None or host not in self._elsewhere:
            return until
        return min(until, self._polled + POLL_EVERY)

    def asked(self, host: str) -> int | None:
        """The number of the last refused ask for ``host`` while it is left to others (a
        new one after each look that finds it changed), else None."""
        return self._asks.get(host) if host in self._foreign else None

    def _leave_to_others(self, host: str, until: float, *, elsewhere: bool = False) -> None:
        """Ask for ``host`` no sooner than ``until`` (epoch), or with ``elsewhere`` (another
        process holds it) sooner when a look at the lease rows finds it changed."""
        self._foreign[host] = until
        self._asks[host] = self._asks.get(host, 0) + 1
        if elsewhere:
            self._elsewhere.add(host)
        else:
            self._elsewhere.discard(host)

    def _poll(self, host: str, now: float) -> bool:
        """Whether ``host``, held elsewhere, is to be asked for again now: at most every
        :data:`POLL_EVERY` one query reads which of the hosts other processes hold were
        given back, expired or have nothing queued or in flight left (those are asked for
        again)."""
        if host not in self._elsewhere or now - self._polled < POLL_EVERY:
            return False
        self._polled = now
        params = {"hosts": sorted(self._elsewhere), "now": now, "run": self.run}
        rows = self._db.execute(FREED, params).fetchall()
        for row in rows:
            self._foreign.pop(str(row[0]), None)
            self._elsewhere.discard(str(row[0]))
        return host not in self._elsewhere

    def gap_after(self, now: float, host: str = "") -> float:
        """``next_allowed_at`` after a claim of ``host`` at ``now``: the larger of the delay
        and the host's Crawl-delay in its row later (0 without either: no gap to keep)."""
        held = self._held.get(host)
        gap = max(self.delay, held.crawl_delay if held is not None else 0.0)
        return now + gap if gap > 0 else 0.0

    def claimed(self, url: str, host: str, now: float) -> None:
        """``url`` of ``host`` was claimed at ``now``: the next may start a delay later."""
        self._flight[url] = host
        self._idle.discard(host)
        held = self._held.get(host)
        if held is not None:
            held.next_allowed = max(held.next_allowed, self.gap_after(now, host))

    def crawl_delay(self, host: str, seconds: float) -> None:
        """Store ``host``'s robots.txt Crawl-delay (capped, s) in its lease row, for
        whichever process holds the host next (:class:`~indexer.crawl.politeness.Politeness`
        calls it when the delay it learnt changes, just before the host's next request:
        that request and the next claim are a Crawl-delay apart)."""
        after = time.time() + seconds
        self._db.execute(ENSURE, (host,))
        self._db.execute(CRAWL_DELAY, {"delay": seconds, "next": after, "host": host})
        held = self._held.get(host)
        if held is not None:
            held.crawl_delay = seconds
            held.next_allowed = max(held.next_allowed, after)

    def hold(self, host: str, until: float) -> None:
        """Hold every request to ``host`` until ``until`` (epoch s; a Retry-After answer,
        RFC 9110 §10.2.3) in its lease row: no process claims a URL of it sooner."""
        self._db.execute(ENSURE, (host,))
        self._db.execute(HOLD, {"until": until, "host": host})
        held = self._held.get(host)
        if held is not None:
            held.next_allowed = max(held.next_allowed, until)

    def ended(self, url: str) -> None:
        """A claimed URL is no longer in flight (finished, queued again or released); a host
        being given back (:meth:`_balance`, :meth:`release_when_idle`) is released once
        nothing of it is in flight."""
        host = self._flight.pop(url, None)
        if host is None or host in self._flight.values():
            return
        if host in self._leaving or host in self._idle:
            self.release(host)

    def release_when_idle(self, host: str) -> None:
        """The crawl stops asking for held ``host`` (nothing queued, a URL in flight): give
        it back when nothing of it is in flight any more, unless URLs of it are queued
        meanwhile (:meth:`queued`); else it stays held, and URLs another process queues for
        it wait for this process's next look at the queued hosts."""
        if host in self._held:
            self._idle.add(host)

    def queued(self, hosts: set[str]) -> None:
        """URLs of ``hosts`` were queued here: they are asked for again."""
        self._idle.difference_update(hosts)

    def started(self, host: str, at: float, *, sent: bool) -> None:
        """A request to ``host`` starts at ``at`` (epoch s): reserved for then (``sent``
        False) or written just now (:class:`~indexer.crawl.politeness.Politeness` calls it,
        no query): :meth:`release` writes the host's next start a gap after it."""
        if at >= self._started.get(host, (-math.inf, True))[0]:
            self._started[host] = (at, sent)

    def release(self, host: str) -> None:
        """Give ``host``'s lease back (its queue is empty here, or it is beyond this
        process's share). Its next request, by whichever process, starts no sooner than a
        gap after the last one here started (:meth:`started`, plus
        :data:`~indexer.crawl.politeness.GAP_MARGIN`), possibly later than its claim moved
        ``next_allowed_at`` to; after now when a URL of it is still in flight or a
        request of it reserved and not yet written."""
        self._leaving.discard(host)
        self._idle.discard(host)
        if self._held.pop(host, None) is not None:
            params = {"host": host, "me": self.owner, "last": self._last(host), "delay": self.delay}
            self._db.execute(
                f"UPDATE host_leases SET {FREE} WHERE host=:host AND owner=:me", params
            )

    def _last(self, host: str) -> float:
        """When the last request of ``host`` here started, for :meth:`release` (epoch s)."""
        at, sent = self._started.get(host, (0.0, True))
        if not sent or host in self._flight.values():
            at = max(at, time.time())
        return at + GAP_MARGIN

    def release_all(self) -> None:
        """Give every lease back (the process ends)."""
        params = {"me": self.owner, "last": time.time() + GAP_MARGIN, "delay": self.delay}
        self._db.execute(f"UPDATE host_leases SET {FREE} WHERE owner=:me", params)
        self._db.execute("DELETE FROM crawl_processes WHERE owner=?", (self.owner,))
        self._held.clear()
        self._leaving.clear()

    def others_alive(self, now: float) -> bool:
        """Whether another process of this run announced itself within its lease time (it
        still crawls)."""
        return self._count(OTHERS, (self.owner, now, self.run)) > 0

    def renew_due(self) -> None:
        """Renew every held lease when a third of :attr:`seconds` (at most
        :data:`RENEW_EVERY`) has passed since the last renewal; a lease found lost (expired
        and taken) is dropped. Then the fair share is computed again (:meth:`_balance`)."""
        if time.monotonic() - self._renewed < min(self.seconds / 3, RENEW_EVERY):
            return
        self._renewed = time.monotonic()
        expires = time.time() + self.seconds
        self._db.execute(ANNOUNCE, (self.owner, self.run, expires))
        rows = self._db.execute(RENEW, (expires, self.owner)).fetchall()
        kept = {str(r[0]) for r in rows}
        for host in [h for h in self._held if h not in kept]:
            del self._held[host]
            self._leaving.discard(host)
        for held in self._held.values():
            held.expires = expires
        self._balance(time.time())

    def _balance(self, now: float) -> None:
        """With other processes crawling, hold at most an equal share of the hosts that have
        URLs queued or in flight. Hosts beyond it are given back, those with nothing in
        flight here at once, the others when their last URL in flight ends (:meth:`ended`)
        or when the crawl asks for the host again (:meth:`take`: the dispatcher asks only
        when the host's politeness slot is free, so no request of it runs; its fetched pages
        may still wait for the site-wide verdict); no new URL of them is claimed meanwhile.
        Their gap stays in the row."""
        others = self._count(OTHERS, (self.owner, now, self.run))
        if not others:
            self.share = None
            self._leaving.clear()
            return
        hosts = self._count(ACTIVE_HOSTS, (self.run,))
        self.share = max(1, math.ceil(hosts / (others + 1)))
        busy = set(self._flight.values())
        self._release_drained(busy)
        staying = [h for h in self._held if h not in self._leaving]
        excess = len(staying) - self.share
        if excess <= 0:
            return
        staying.sort(key=lambda h: h in busy)  # idle hosts go first
        for host in staying[:excess]:
            if host in busy:
                self._leaving.add(host)
            else:
                self.release(host)

    def _free_drained(self) -> bool:
        """With the share full: give back the held hosts with nothing left to claim (a host
        the dispatcher left at its page limit would hold a place, and two processes each
        holding one could leave a queued host to nobody); at most once per
        :data:`ASK_AGAIN`. True when there is room now."""
        if time.monotonic() - self._drained_checked < ASK_AGAIN:
            return False
        self._drained_checked = time.monotonic()
        self._release_drained(set(self._flight.values()))
        return self.share is None or len(self._held) < self.share

    def _release_drained(self, busy: set[str]) -> None:
        """Give back the held hosts that have nothing left to claim, so that they do not
        fill this process's share."""
        now = time.time() + GAP_MARGIN
        params = {"last": now, "delay": self.delay, "me": self.owner, "run": self.run}
        rows = self._db.execute(RELEASE_DRAINED, params | {"busy": sorted(busy)}).fetchall()
        for row in rows:
            self._held.pop(str(row[0]), None)
            self._leaving.discard(str(row[0]))

    def _count(self, sql: str, params: tuple[object, ...]) -> int:
        row: Any = self._db.execute(sql, params).fetchone()
        return int(row[0])

    def _expiry(self, host: str, now: float) -> float:
        row = self._db.execute("SELECT expires_at FROM host_leases WHERE host=?", (host,))
        found = row.fetchone()
        if found is None:
            self._rows.discard(host)
        expires = now + self.seconds if found is None else float(found[0])
        return min(max(expires, now + 0.05), now + self.seconds)
