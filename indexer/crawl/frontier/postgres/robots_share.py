"""robots.txt answers shared by the crawl processes of one run (issue #20).

A process that takes a host over from another (a joining process's share, a dead holder's
expiry) would otherwise fetch the host's robots.txt again: that request takes one of the
host's politeness slots (a delay). :class:`SharedRobots` keeps, in the shared ``meta``
table, the robots.txt answer the first process got in the run (``robots:ORIGIN``: the run,
the status and the text; only answers that give rules, 2xx and 4xx, RFC 9309 §2.3.1 — an
unavailable one is tried again by each process as before), so that it is fetched once per
run by whichever process asks first. One row per origin, overwritten by the next run; at
most two reads per origin and process (before the host's politeness turn, and again after
it, since another process may have fetched it meanwhile) and one write. Sitemaps are read
once per run by :class:`indexer.crawl.sitemaps.SitemapsRead` (a mark of its own in ``meta``).
"""

from __future__ import annotations

import json
from typing import Any

from indexer.crawl.frontier.postgres.leases import HostLeases
from indexer.crawl.frontier.sql import Connection

_PUT = (
    "INSERT INTO meta (key, value) VALUES (?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value=excluded.value"
)


class SharedRobots:
    """The run's robots.txt answers, per origin (``scheme://host[:port]``).

    Args:
        db: the shared frontier's connection (its ``meta`` table).
        leases: this process's leases, whose ``run`` is the current run.
    """

    def __init__(self, db: Connection, leases: HostLeases) -> None:
        self._db = db
        self._leases = leases

    def get(self, origin: str) -> tuple[int, bytes] | None:
        """The robots.txt answer another process of this run got: ``(status, body)``, or
        None (none yet, or one of an earlier run)."""
        row: Any = self._db.execute(
            "SELECT value FROM meta WHERE key=?", (f"robots:{origin}",)
        ).fetchone()
        if row is None:
            return None
        known = json.loads(str(row[0]))
        if known.get("run") != self._leases.run:
            return None
        return int(known["status"]), str(known["text"]).encode("utf-8")

    def put(self, origin: str, status: int, body: bytes) -> None:
        """Keep the robots.txt answer got now (``status``; ``body`` as fetched, read as
        UTF-8 as :class:`~indexer.crawl.robots.RobotsCache` reads it) for this run."""
        text = body.decode("utf-8", errors="replace")
        value = json.dumps({"run": self._leases.run, "status": status, "text": text})
        self._db.execute(_PUT, (f"robots:{origin}", value))
