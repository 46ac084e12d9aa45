"""The login limits as rules, on a fake clock: slots counted before the check, delays that
grow, a lockout that refuses the right password and ends by itself, bounded memory."""

from __future__ import annotations

import logging

import pytest

from indexer.errors import ConfigError
from indexer.settings import load_settings
from indexer.web.admin.throttle import (
    MAX_DELAY,
    Grant,
    LoginPolicy,
    LoginThrottle,
    Refusal,
    delay_after,
)


class Clock:
    """Seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _throttle(
    failures: int = 3, lockout: float = 60.0, delay: float = 1.0
) -> tuple[LoginThrottle, Clock]:
    clock = Clock()
    return LoginThrottle(LoginPolicy(failures, lockout, delay), clock), clock


def test_delays_double_from_the_second_failure_up_to_the_cap() -> None:
    policy = LoginPolicy(delay=1.0)
    assert [delay_after(n, policy) for n in range(6)] == [0, 0, 1, 2, 4, 8]
    assert delay_after(40, policy) == MAX_DELAY
    assert delay_after(5, LoginPolicy(delay=0)) == 0


def test_parallel_attempts_get_at_most_the_slots_left() -> None:
    """200 attempts arriving while none has been checked: only ``failures`` are granted."""
    throttle, _ = _throttle(failures=10, delay=0)
    answers = [throttle.reserve("192.0.2.1") for _ in range(200)]
    grants = [a for a in answers if isinstance(a, Grant)]
    assert len(grants) == 10
    assert all(isinstance(a, Refusal) and not a.locked for a in answers[10:])
    for grant in grants:
        throttle.settle(grant, right=False)
    refusal = throttle.reserve("192.0.2.1")
    assert isinstance(refusal, Refusal) and refusal.locked and refusal.retry_after == 60


def test_a_second_attempt_waits_for_the_first_to_be_settled() -> None:
    throttle, clock = _throttle(delay=1.0)
    first = throttle.reserve("192.0.2.1")
    assert isinstance(first, Grant)
    assert isinstance(throttle.reserve("192.0.2.1"), Grant)  # a typo costs nothing
    assert throttle.reserve("192.0.2.1") == Refusal(1, locked=False)  # two pending: wait
    clock.now += 2
    assert isinstance(throttle.reserve("192.0.2.2"), Grant)  # the account's last slot
    clock.now += 60
    full = throttle.reserve("192.0.2.3")  # three being checked: wait, however long
    assert isinstance(full, Refusal) and not full.locked
    throttle.settle(first, right=True)
    assert isinstance(throttle.reserve("192.0.2.3"), Grant)


def test_lockout_refuses_the_right_password_and_ends_by_itself(
    caplog: pytest.LogCaptureFixture,
) -> None:
    throttle, clock = _throttle(failures=3, lockout=60.0, delay=1.0)
    with caplog.at_level(logging.INFO, logger="indexer.web.admin.throttle"):
        for failures in (1, 2, 3):
            grant = throttle.reserve("192.0.2.1")
            assert isinstance(grant, Grant), (failures, grant)
            assert throttle.settle(grant, right=False) == failures
            clock.now += delay_after(failures, throttle.policy)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "admin login locked until " in lines[0]
    assert "for 192.0.2.1 and the account (every address)" in lines[0]
    assert "3 failed logins in a row, the last from 192.0.2.1" in lines[0]
    refusal = throttle.reserve("192.0.2.1")  # the right password would be next: unchecked
    assert isinstance(refusal, Refusal) and refusal.locked and refusal.retry_after == 58
    assert isinstance(throttle.reserve("198.51.100.9"), Refusal)  # the account is locked
    clock.now += 58
    again = throttle.reserve("192.0.2.1")
    assert isinstance(again, Grant)  # over, counting afresh
    assert throttle.settle(again, right=True) == 0


def test_a_right_password_clears_the_account_but_not_another_address() -> None:
    throttle, _ = _throttle(failures=3, delay=0)
    for _ in range(2):
        throttle.settle(throttle.reserve("192.0.2.66"), right=False)  # type: ignore[arg-type]
    throttle.settle(throttle.reserve("192.0.2.1"), right=True)  # type: ignore[arg-type]
    throttle.settle(throttle.reserve("192.0.2.66"), right=False)  # type: ignore[arg-type]
    assert isinstance(throttle.reserve("192.0.2.66"), Refusal)  # 3 in a row for it
    assert isinstance(throttle.reserve("192.0.2.1"), Grant)  # the account has 1


def test_the_address_table_is_capped_and_quiet_addresses_are_forgotten() -> None:
    clock = Clock()
    throttle = LoginThrottle(LoginPolicy(failures=10**6, lockout=60, delay=0), clock, 100)
    for i in range(1000):
        grant = throttle.reserve(f"10.0.{i // 256}.{i % 256}")
        assert isinstance(grant, Grant)
        throttle.settle(grant, right=False)
    assert len(throttle) == 100
    clock.now += 60
    throttle.reserve("10.9.9.9")
    assert len(throttle) == 1


def test_bad_limits_and_proxies_fail_at_load_naming_the_setting() -> None:
    for key, value in [
        ("serve.login_failures", 0),
        ("serve.login_lockout", 0),
        ("serve.login_delay", -1),
        ("serve.trusted_proxies", ["10.0.0.0/8", "proxy.example"]),
    ]:
        with pytest.raises(ConfigError) as caught:
            load_settings(None, {key: value}, environ={})
        assert str(caught.value).startswith(key), caught.value
    assert "not an IP address or network: 'proxy.example'" in str(caught.value)
