"""The frontier's state file: its tables and schema version, as :class:`DataDir` checks them.

Version 1 is the schema as first released (``urls``, ``meta``, ``runs``); files written
before versions existed are adopted as version 1. Later changes stay additive (new tables
or columns with defaults), each with a version of its own in :data:`STEPS`, applied by
:func:`upgrade` when a frontier is opened for writing.
"""

from __future__ import annotations

import sqlite3

from indexer.crawl.datadir import StateKind
from indexer.crawl.frontier.history import SCHEMA as HISTORY
from indexer.crawl.frontier.progress import SCHEMA as PROGRESS

_SCHEMA = """
CREATE TABLE IF NOT EXISTS urls (
    url TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_fetch REAL NOT NULL DEFAULT 0,
    run INTEGER NOT NULL,
    fetched_run INTEGER,
    reached_run INTEGER,
    etag TEXT,
    last_modified TEXT,
    content_hash TEXT,
    outcome TEXT,
    reason TEXT,
    updated REAL
);
CREATE INDEX IF NOT EXISTS urls_claim ON urls (host, state, depth, next_fetch);
CREATE INDEX IF NOT EXISTS urls_due ON urls (host, state, run, next_fetch);
CREATE INDEX IF NOT EXISTS urls_state ON urls (state, host);
CREATE INDEX IF NOT EXISTS urls_hash ON urls (content_hash);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    finished REAL
);
"""

#: Indexes added after version 1 (additive: created when an older file is opened).
#: ``urls_due`` makes a host's earliest due time in a run one index lookup (``next_due``);
#: ``urls_claim`` serves the claim (the shallowest due URL of a host).
LATER_INDEXES = "CREATE INDEX IF NOT EXISTS urls_due ON urls (host, state, run, next_fetch)"
#: The hosts with a URL queued in run ``:run``, in order: a skip scan of ``urls_state``
#: (``state, host``; the PostgreSQL schema has it too), one index lookup per host rather
#: than a read of every queued URL; rows an older (killed) run left queued are read past
#: one by one (the index has no ``run``), a cost only while such rows exist.
HOSTS_QUEUED = (
    "WITH RECURSIVE h(host) AS (SELECT MIN(host) FROM urls WHERE state='queued' AND run=:run "
    "UNION ALL SELECT (SELECT MIN(host) FROM urls WHERE state='queued' AND run=:run AND "
    "host > h.host) FROM h WHERE h.host IS NOT NULL) SELECT host FROM h"
)

#: Version 2: tombstones of ``indexer delete`` (:mod:`indexer.crawl.frontier.tombstones`).
_TOMBSTONES = """
CREATE TABLE IF NOT EXISTS tombstones (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    deleted REAL NOT NULL,
    PRIMARY KEY (kind, key)
);
"""

#: Version 3: each URL's last outcomes and each run's progress, for the admin views
#: (:mod:`indexer.crawl.frontier.history`, :mod:`indexer.crawl.frontier.progress`).
_ADMIN = HISTORY + PROGRESS

#: ``{version: SQL}``: the additive step that brings a frontier to that version. Each step
#: is idempotent (``IF NOT EXISTS``), so a file adopted or created at the current version
#: runs it harmlessly.
STEPS: dict[int, str] = {2: _TOMBSTONES, 3: _ADMIN}

#: The frontier's state file (version 1: the schema above, as first released; then
#: :data:`STEPS`).
FRONTIER = StateKind(
    name="frontier.sqlite3",
    version=max(STEPS),
    tables={
        "urls": ("url", "host", "depth", "state", "attempts", "next_fetch", "run", "outcome"),
        "meta": ("key", "value"),
        "runs": ("id", "started", "finished"),
    },
    schema=_SCHEMA,
    remedy="move it away and crawl anew (or restore a backup of the data directory)",
)

#: The way out named when a command needs a frontier and there is none.
NO_CRAWL = "no crawl state here: run `indexer crawl SEED_URL` first (or give --data-dir)"


def upgrade(db: sqlite3.Connection) -> None:
    """Apply every step of :data:`STEPS` and stamp the file with :data:`FRONTIER`'s version
    (a writable connection to a checked frontier, never one of a newer version)."""
    for version in sorted(STEPS):
        db.executescript(STEPS[version])
    if int(db.execute("PRAGMA user_version").fetchone()[0]) < FRONTIER.version:
        db.execute(f"PRAGMA user_version={FRONTIER.version}")
