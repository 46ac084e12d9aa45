"""One memory budget per crawl process for the response bodies it holds (``crawl.memory_budget``).

A body is held from its first byte until its visit ends: while it streams in, while it
waits for a page or document worker, while it is parsed. Each visit counts what it holds on
a :class:`Reservation` of the process's :class:`MemoryBudget`, at :data:`BODY_COST` times
the body's size (the bytes, and their pickled copy on the way to a worker process). A body
that would pass the budget is not held in memory while it streams: it goes to a temporary
file (:class:`~indexer.crawl.bodyspool.BodySpool`), and once complete it waits its turn,
first come first served, before it is read back. So the bodies in memory stay within the
budget whatever the documents' sizes and the requests in flight; one body larger than the
whole budget is taken alone (nothing else held), so that it can be parsed at all.

Not thread-safe: used from the event loop only.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field

log = logging.getLogger(__name__)
MIB = 1 << 20

#: Bytes of budget a body costs per byte: itself, and its pickled copy sent to a worker.
BODY_COST = 2


@dataclass(eq=False)
class _Waiter:
    """A reservation waiting for ``amount`` bytes; ``granted`` resolves once they are its."""

    reservation: Reservation
    amount: int
    granted: asyncio.Future[None]


@dataclass
class BudgetStats:
    """What the budget saw: ``peak`` bytes held at once, ``waits`` (bodies that waited
    their turn) and ``spilled`` (bodies streamed to a temporary file)."""

    peak: int = 0
    waits: int = 0
    spilled: int = 0


class MemoryBudget:
    """The bytes of bodies one crawl process may hold at once.

    Args:
        limit: the budget in bytes (``crawl.memory_budget`` divided by ``crawl.processes``).

    Raises:
        ValueError: ``limit`` is not positive.
    """

    def __init__(self, limit: int) -> None:
        if limit <= 0:
            raise ValueError(f"a memory budget must be positive, not {limit}")
        self.limit = limit
        self.used = 0
        self.stats = BudgetStats()
        self._waiting: deque[_Waiter] = deque()

    def reservation(self) -> Reservation:
        """A new, empty reservation: one visit's share."""
        return Reservation(self)

    def log_summary(self) -> None:
        """One INFO line at the end of a run in which bodies waited or went to a file."""
        stats = self.stats
        if stats.waits or stats.spilled:
            log.info(
                "memory budget %.0f MiB (crawl.memory_budget): peak %.0f MiB, %d bodies "
                "streamed to a temporary file, %d waited their turn",
                self.limit / MIB,
                stats.peak / MIB,
                stats.spilled,
                stats.waits,
            )

    def _fits(self, holder: Reservation, amount: int) -> bool:
        """Whether ``holder`` may hold ``amount`` bytes more: within the limit, or nothing
        else is held (a body larger than the whole budget is taken alone)."""
        return self.used + amount <= self.limit or self.used == holder.held

    def _take(self, holder: Reservation, amount: int) -> None:
        holder.held += amount
        self.used += amount
        self.stats.peak = max(self.stats.peak, self.used)

    def _give(self, amount: int) -> None:
        self.used -= amount
        self._wake()

    def _wake(self) -> None:
        """Grant the waiters at the head of the line whose amounts fit, in order."""
        while self._waiting:
            head = self._waiting[0]
            if head.granted.done():  # cancelled while waiting
                self._waiting.popleft()
                continue
            if not self._fits(head.reservation, head.amount):
                return
            self._waiting.popleft()
            self._take(head.reservation, head.amount)
            head.granted.set_result(None)


@dataclass(eq=False)
class Reservation:
    """The bytes one visit holds of its process's budget (``held``), given back by
    :meth:`release` (the visit's end)."""

    budget: MemoryBudget
    held: int = field(default=0)

    def try_grow(self, amount: int) -> bool:
        """Hold ``amount`` bytes more at once if they fit and nobody waits; False (nothing
        held) otherwise: the body then goes to a temporary file."""
        budget = self.budget
        if budget._waiting or not budget._fits(self, amount):
            return False
        budget._take(self, amount)
        return True

    async def grow(self, amount: int) -> None:
        """Hold ``amount`` bytes more, waiting for them in line (first come, first served).

        Only a reservation that holds nothing waits (no visit waits while it holds bytes
        another waits for); one that holds some is given them when they fit or not at all.

        Raises:
            ValueError: this reservation holds bytes already and they do not fit.
        """
        if self.try_grow(amount):
            return
        budget = self.budget
        if self.held:
            raise ValueError("a reservation holding bytes does not wait for more")
        granted = asyncio.get_running_loop().create_future()
        budget._waiting.append(_Waiter(self, amount, granted))
        budget.stats.waits += 1
        budget._wake()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():  # granted as it was cancelled
                self.release()
            budget._wake()  # the line moves on past this waiter
            raise

    def trim(self, amount: int) -> None:
        """Give back what is held beyond ``amount`` bytes (room reserved ahead, not used)."""
        extra = self.held - max(amount, 0)
        if extra > 0:
            self.held -= extra
            self.budget._give(extra)

    def release(self) -> None:
        """Give back everything held (idempotent); waiters whose turn came are woken."""
        amount, self.held = self.held, 0
        if amount:
            self.budget._give(amount)
