"""Failed admin logins limited per client address and for the one admin account: a delay
that grows with each failure in a row, then a lockout.

The rules (OWASP Authentication Cheat Sheet, "Protect Against Automated Attacks": account
lockout after a number of failures, for a period, counted per account so that many
addresses do not multiply the guesses; and per address so that one guesser does not lock
the admin out alone for long):

1. An attempt is counted *before* its password is checked: :meth:`LoginThrottle.reserve`
   takes a slot of its address and of the account, and refuses once the failures in a row
   plus the attempts in progress reach ``serve.login_failures`` — so however many arrive
   in parallel, no more than that many are ever checked before a lockout.
2. After a reservation and after each failure, the next attempt of that key waits
   :func:`delay_after` seconds (``serve.login_delay``, doubling, at most
   :data:`MAX_DELAY`); one that comes sooner is refused unchecked.
3. ``serve.login_failures`` failures in a row lock the key for ``serve.login_lockout``
   seconds: every attempt, the right password too, is refused unchecked (429 with
   ``Retry-After``, RFC 6585 §4, RFC 9110 §10.2.3). Each lockout is one warning line naming
   the address and until when. When it ends, the key starts afresh.
4. A right password clears the failures of its address and of the account.
5. Memory is bounded: a key quiet for ``serve.login_lockout`` seconds is forgotten, and the
   table keeps at most :data:`MAX_ADDRESSES` addresses, the least recently seen dropped
   first (a dropped address loses its own count, never the account's).
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

log = logging.getLogger(__name__)
#: Longest wait between two checks of one key, in seconds.
MAX_DELAY = 60.0
#: Client addresses remembered at most (an attacker can vary them).
MAX_ADDRESSES = 10_000
#: The key of the one admin account.
ACCOUNT = "account"


@dataclass(frozen=True, slots=True)
class LoginPolicy:
    """The limits (``serve.login_failures``, ``serve.login_lockout``, ``serve.login_delay``).

    Attributes:
        failures: failed logins in a row that lock a key (>= 1).
        lockout: seconds a lockout lasts (> 0); also how long a quiet key is remembered.
        delay: seconds after the first failure before the next check (>= 0).
    """

    failures: int = 10
    lockout: float = 300.0
    delay: float = 1.0


def delay_after(attempts: int, policy: LoginPolicy) -> float:
    """Seconds before the next check of a key with ``attempts`` failed or pending attempts
    in a row: none for 0 or 1 (a typo costs nothing), ``policy.delay`` for 2, doubling for
    each further one, at most :data:`MAX_DELAY` (exponential backoff slows guessing down
    long before the lockout)."""
    if attempts <= 1:
        return 0.0
    return min(policy.delay * 2.0 ** min(attempts - 2, 32), MAX_DELAY)


@dataclass(slots=True)
class _Key:
    """What is known of one key: failures in a row, attempts being checked, the earliest
    next check, the end of its lockout, and when it was last seen (clock seconds)."""

    failures: int = 0
    pending: int = 0
    not_before: float = 0.0
    locked_until: float = 0.0
    seen: float = 0.0


@dataclass(frozen=True, slots=True)
class Refusal:
    """An attempt refused unchecked.

    Attributes:
        retry_after: whole seconds to wait (the ``Retry-After`` value, >= 1).
        locked: True for a lockout, False for the wait between attempts.
    """

    retry_after: int
    locked: bool


@dataclass(frozen=True, slots=True)
class Grant:
    """A reserved attempt of ``address``: check its password, then :meth:`LoginThrottle.settle`."""

    address: str


class LoginThrottle:
    """The login limits of one server process (see the module docstring).

    Args:
        policy: the limits.
        clock: seconds of a monotonic clock (:func:`time.monotonic`; tests pass their own).
        max_addresses: addresses remembered at most.
    """

    def __init__(
        self,
        policy: LoginPolicy,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = MAX_ADDRESSES,
    ) -> None:
        self.policy = policy
        self._clock = clock
        self._max = max_addresses
        self._account = _Key()
        self._addresses: OrderedDict[str, _Key] = OrderedDict()

    def __len__(self) -> int:
        """The number of addresses remembered."""
        return len(self._addresses)

    def reserve(self, address: str) -> Grant | Refusal:
        """Count an attempt of ``address`` before its check, or refuse it unchecked."""
        now = self._clock()
        self._forget(now)
        keys = [self._account, self._addresses.get(address)]
        for key in keys:
            if key is not None and (refusal := self._refusal(key, now)) is not None:
                return refusal
        entry = self._addresses.setdefault(address, _Key())
        self._addresses.move_to_end(address)  # the most recently seen last
        while len(self._addresses) > self._max:
            self._addresses.popitem(last=False)
        for key in (self._account, entry):
            key.pending += 1
            key.seen = now
            key.not_before = now + delay_after(key.failures + key.pending, self.policy)
        return Grant(address)

    def settle(self, grant: Grant, right: bool) -> int:
        """End a reserved attempt: ``right`` clears the failures of its keys, a failure adds
        one to each and may lock them (logged). Returns the address's failures in a row."""
        now = self._clock()
        entry = self._addresses.get(grant.address)
        locked = [
            name
            for name, key in ((grant.address, entry), (ACCOUNT, self._account))
            if key is not None and self._settle_key(key, right, now)
        ]
        if locked:
            self._log_lockout(grant.address, locked)
        return entry.failures if entry is not None else 0

    def _settle_key(self, key: _Key, right: bool, now: float) -> bool:
        """Settle one key; True when this failure locked it."""
        key.pending = max(0, key.pending - 1)
        key.seen = now
        if right:
            key.failures, key.not_before = 0, 0.0
            return False
        key.failures += 1
        key.not_before = now + delay_after(key.failures, self.policy)
        if key.failures >= self.policy.failures and key.locked_until <= now:
            key.locked_until = now + self.policy.lockout
            return True
        return False

    def _refusal(self, key: _Key, now: float) -> Refusal | None:
        """Why ``key`` may not be checked now, or None."""
        if key.locked_until > now:
            return Refusal(_seconds(key.locked_until - now), locked=True)
        if key.locked_until:  # the lockout is over: start afresh
            key.failures, key.locked_until, key.not_before = 0, 0.0, 0.0
        attempts = key.failures + key.pending
        if attempts >= self.policy.failures:  # the slots left are all being checked
            return Refusal(_seconds(delay_after(attempts, self.policy)), locked=False)
        if key.not_before > now:
            return Refusal(_seconds(key.not_before - now), locked=False)
        return None

    def _forget(self, now: float) -> None:
        """Drop the keys quiet for ``policy.lockout`` seconds (oldest first)."""
        while self._addresses:
            address, key = next(iter(self._addresses.items()))
            if not self._quiet(key, now):
                break
            del self._addresses[address]
        if self._quiet(self._account, now):
            self._account = _Key()

    def _quiet(self, key: _Key, now: float) -> bool:
        return (
            key.pending == 0 and key.locked_until <= now and now - key.seen >= self.policy.lockout
        )

    def _log_lockout(self, address: str, locked: list[str]) -> None:
        """One warning line: what is locked (the address, the account), until when (UTC)."""
        until = datetime.fromtimestamp(time.time() + self.policy.lockout, UTC)
        whom = " and ".join("the account (every address)" if k == ACCOUNT else k for k in locked)
        log.warning(
            "admin login locked until %s for %s: %d failed logins in a row, the last from %s",
            until.strftime("%Y-%m-%dT%H:%M:%SZ"),
            whom,
            self.policy.failures,
            address,
        )


def _seconds(span: float) -> int:
    """``span`` as whole seconds for ``Retry-After``, rounded up, at least 1."""
    return max(1, math.ceil(span))
