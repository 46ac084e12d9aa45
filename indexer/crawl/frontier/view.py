"""A read-only view of a frontier for ``indexer report``: no lock, so it works during a crawl.

It reads the frontier's SQLite file (``crawl.data_dir``/``frontier.sqlite3``, written by
:class:`indexer.crawl.frontier.Frontier`) in read-only mode, checked by
:class:`~indexer.crawl.datadir.DataDir` like every state file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier.browse import UrlBrowser
from indexer.crawl.frontier.extract_state import ExtractState
from indexer.crawl.frontier.history import OutcomeHistory
from indexer.crawl.frontier.members import Member
from indexer.crawl.frontier.progress import ProgressStore
from indexer.crawl.frontier.runs import RunRecord, read_runs
from indexer.crawl.frontier.schema import FRONTIER, NO_CRAWL
from indexer.crawl.frontier.sql import Connection


class FrontierView:
    """Read-only view of a frontier for reports; needs no lock, so it works during a crawl.

    Args:
        data_dir: the crawl's data directory.

    Raises:
        StateError: no frontier in ``data_dir``, or a broken, foreign or newer one.
    """

    def __init__(self, data_dir: Path) -> None:
        self._db: Connection = DataDir(data_dir).open_read_only(FRONTIER, missing_hint=NO_CRAWL)
        self.extract_state = ExtractState(self._db, read_only=True)
        self.history = OutcomeHistory(self._db)
        self.progress = ProgressStore(self._db)
        self.browse = UrlBrowser(self._db)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> FrontierView:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def meta(self, key: str) -> str | None:
        """The value stored under ``key`` in the ``meta`` table, or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def counts(self) -> Iterator[tuple[str, str, int]]:
        """``(host, outcome, count)`` ordered by host then outcome; URLs without an outcome
        yet count as ``queued`` (or ``fetching``)."""
        yield from self._db.execute(
            "SELECT host, CASE WHEN state='done' THEN outcome ELSE state END AS o, COUNT(*) "
            "FROM urls GROUP BY host, o ORDER BY host, o"
        )

    def members_by_run(self) -> dict[int, list[Member]]:
        """``{run: its processes}`` for every run (one query; {} here, as :meth:`members`)."""
        return {}

    def runs(self) -> list[RunRecord]:
        """Every run record, oldest first (phase, exit code, reason)."""
        return read_runs(self._db)

    def members(self, run: int) -> list[Member]:
        """The processes of ``run`` with their state ([] here: one process a run; the shared
        frontier keeps a row each, :mod:`indexer.crawl.frontier.postgres.members`)."""
        return []

    def run_times(self) -> dict[int, tuple[float | None, float | None]]:
        """``{run: (started, finished)}`` in epoch seconds (finished: None while open)."""
        rows = self._db.execute("SELECT id, started, finished FROM runs")
        return {int(i): (s, f) for i, s, f in rows}

    def urls(self, outcome: str | None = None) -> Iterator[tuple[str, str, str]]:
        """``(url, outcome, reason)`` by URL, optionally of one outcome only."""
        o = "CASE WHEN state='done' THEN outcome ELSE state END"
        sql = f"SELECT url, {o}, COALESCE(reason, '') FROM urls"
        if outcome is None:
            yield from self._db.execute(sql + " ORDER BY url")
        else:
            yield from self._db.execute(sql + f" WHERE {o}=? ORDER BY url", (outcome,))
