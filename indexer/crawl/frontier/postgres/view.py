"""A read-only view of the PostgreSQL frontier for ``indexer report``: the SQLite
:class:`~indexer.crawl.frontier.view.FrontierView`'s queries on the shared database (works
while crawl processes write to it)."""

from __future__ import annotations

from indexer.crawl.frontier.browse import UrlBrowser
from indexer.crawl.frontier.extract_state import ExtractState
from indexer.crawl.frontier.history import OutcomeHistory
from indexer.crawl.frontier.members import Member
from indexer.crawl.frontier.postgres.connection import PgConnection
from indexer.crawl.frontier.postgres.members import PgProgressStore, RunMembers
from indexer.crawl.frontier.postgres.schema import NAMESPACE, NO_CRAWL, stored_version
from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.frontier.view import FrontierView
from indexer.errors import StateError
from indexer.settings_frontier import STALL_SECONDS


class PgFrontierView(FrontierView):
    """Read-only view of the frontier at ``url`` (``frontier.url``; ``stall_seconds``:
    ``frontier.stall_seconds``, :class:`PgConnection`).

    Raises:
        StateError: the database cannot be reached, holds no frontier, or a foreign or
            newer one (names the URL without its password).
    """

    def __init__(self, url: str, stall_seconds: float = STALL_SECONDS) -> None:
        self._db = db = PgConnection(url, NAMESPACE, stall_seconds)
        try:
            if stored_version(db) is None:
                raise StateError(db.label, f"missing: {NO_CRAWL}")
        except BaseException:
            db.close()
            raise
        self.extract_state = ExtractState(db, read_only=True)
        self.history = OutcomeHistory(db)
        self.run_members = RunMembers(db)
        self.progress = PgProgressStore(db, self.run_members)
        self.browse = UrlBrowser(db)

    def members(self, run: int) -> list[Member]:
        """The processes of ``run`` (a row each), in the order they started."""
        return self.run_members.of(run)

    def members_by_run(self) -> dict[int, list[Member]]:
        """``{run: its processes}`` of every run with member rows, in one query."""
        return self.run_members.by_run()

    def runs(self) -> list[RunRecord]:
        """Every run record, oldest first (phase, exit code, reason)."""
        rows = self._db.execute(
            "SELECT id, phase, exit_code, reason, finished IS NOT NULL FROM runs ORDER BY id"
        )
        return [RunRecord(int(i), p, e, r or "", bool(f)) for i, p, e, r, f in rows]
