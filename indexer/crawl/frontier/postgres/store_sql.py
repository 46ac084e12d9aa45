"""The SQL statements of :class:`~.store.PgFrontier` that differ from the SQLite frontier's
(named parameters as :class:`~.connection.PgConnection` takes them)."""

from __future__ import annotations

CLAIM = (
    "WITH c AS (UPDATE urls SET state='fetching', fetched_run=:run, updated=:now WHERE url = "
    "(SELECT url FROM urls WHERE host=:host AND state='queued' AND run=:run "
    "AND next_fetch<=:now ORDER BY depth LIMIT 1 FOR UPDATE SKIP LOCKED) "
    "RETURNING url, depth, attempts, etag, last_modified, content_hash, resend), "
    "l AS (UPDATE host_leases SET next_allowed_at=GREATEST(next_allowed_at, :next) "
    "WHERE host=:host AND owner=:me AND EXISTS (SELECT 1 FROM c)) SELECT * FROM c"
)
#: One statement for a page's outlinks, inserted in their order (claims of one depth follow
#: it, as in SQLite); URLs known in this run already are skipped without a lock (another
#: process may be adding them too).
ADD = (
    "INSERT INTO urls (url, host, depth, run) SELECT e.u, e.h, e.d, :run FROM unnest("
    "CAST(:urls AS TEXT[]), CAST(:hosts AS TEXT[]), CAST(:depths AS INTEGER[])) AS e(u, h, d) "
    "WHERE NOT EXISTS (SELECT 1 FROM urls WHERE urls.url = e.u AND urls.run >= :run) "
    "ON CONFLICT (url) DO UPDATE SET state='queued', attempts=0, next_fetch=0, "
    "run=excluded.run, depth=excluded.depth WHERE urls.run < excluded.run"
)
#: The hash noted and its count in one statement (the count reads the table as it was
#: before the update, so the URL itself is counted apart).
NOTE_HASH = (
    "WITH n AS (UPDATE urls SET run_hash=:digest, hash_run=:run WHERE url=:url RETURNING host) "
    "SELECT (SELECT COUNT(*) FROM n) + (SELECT COUNT(*) FROM urls WHERE host=(SELECT host "
    "FROM n) AND run_hash=:digest AND hash_run=:run AND url != :url)"
)
#: A resumed (or joined) run queues again only what no live lease holds.
REQUEUE_ORPHANS = (
    "UPDATE urls SET state='queued' WHERE state='fetching' AND host NOT IN "
    "(SELECT host FROM host_leases WHERE owner IS NOT NULL AND expires_at >= ?)"
)
