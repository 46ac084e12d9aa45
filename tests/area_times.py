"""pytest plugin (``-p tests.area_times``): seconds spent per test area, printed at the end.

The area is the file name's first word after ``test_`` (``test_web_api.py`` → ``web``);
setup, call and teardown all count, so a session fixture (the local Solr) is charged to the
area of the first test that needs it.

It also adds up the tests that run on PostgreSQL (those that need the ``pg_cluster`` fixture,
and the ``postgres`` half of ``frontier_kind``) and prints PostgreSQL's added CI time: those
seconds plus the package's install time, which ``scripts/test.sh`` passes in the environment
variable ``PG_PACKAGE_SECONDS`` (issue #20's budget: 4 minutes).
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Any

_SECONDS: defaultdict[str, float] = defaultdict(float)
_ON_POSTGRES: set[str] = set()
_PG_SECONDS: list[float] = []
PG_BUDGET_SECONDS = 240


def area_of(nodeid: str) -> str:
    """``tests/test_web_api.py::test_x`` → ``web``."""
    name = nodeid.split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")
    return name.removeprefix("test_").split("_", 1)[0]


def needs_postgres(item: Any) -> bool:
    """Whether a collected test runs on PostgreSQL (its fixtures or its backend parameter)."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("frontier_kind") == "postgres":
        return True
    return "pg_cluster" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[Any]) -> None:
    _ON_POSTGRES.update(item.nodeid for item in items if needs_postgres(item))


def pytest_runtest_logreport(report: Any) -> None:
    _SECONDS[area_of(report.nodeid)] += report.duration
    if report.nodeid in _ON_POSTGRES:
        _PG_SECONDS.append(report.duration)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _SECONDS:
        return
    terminalreporter.section("seconds per test area")
    for area, seconds in sorted(_SECONDS.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{area:<14} {seconds:8.1f}")
    if _ON_POSTGRES:
        terminalreporter.write_line(postgres_line(sum(_PG_SECONDS), len(_ON_POSTGRES)))


def postgres_line(test_seconds: float, tests: int) -> str:
    """One line: PostgreSQL's added CI time (package install + its tests) against the budget."""
    package = float(os.environ.get("PG_PACKAGE_SECONDS", "0") or 0)
    total = package + test_seconds
    return (
        f"PostgreSQL's added CI time: package {package:.0f} s + {tests} tests "
        f"{test_seconds:.1f} s = {total:.0f} s (budget {PG_BUDGET_SECONDS} s)"
    )
