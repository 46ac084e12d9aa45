"""What a frontier shared by several crawl processes offers beside the URL queue.

The SQLite frontier belongs to one data directory and one process (``Frontier.shared`` is
None); the PostgreSQL frontier (:class:`~indexer.crawl.frontier.postgres.store.PgFrontier`)
is shared, and sets it to a :class:`SharedState`: the database where the reindex grace
counters live (:mod:`indexer.pipeline.reconcile`), and the host lease rows that keep each
host's Crawl-delay and Retry-After hold for whichever process fetches it next
(:mod:`indexer.crawl.frontier.postgres.leases`). Its users also know from it that other
processes may queue hosts or bury URLs meanwhile (:mod:`indexer.pipeline.dispatch`,
:mod:`indexer.crawl.frontier.tombstones`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.crawl.frontier.sql import Connection
from indexer.crawl.politeness import SharedPoliteness

if TYPE_CHECKING:
    from indexer.crawl.frontier.postgres.hostcap import HostCap


@dataclass(frozen=True)
class SharedState:
    """The shared side of a frontier.

    Attributes:
        db: the shared database's connection (the frontier's own).
        politeness: where hosts' Crawl-delays and Retry-After holds are kept.
        host_cap: ``crawl.max_pages_per_host`` counted for the run across processes.
    """

    db: Connection
    politeness: SharedPoliteness
    host_cap: HostCap | None = None
