"""A read-only view of a frontier for ``indexer report``: no lock, so it works during a crawl.

It reads the frontier's SQLite file (``crawl.data_dir``/``frontier.sqlite3``, written by
:class:`indexer.crawl.frontier.Frontier`) in read-only mode.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from indexer.crawl.extract_state import ExtractState


class FrontierView:
    """Read-only view of a frontier for reports; needs no lock, so it works during a crawl.

    Args:
        data_dir: the crawl's data directory.

    Raises:
        FileNotFoundError: no frontier in ``data_dir``.
    """

    def __init__(self, data_dir: Path) -> None:
        path = data_dir / "frontier.sqlite3"
        if not path.is_file():
            raise FileNotFoundError(f"no crawl state in {data_dir}")
        self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.extract_state = ExtractState(self._db, read_only=True)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> FrontierView:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def counts(self) -> Iterator[tuple[str, str, int]]:
        """``(host, outcome, count)`` ordered by host then outcome; URLs without an outcome
        yet count as ``queued`` (or ``fetching``)."""
        yield from self._db.execute(
            "SELECT host, CASE WHEN state='done' THEN outcome ELSE state END AS o, COUNT(*) "
            "FROM urls GROUP BY host, o ORDER BY host, o"
        )

    def urls(self, outcome: str | None = None) -> Iterator[tuple[str, str, str]]:
        """``(url, outcome, reason)`` by URL, optionally of one outcome only."""
        sql = (
            "SELECT url, CASE WHEN state='done' THEN outcome ELSE state END AS o, "
            "COALESCE(reason, '') FROM urls"
        )
        if outcome is None:
            yield from self._db.execute(sql + " ORDER BY url")
        else:
            yield from self._db.execute(sql + " WHERE o=? ORDER BY url", (outcome,))
