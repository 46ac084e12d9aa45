"""pytest plugin (``-p tests.area_times``): seconds spent per test area, printed at the end.

The area is the file name's first word after ``test_`` (``test_web_api.py`` → ``web``);
setup, call and teardown all count, so a session fixture (the local Solr) is charged to the
area of the first test that needs it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

_SECONDS: defaultdict[str, float] = defaultdict(float)


def area_of(nodeid: str) -> str:
    """``tests/test_web_api.py::test_x`` → ``web``."""
    name = nodeid.split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")
    return name.removeprefix("test_").split("_", 1)[0]


def pytest_runtest_logreport(report: Any) -> None:
    _SECONDS[area_of(report.nodeid)] += report.duration


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _SECONDS:
        return
    terminalreporter.section("seconds per test area")
    for area, seconds in sorted(_SECONDS.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{area:<14} {seconds:8.1f}")
