"""What a recrawl remembers beyond the URL states: links, hashes, stored metadata.

A mixin of :class:`indexer.crawl.frontier.Frontier` (same SQLite database), added without
changing its first schema: a table ``outlinks`` (the links of each page's last full fetch,
followed again when it answers 304) and three columns of ``urls`` (``ALTER TABLE`` on older
frontiers):

* ``run_hash``, ``hash_run``: the main-content hash the URL answered with and the run it
  did so in (site-wide duplicate detection counts them per host and run,
  :mod:`indexer.pipeline.sitewide`);
* ``prev_hash``: the indexed hash before its last change (restored after a site-wide
  duplicate replaced it);
* ``resend``: the document must be fetched in full and sent again next run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator

from indexer.crawl.frontier.sql import Connection
from indexer.crawl.frontier.transaction import Transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outlinks (
    url TEXT PRIMARY KEY,
    links TEXT NOT NULL
);
"""

#: Columns added after the first schema (``ALTER TABLE`` on older frontiers): the hash seen
#: in the current run, the hash before the last change, and "send again in full".
_ADDED_COLUMNS = (
    ("run_hash", "TEXT"),
    ("hash_run", "INTEGER"),
    ("prev_hash", "TEXT"),
    ("resend", "INTEGER NOT NULL DEFAULT 0"),
)


class RecrawlRecords:
    """Methods over the frontier's database (``_db``) for the current run (``run``)."""

    _db: Connection
    run: int

    def add_recrawl_schema(self) -> None:
        """Create the tables and columns below when missing (additive: older frontiers
        keep working)."""
        self._db.executescript(_SCHEMA)
        have = {row[1] for row in self._db.execute("PRAGMA table_info(urls)")}
        for name, kind in _ADDED_COLUMNS:
            if name not in have:
                self._db.execute(f"ALTER TABLE urls ADD COLUMN {name} {kind}")
        self._db.execute("CREATE INDEX IF NOT EXISTS urls_run_hash ON urls (host, run_hash)")

    def same_content(self, digest: str, host: str, url: str) -> str | None:
        """Another URL of ``host`` reached in this run with main-content hash ``digest``."""
        row = self._db.execute(
            "SELECT url FROM urls WHERE content_hash=? AND host=? AND reached_run=? "
            "AND state='done' AND url != ? LIMIT 1",
            (digest, host, self.run, url),
        ).fetchone()
        return None if row is None else str(row[0])

    def reached_now(self, url: str) -> bool:
        """Whether ``url`` was already reached (indexed, unchanged, …) in the current run."""
        row = self._db.execute(
            "SELECT 1 FROM urls WHERE url=? AND reached_run=? AND state='done'", (url, self.run)
        ).fetchone()
        return row is not None

    def finish_reached(
        self, url: str, outcome: str, reason: str, fields: tuple[str | None, str | None, str | None]
    ) -> None:
        """End ``url`` as reached in this run; ``fields`` are ``(etag, last_modified,
        content_hash)``, each stored when given. A new hash keeps the one it replaces (see
        :meth:`restore_previous`) and ends a pending ``resend``."""
        etag, last_modified, content_hash = fields
        self._db.execute(
            "UPDATE urls SET state='done', outcome=:outcome, reason=:reason, reached_run=:run, "
            "prev_hash=CASE WHEN CAST(:hash AS TEXT) IS NULL OR content_hash = :hash "
            "THEN prev_hash ELSE content_hash END, "
            "resend=CASE WHEN CAST(:hash AS TEXT) IS NULL THEN resend ELSE 0 END, "
            "etag=COALESCE(:etag, etag), last_modified=COALESCE(:lm, last_modified), "
            "content_hash=COALESCE(:hash, content_hash), updated=:now WHERE url=:url",
            {"outcome": outcome, "reason": reason, "run": self.run, "hash": content_hash}
            | {"etag": etag, "lm": last_modified, "now": time.time(), "url": url},
        )

    def forget_outlinks(self, urls: Iterable[str] = (), host: str | None = None) -> None:
        """Drop the stored outlinks of ``urls``, or of every URL of ``host``."""
        if host is not None:
            sql = "DELETE FROM outlinks WHERE url IN (SELECT url FROM urls WHERE host=?)"
            self._db.execute(sql, (host,))
        self._db.executemany("DELETE FROM outlinks WHERE url=?", [(u,) for u in urls])

    def note_hash(self, url: str, digest: str) -> int:
        """Record the main-content hash ``url`` answered with in this run; returns how many
        URLs of its host answered with that hash in this run (``url`` included)."""
        self._db.execute(
            "UPDATE urls SET run_hash=?, hash_run=? WHERE url=?", (digest, self.run, url)
        )
        row = self._db.execute(
            "SELECT COUNT(*) FROM urls WHERE host=(SELECT host FROM urls WHERE url=?) "
            "AND run_hash=? AND hash_run=?",
            (url, digest, self.run),
        ).fetchone()
        return int(row[0])

    def rejudge(self, host: str, digest: str, outcome: str, reason: str) -> dict[str, str]:
        """Give every URL of ``host`` that answered ``digest`` in this run and is already
        done the outcome ``outcome``; returns ``{url: outcome it had}``."""
        rows = self._db.execute(
            "SELECT url, outcome FROM urls WHERE host=? AND run_hash=? AND hash_run=? "
            "AND state='done'",
            (host, digest, self.run),
        ).fetchall()
        self._db.execute(
            "UPDATE urls SET outcome=?, reason=? WHERE host=? AND run_hash=? AND hash_run=? "
            "AND state='done'",
            (outcome, reason, host, digest, self.run),
        )
        return {str(url): str(old) for url, old in rows}

    def restore_previous(self, url: str) -> str | None:
        """Put back the content hash ``url`` had before this run's change, drop its
        validators and mark it to be fetched in full and sent again (``resend``).

        Returns the restored hash, or None when the URL had no indexed document before.
        """
        row = self._db.execute(
            "UPDATE urls SET content_hash=prev_hash, etag=NULL, last_modified=NULL, resend=1 "
            "WHERE url=? RETURNING content_hash",
            (url,),
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def save_outlinks(self, url: str, links: list[str]) -> None:
        """Store the links a page answered with (followed again when it answers 304)."""
        self._db.execute(
            "INSERT INTO outlinks (url, links) VALUES (?, ?) "
            "ON CONFLICT (url) DO UPDATE SET links=excluded.links",
            (url, json.dumps(links, ensure_ascii=False)),
        )

    def stored_outlinks(self, url: str) -> list[str]:
        """The links stored for ``url`` by its last full fetch, or ``[]``."""
        row = self._db.execute("SELECT links FROM outlinks WHERE url=?", (url,)).fetchone()
        return list(json.loads(row[0])) if row else []

    def outcomes_in_run(self, host: str) -> dict[str, str]:
        """``{url: outcome}`` of the URLs of ``host`` that ended in the current run."""
        rows = self._db.execute(
            "SELECT url, outcome FROM urls WHERE host=? AND run=? AND state='done' "
            "AND outcome IS NOT NULL",
            (host, self.run),
        )
        return {str(u): str(o) for u, o in rows}

    def start_run_for(self, urls: Iterable[str]) -> int:
        """Begin a new, unfinished run in which only ``urls`` are queued; return its number.

        The other URLs keep their state and outcome; a crawl with ``crawl.resume`` then
        continues this run (the re-send path of ``reindex --repair``).
        """
        self.run = self._new_run()
        with Transaction(self._db):
            self._db.executemany(
                "UPDATE urls SET state='queued', attempts=0, next_fetch=0, run=? WHERE url=?",
                ((self.run, url) for url in urls),
            )
        return self.run

    def _new_run(self) -> int:
        """Insert a run record (started now); its number."""
        row = self._db.execute(
            "INSERT INTO runs (started) VALUES (?) RETURNING id", (time.time(),)
        ).fetchone()
        return int(row[0])

    def indexed_documents(self) -> Iterator[tuple[str, str]]:
        """``(url, content_hash)`` of every URL reached with a stored main-content hash."""
        yield from self._db.execute(
            "SELECT url, content_hash FROM urls WHERE reached_run IS NOT NULL "
            "AND content_hash IS NOT NULL ORDER BY url"
        )
