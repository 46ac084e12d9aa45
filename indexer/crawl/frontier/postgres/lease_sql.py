"""The SQL statements of the host leases (:mod:`.leases`) on ``host_leases``, ``urls`` and
``crawl_processes``; named parameters as :class:`~.connection.PgConnection` takes them."""

from __future__ import annotations

TAKE = (
    "WITH free AS (SELECT host, owner FROM host_leases WHERE host=:host AND "
    "(owner IS NULL OR owner=:me OR expires_at < :now) FOR UPDATE SKIP LOCKED) "
    "UPDATE host_leases AS l SET owner=:me, expires_at=:exp FROM free WHERE l.host=free.host "
    "RETURNING l.next_allowed_at, free.owner, l.crawl_delay"
)
ENSURE = "INSERT INTO host_leases (host) VALUES (?) ON CONFLICT (host) DO NOTHING"
CRAWL_DELAY = (
    "UPDATE host_leases SET crawl_delay=:delay, "
    "next_allowed_at=GREATEST(next_allowed_at, :next) WHERE host=:host"
)
HOLD = (
    "UPDATE host_leases SET held_until=GREATEST(held_until, :until), "
    "next_allowed_at=GREATEST(next_allowed_at, :until) WHERE host=:host"
)
REQUEUE = "UPDATE urls SET state='queued' WHERE host=? AND state='fetching' AND run=?"
RENEW = "UPDATE host_leases SET expires_at=? WHERE owner=? RETURNING host"
OTHERS = "SELECT COUNT(*) FROM crawl_processes WHERE owner != ? AND expires_at >= ? AND run=?"
ANNOUNCE = (
    "INSERT INTO crawl_processes (owner, run, expires_at) VALUES (?, ?, ?) "
    "ON CONFLICT (owner) DO UPDATE SET run=excluded.run, expires_at=excluded.expires_at"
)
#: A lease given back: its next request a gap (the delay or the row's Crawl-delay) after
#: ``:last``, when the last request of it here started (``:delay``).
FREE = (
    "owner=NULL, next_allowed_at=GREATEST(next_allowed_at, CASE WHEN GREATEST(:delay, "
    "crawl_delay) > 0 THEN :last + GREATEST(:delay, crawl_delay) ELSE 0 END)"
)
ACTIVE_HOSTS = "SELECT COUNT(DISTINCT host) FROM urls WHERE state != 'done' AND run=?"
#: Held hosts with nothing queued in the run and nothing in flight here go back (the crawl
#: may have stopped asking for them while their last page was in flight).
RELEASE_DRAINED = (
    f"UPDATE host_leases SET {FREE} WHERE owner=:me AND NOT (host = ANY(CAST(:busy AS TEXT[]))) "
    "AND NOT EXISTS (SELECT 1 FROM urls WHERE urls.host=host_leases.host "
    "AND urls.state='queued' AND urls.run=:run) "
    "RETURNING host"
)
#: A URL of run ``:run`` in flight: claimed, not yet fetched. A page whose verdict waits
#: (held back by :mod:`indexer.pipeline.sitewide` until its holder's crawl ends) is
#: ``fetching`` too, but waiting for it, a crawl never ended.
IN_FLIGHT = "urls.state='fetching' AND (urls.hash_run IS NULL OR urls.hash_run != :run)"
FREED = (
    "SELECT l.host FROM host_leases AS l WHERE l.host = ANY(CAST(:hosts AS TEXT[])) "
    "AND (l.owner IS NULL OR l.expires_at < :now OR NOT EXISTS (SELECT 1 FROM urls "
    f"WHERE urls.host=l.host AND urls.run=:run AND (urls.state='queued' OR {IN_FLIGHT})))"
)
