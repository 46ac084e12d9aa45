"""Crawl progress: a rich live display on a terminal, plain log lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.text import Text

from indexer.report import RunStats

log = logging.getLogger("indexer.progress")
_LOG_EVERY = 10.0  # seconds between plain progress lines


class ProgressDisplay:
    """Shows fetched / indexed / queued counts while a crawl runs.

    Args:
        enabled: False shows nothing (``-q``).
    """

    def __init__(self, enabled: bool = True) -> None:
        self._enabled = enabled
        self._tty = sys.stderr.isatty()
        self._live: Live | None = None
        self._last = 0.0
        self._held: set[str] = set()

    def __enter__(self) -> ProgressDisplay:
        if self._enabled and self._tty:
            self._live = Live(
                Text("starting…"),
                console=Console(stderr=True),
                refresh_per_second=4,
                transient=True,
            )
            self._live.__enter__()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._live is not None:
            self._live.__exit__(et, ev, tb)

    def update(self, stats: RunStats, queued: int) -> None:
        """Called about once a second by the crawler; without a terminal a line is logged
        every 10 s, and at once when a host starts waiting on a Retry-After."""
        if not self._enabled:
            return
        line = progress_line(stats, queued)
        if self._live is not None:
            self._live.update(Text(line))
        elif time.monotonic() - self._last >= _LOG_EVERY or set(stats.waiting) - self._held:
            self._last = time.monotonic()
            log.info("%s", line)
        self._held = set(stats.waiting)


def progress_line(stats: RunStats, queued: int, show_hosts: int = 3) -> str:
    """The one progress line: counts, then the hosts held by a Retry-After and until when
    (local time), e.g. ``waiting 127.0.0.1:8080 until 09:27:13 (Retry-After)``."""
    line = (
        f"fetched {stats.fetched}  indexed {stats.indexed}  queued {queued}  "
        f"retries {sum(stats.retries.values())}  "
        f"not indexed {sum(v for k, v in stats.outcomes.items() if k != 'indexed')}"
    )
    if stats.waiting:
        held = sorted(stats.waiting.items(), key=lambda kv: kv[1])
        named = ", ".join(
            f"{host} until {time.strftime('%H:%M:%S', time.localtime(until))}"
            for host, until in held[:show_hosts]
        )
        more = f" and {len(held) - show_hosts} more" if len(held) > show_hosts else ""
        line += f"  waiting {named}{more} (Retry-After)"
    return line
