"""Open the frontier the settings name: SQLite in the data directory, or PostgreSQL.

``frontier.url`` empty: :class:`~indexer.crawl.frontier.store.Frontier` (``frontier.sqlite3``
in ``crawl.data_dir``); a ``postgresql://`` URL:
:class:`~indexer.crawl.frontier.postgres.store.PgFrontier`, whose data directory keeps
only this process's outbox and lock.
"""

from __future__ import annotations

from pathlib import Path

from indexer.crawl.frontier.store import Frontier
from indexer.crawl.frontier.view import FrontierView
from indexer.settings import Settings
from indexer.settings_frontier import STALL_SECONDS


def open_frontier(settings: Settings, *, create: bool = True) -> Frontier:
    """The frontier ``settings`` name: ``frontier.url`` (empty: SQLite in ``crawl.data_dir``),
    with ``frontier.lease_seconds`` and ``fetch.delay`` for the host leases.

    Raises:
        CrawlLockedError: another process holds the lock on ``data_dir``.
        StateError: as :class:`Frontier` / :class:`PgFrontier` (missing and not ``create``,
            broken, foreign, newer, or the database cannot be reached).
    """
    data_dir, url = settings.crawl.data_dir, settings.frontier.url
    if not url:
        return Frontier(data_dir, create=create)
    from indexer.crawl.frontier.postgres.store import PgFrontier  # psycopg only when asked

    lease, delay = settings.frontier.lease_seconds, settings.fetch.delay
    stall, cap = settings.frontier.stall_seconds, settings.crawl.max_pages_per_host
    return PgFrontier(
        url,
        data_dir,
        create=create,
        lease_seconds=lease,
        delay=delay,
        stall_seconds=stall,
        max_pages_per_host=cap,
    )


def open_view(data_dir: Path, url: str = "", stall_seconds: float = STALL_SECONDS) -> FrontierView:
    """A read-only view of the frontier of ``url`` (empty: SQLite in ``data_dir``), for
    ``indexer report``; ``stall_seconds``: ``frontier.stall_seconds``.

    Raises:
        StateError: as :class:`FrontierView` / :class:`PgFrontierView`.
    """
    if not url:
        return FrontierView(data_dir)
    from indexer.crawl.frontier.postgres.view import PgFrontierView

    return PgFrontierView(url, stall_seconds)
