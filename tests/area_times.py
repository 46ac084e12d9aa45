"""pytest plugin (``-p tests.area_times``): seconds spent per test area, printed at the end.

The area is the file name's first word after ``test_`` (``test_web_api.py`` → ``web``);
setup, call and teardown all count, so a session fixture (the local Solr) is charged to the
area of the first test that needs it.

It also adds up the tests that run on PostgreSQL (those that need the ``pg_cluster`` fixture,
and the ``postgres`` half of ``frontier_kind``; marked in each report's ``user_properties``, so
it works under pytest-xdist too) and prints their seconds; with ``PG_SECONDS_FILE`` set it
also writes them there, for ``scripts/test.sh``'s line of PostgreSQL's added CI time (issue
#20's budget: 4 minutes).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_SECONDS: defaultdict[str, float] = defaultdict(float)
_PG_SECONDS: list[float] = []
_PG_TESTS: set[str] = set()
_MARK = ("postgres", True)


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome: Any = yield
    if needs_postgres(item):
        outcome.get_result().user_properties.append(_MARK)


def pytest_runtest_logreport(report: Any) -> None:
    _SECONDS[area_of(report.nodeid)] += report.duration
    if any(tuple(prop) == _MARK for prop in report.user_properties):  # lists from xdist
        _PG_SECONDS.append(report.duration)
        _PG_TESTS.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _SECONDS:
        return
    terminalreporter.section("seconds per test area")
    for area, seconds in sorted(_SECONDS.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{area:<14} {seconds:8.1f}")
    if _PG_TESTS:
        seconds = sum(_PG_SECONDS)
        terminalreporter.write_line(
            f"on PostgreSQL: {len(_PG_TESTS)} tests, {seconds:.1f} s (summed over workers)"
        )
        target = os.environ.get("PG_SECONDS_FILE")
        if target:
            Path(target).write_text(f"{seconds:.1f}\n", "utf-8")
