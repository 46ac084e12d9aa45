"""What the admin views read from the crawl state, the frontier of ``crawl.data_dir`` or the
shared PostgreSQL frontier of ``frontier.url`` (``frontier_url`` below, '' for SQLite).

Read through :class:`~indexer.crawl.frontier.view.FrontierView` (read-only, no lock;
:func:`~indexer.crawl.frontier.opening.open_view` chooses the backend), so a crawl or
reindex running in another process goes on undisturbed while a page shows its progress.
Each call opens and closes the view in a worker thread's turn of its own.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.frontier.browse import UrlFilter, UrlRow
from indexer.crawl.frontier.history import HistoryEntry
from indexer.crawl.frontier.members import (
    DRAIN_NOTE,
    Member,
    drain_command,
    run_gone,
    tally,
    to_drain,
)
from indexer.crawl.frontier.opening import open_view
from indexer.crawl.frontier.progress import INTERVAL, Progress
from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.frontier.view import FrontierView
from indexer.errors import StateError

#: A running run's progress older than this many write intervals reads as stale.
STALE_AFTER = 5 * INTERVAL
#: Runs shown on the dashboard, newest first.
RUNS_SHOWN = 20
DECISION_KEYS = ("action", "reason", "path", "text")
ENDED = frozenset({"finished", "interrupted", "failed", "refused"})


@dataclass(frozen=True)
class RunRow:
    """A run as the dashboard shows it: the stored record, its progress (on the shared
    frontier the sum of its processes'), if any, and its processes (a row each on the shared
    frontier, :mod:`indexer.crawl.frontier.members`; none on SQLite)."""

    record: RunRecord
    started: float | None
    ended: float | None
    progress: Progress | None
    members: list[Member] = field(default_factory=list)

    @property
    def tally(self) -> str:
        """``3 processes: 2 crawling, 1 gone`` ('' without process rows)."""
        return tally(self.members)

    @property
    def gone_members(self) -> list[tuple[Member, str, str]]:
        """While the run is open, the processes whose outbox may keep it open (gone without
        ending, or ended ``failed``: :func:`indexer.crawl.frontier.members.to_drain`), each
        as ``(member, command, note)``: the command that finishes its part
        (:func:`.members.drain_command`: for a reindex run the job run again) and what to add
        to it (:data:`.members.DRAIN_NOTE` for a crawl's ``--join``, '' for a reindex)."""
        if self.record.finished:
            return []
        kind = self.kind or "crawl"
        note = "" if kind == "reindex" else DRAIN_NOTE
        return [(m, drain_command(m.data_dir, kind), note) for m in to_drain(self.members)]

    @property
    def kind(self) -> str:
        """``crawl`` or ``reindex`` ('' for a run from before progress was stored)."""
        return self.progress.kind if self.progress else ""

    @property
    def running(self) -> bool:
        """The run has not ended (by its phase)."""
        return self.record.phase not in ENDED

    @property
    def gone(self) -> bool:
        """Not ended by its phase, but the process that wrote it is gone (killed with -9,
        out of memory): it stopped without closing (:mod:`indexer.crawl.owner`)."""
        return run_gone(self.running, self.members, self.progress)

    @property
    def live(self) -> bool:
        """Running, its process not gone, and its progress written within
        :data:`STALE_AFTER` seconds."""
        p = self.progress
        fresh = p is not None and time.time() - p.updated <= STALE_AFTER
        return self.running and fresh and not self.gone


@dataclass
class Overview:
    """The dashboard's crawl state: runs newest first and the latest reindex, or why none."""

    runs: list[RunRow] = field(default_factory=list)
    last_reindex: RunRow | None = None
    problem: str = ""


def overview(data_dir: Path | None, frontier_url: str = "") -> Overview:
    """The runs of ``data_dir``'s frontier, or of ``frontier_url``'s (:data:`RUNS_SHOWN`,
    newest first) and its latest reindex; a missing or broken frontier is said in
    ``problem``, never raised."""
    if data_dir is None and not frontier_url:
        return Overview(problem="no data directory (crawl.data_dir) configured")
    try:
        with _view(data_dir, frontier_url) as view:
            times = view.run_times()
            progress = view.progress.all()
            members = view.members_by_run()
            rows = [
                RunRow(r, *times.get(r.id, (None, None)), progress.get(r.id), members.get(r.id, []))
                for r in reversed(view.runs())
            ]
    except StateError as exc:
        return Overview(problem=str(exc))
    reindex = next((r for r in rows if r.kind == "reindex"), None)
    return Overview(rows[:RUNS_SHOWN], reindex)


@dataclass(frozen=True)
class UrlPage:
    """One page of the outcome table: its rows, the total, the filter's choices."""

    rows: list[UrlRow]
    total: int
    outcomes: list[str]
    hosts: list[str]


def url_page(
    data_dir: Path | None, flt: UrlFilter, offset: int, limit: int, frontier_url: str = ""
) -> UrlPage:
    """The URLs ``flt`` lets through, ``limit`` from ``offset``, with the total.

    Raises:
        StateError: no frontier in ``data_dir`` (or at ``frontier_url``), or a broken one.
    """
    with _view(data_dir, frontier_url) as view:
        outcomes, hosts = view.browse.choices()
        return UrlPage(
            list(view.browse.rows(flt, offset, limit)), view.browse.count(flt), outcomes, hosts
        )


def url_batch(
    data_dir: Path | None, flt: UrlFilter, after: str, limit: int, frontier_url: str = ""
) -> list[UrlRow]:
    """The next ``limit`` URLs ``flt`` lets through after ``after`` (the CSV download, in
    batches: a crawl running meanwhile may add or change rows between two batches).

    Raises:
        StateError: as :func:`url_page`.
    """
    with _view(data_dir, frontier_url) as view:
        return view.browse.rows_after(flt, after, limit)


@dataclass(frozen=True)
class DocState:
    """What the frontier knows of one URL: its outcome history and its explanation."""

    history: list[HistoryEntry]
    explanation: list[dict[str, str]]


def doc_state(data_dir: Path | None, url: str, frontier_url: str = "") -> DocState:
    """The outcome history (newest first) and the stored extraction explanation (one
    ``{"action", "reason", "path", "text"}`` per decision) of ``url``; empty when the
    frontier is missing or does not know it."""
    if data_dir is None and not frontier_url:
        return DocState([], [])
    try:
        with _view(data_dir, frontier_url) as view:
            history = view.history.of(url)
            lines = view.extract_state.explanation(url) or ""
    except StateError:
        return DocState([], [])
    decisions = []
    for line in lines.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            decisions.append({k: str(item.get(k, "")) for k in DECISION_KEYS})
    return DocState(history, decisions)


def _view(data_dir: Path | None, frontier_url: str) -> FrontierView:
    """The read-only view of the frontier at ``frontier_url``, else of ``data_dir``'s."""
    return open_view(data_dir or Path(), frontier_url)


def location(data_dir: Path | None, frontier_url: str) -> str:
    """Where the crawl state is read, as shown: the frontier's URL without its password,
    else the data directory ('' when neither is configured)."""
    if frontier_url:
        from indexer.crawl.frontier.postgres.connection import redact  # psycopg when asked

        return redact(frontier_url)
    return str(data_dir or "")
