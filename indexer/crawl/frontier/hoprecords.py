"""What the frontier records of redirect hops followed inline (issue #20: no page fetched
twice in a run).

A visit of ``/r`` that follows ``/r`` → ``/m`` → ``/a`` inline (:mod:`indexer.crawl.hops`:
targets the frontier did not know yet) requested ``/m`` and ``/a`` under ``/r``'s claim.
:meth:`HopRecords.record_hops` ends ``/m`` ``redirected`` in this run (a row inserted, or a
copy queued meanwhile settled), so a link to it later is not fetched again;
:meth:`HopRecords.record_reached` ends ``/a`` ``indexed`` with the document's hash and
validators, so the next run asks ``/a`` itself with a conditional GET. A hop to a URL the
frontier knows (:meth:`HopRecords.known`) is not followed: the URL is left to its own visit.
A mixin of :class:`indexer.crawl.frontier.Frontier` (both backends: the same SQL).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from indexer.crawl.frontier.recrawl import RecrawlRecords
from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.tombstones import Tombstones

#: ``(url, host, depth, reason)`` of an intermediate hop.
Hop = tuple[str, str, int, str]
#: A document's ``(etag, last_modified, content_hash)``, each None when unknown.
DocFields = tuple[str | None, str | None, str | None]

_SETTLE = (
    "INSERT INTO urls (url, host, depth, run, state, outcome, reason, fetched_run, updated) "
    "VALUES (?, ?, ?, ?, 'done', ?, ?, ?, ?) ON CONFLICT(url) DO UPDATE SET state='done', "
    "outcome=excluded.outcome, reason=excluded.reason, run=excluded.run, "
    "fetched_run=excluded.fetched_run, updated=excluded.updated "
    "WHERE urls.run < excluded.run OR urls.state = 'queued'"
)


class HopRecords(RecrawlRecords):
    """Methods over the frontier's database (``_db``) for the current run (``run``)."""

    _db: Connection
    run: int
    tombstones: Tombstones

    def known(self, url: str) -> bool:
        """Whether the frontier has ``url`` at all (queued, claimed or ended, in any run)."""
        return self._db.execute("SELECT 1 FROM urls WHERE url=?", (url,)).fetchone() is not None

    def buried(self, url: str) -> bool:
        """Whether ``indexer delete`` buried ``url`` (or its host): it is not fetched."""
        return self.tombstones.buries(url)

    def record_hops(self, hops: Iterable[Hop], outcome: str) -> list[bool]:
        """End each intermediate hop URL with ``outcome`` (``redirected``) in this run: a new
        row, an older run's, or a copy queued in this one (one claimed meanwhile is its
        visit's to end); a URL buried by ``indexer delete`` is left out. One answer per
        hop: whether it was ended here."""
        now, ended = time.time(), []
        for url, host, depth, reason in hops:
            if self.tombstones.buries(url):
                ended.append(False)
                continue
            params = (url, host, depth, self.run, outcome, reason, self.run, now)
            ended.append(self._db.execute(_SETTLE, params).rowcount > 0)
        return ended

    def record_reached(
        self, url: str, host: str, depth: int, source: str, fields: DocFields
    ) -> bool:
        """Record ``url`` as indexed in this run, reached by a redirect from ``source``, with
        the document's ``(etag, last_modified, content_hash)``; the main-content hash the
        site-wide check noted for ``source`` this run moves to ``url``, so that a later
        rejudge of that hash (:mod:`indexer.pipeline.sitewide`) finds the document.

        A copy of it still queued in this run is settled too, so it is not fetched again; a
        copy in flight finds itself reached and sends nothing.
        Returns False when the URL had already ended in this run, or was buried by ``indexer
        delete`` (nothing changed).
        """
        if self.tombstones.buries(url):
            return False
        reason = f"reached by redirect from {source}"
        cur = self._db.execute(  # the row's outcome in one write (the history trigger's entry)
            "INSERT INTO urls (url, host, depth, run, state, outcome, reason, reached_run, "
            "fetched_run, updated) VALUES (?, ?, ?, ?, 'done', 'indexed', ?, ?, ?, ?) "
            "ON CONFLICT(url) DO UPDATE SET state='done', outcome='indexed', "
            "reason=excluded.reason, reached_run=excluded.run, run=excluded.run, "
            "updated=excluded.updated "
            "WHERE urls.run < excluded.run OR urls.state IN ('queued', 'fetching')",
            (url, host, depth, self.run, reason, self.run, self.run, time.time()),
        )
        if cur.rowcount == 0:
            return False
        self.finish_reached(url, "indexed", reason, fields)  # the document's hash, validators
        self._db.execute(  # the hash moves: NULL on the source, the document's on url
            "UPDATE urls SET run_hash=CASE WHEN url=? THEN ? END, hash_run=? WHERE url IN (?, ?)",
            (url, fields[2], self.run, url, source),
        )
        return True
