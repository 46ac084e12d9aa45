"""The processes of one run, as the views show them: who crawls it, who is alive, who ended
how, and what to run for one that died (issue #20).

On the shared PostgreSQL frontier every crawl process of a run has a row of its own
(:mod:`indexer.crawl.frontier.postgres.members`: its progress, its end); the SQLite frontier
has one process a run and no such rows (``[]``). A :class:`Member` is one such row with its
liveness read from the process's heartbeat (its ``crawl_processes`` row, renewed with its
host leases) and, on the same machine, from ``/proc`` (:mod:`indexer.crawl.owner`).
:func:`add_up` makes the run's progress from its members' (counts summed, the newest
``queued``), :func:`drain_command` the command that finishes a dead process's part: README's
multi-machine rule, ``indexer crawl --frontier URL --join --data-dir DIR`` on its machine
drains its outbox and lets the run close.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from indexer.crawl.frontier.progress import Progress
from indexer.crawl.owner import row_gone

#: A member's states: it still crawls, it ended (its phase and exit code written), or it is
#: gone without ending (killed with -9, crashed, its machine lost).
CRAWLING, ENDED, GONE = "crawling", "ended", "gone"
#: The phase of a member that stopped because the shared frontier went away (exit 2): it
#: could not write its end (PostgreSQL was gone), so the next process on its data directory
#: writes it for it (:mod:`indexer.crawl.frontier.postgres.cutoff`), continuing its part.
CUT_OFF = "frontier-lost"
#: The ``--summary-json`` key of a process that stopped because the frontier went away (the
#: ``--processes`` parent reads it: such a child's siblings find out themselves).
LOST_KEY = "frontier_lost"


@dataclass(frozen=True, slots=True)
class Member:
    """One process of a run.

    Attributes:
        owner: its lease owner id (``host:pid:random``, :func:`.postgres.leases.owner_id`).
        outbox: its data directory's outbox, ``machine:/absolute/dir``.
        started: when it started or joined the run (epoch seconds).
        progress: its latest progress (None before its first write).
        phase: the phase it ended in (None while it has not ended).
        exit_code: its exit code (None while it has not ended).
        ended: when it ended (epoch seconds; None while it has not).
        alive: its heartbeat is live and its process is not known to be gone.
        lost: gone, and the note a process cut off from the frontier leaves is in its data
            directory (seen only on its own machine): it stopped when PostgreSQL went away
            and waits for its ``--resume``.
    """

    owner: str
    outbox: str
    started: float
    progress: Progress | None
    phase: str | None
    exit_code: int | None
    ended: float | None
    alive: bool
    lost: bool = False

    @property
    def state(self) -> str:
        """:data:`CRAWLING`, :data:`ENDED` or :data:`GONE`."""
        if self.ended is not None:
            return ENDED
        return CRAWLING if self.alive else GONE

    @property
    def continued(self) -> bool:
        """It stopped when the shared frontier went away and a later process of the run on
        its data directory (``--resume``, or ``--join --data-dir`` its dir) took its part on:
        it did not die, and nothing is left to drain of it."""
        return self.state == ENDED and self.phase == CUT_OFF

    @property
    def status(self) -> str:
        """How it stands, in the words every view uses: ``ended finished (exit 0)``, ``stopped
        when PostgreSQL went away (exit 2); continued by …``, ``gone without ending (…)``,
        ``crawling``."""
        if self.continued:
            return (
                f"stopped when PostgreSQL went away (exit {self.exit_code}); continued by "
                "the resume on its data directory"
            )
        if self.state == ENDED:
            return f"ended {self.phase or ''} (exit {self.exit_code})".replace("  ", " ")
        if self.state == GONE and self.lost:
            return (
                "stopped when PostgreSQL went away (exit 2), not continued yet: its command "
                "again on its data directory continues it (a crawl's with --resume)"
            )
        if self.state == GONE:
            return "gone without ending (killed, crashed or cut off from the frontier)"
        return "crawling"

    @property
    def machine(self) -> str:
        """The machine it ran on (the outbox key's first part)."""
        return split_outbox(self.outbox)[0]

    @property
    def data_dir(self) -> str:
        """Its data directory (the outbox key's second part)."""
        return split_outbox(self.outbox)[1]

    @property
    def pid(self) -> int | None:
        """Its process id, from its owner id (None when that does not read as one)."""
        parts = self.owner.split(":")
        return int(parts[-2]) if len(parts) >= 3 and parts[-2].isdigit() else None


def split_outbox(key: str) -> tuple[str, str]:
    """``(machine, data directory)`` of an outbox key (``machine:dir``,
    :func:`indexer.crawl.frontier.postgres.runclose.outbox_key`)."""
    machine, _, folder = key.partition(":")
    return machine, folder


#: What :func:`drain_command` needs beside it: a ``--join`` takes the running crawl's scope,
#: politeness and limits it is not given (:func:`indexer.pipeline.join.adopt`), not where the
#: crawl sends its documents.
DRAIN_NOTE = (
    "add where the crawl sends its documents, as it was started: --solr, --core or "
    "--collection, --out, or its --config; scope, politeness and limits are the running crawl's"
)


def drain_command(data_dir: str, kind: str = "crawl") -> str:
    """What finishes the part of the run of a process that used ``data_dir`` (one gone
    without ending, or one that ended with changes left): run on that machine, it joins
    the run, drains the directory's outbox (the changes left for Solr) and, when nothing
    else keeps the run open, closes the run (README, "A shared frontier in PostgreSQL").
    A ``reindex`` run's (``kind``): the job run again there (reindex has no ``--join``)."""
    if kind == "reindex":
        return f"indexer reindex --frontier URL --data-dir {data_dir}"
    return f"indexer crawl --frontier URL --join --data-dir {data_dir}"


def describe(member: Member) -> str:
    """One line: ``pid 4242 on m1 (/var/lib/indexer/p1): ended finished (exit 0)``, or
    ``… gone without ending (…)``, or ``… crawling``."""
    return f"{who(member)}: {member.status}"


def who(member: Member) -> str:
    """``pid 4242 on m1 (/var/lib/indexer/p1)``."""
    return f"pid {member.pid} on {member.machine} ({member.data_dir})"


def tally(members: Sequence[Member]) -> str:
    """``3 processes: 1 crawling, 1 ended, 1 gone`` ('' for no members)."""
    if not members:
        return ""
    counts = Counter(m.state for m in members)
    parts = [f"{counts[s]} {s}" for s in (CRAWLING, ENDED, GONE) if counts[s]]
    noun = "process" if len(members) == 1 else "processes"
    return f"{len(members)} {noun}: " + ", ".join(parts)


def to_drain(members: Sequence[Member]) -> list[Member]:
    """The processes whose outbox may keep an open run open: those gone without ending and
    those that ended ``failed`` (Solr down for them: changes left in the outbox); never one
    :attr:`~Member.continued`, nor one whose data directory a later process of the run took
    on (a ``--processes`` replacement, a ``--join --data-dir`` of it: it drained that
    outbox; ``members`` in start order)."""
    found = []
    for i, m in enumerate(members):
        taken_on = any(later.outbox == m.outbox for later in members[i + 1 :])
        if not taken_on and (m.state == GONE or (m.state == ENDED and m.phase == "failed")):
            found.append(m)
    return found


def died(members: Sequence[Member]) -> list[Member]:
    """The processes of a run that died: gone without ending (killed with -9, crashed, cut
    off on another machine). One that stopped when PostgreSQL went away and was continued
    on its data directory (:attr:`Member.continued`) ended (exit 2) and did not die; nor
    did one whose note says so (:attr:`Member.lost`: it stopped as told, its hosts go to the
    others at lease expiry, and an outbox of it would keep the run open until drained)."""
    return [m for m in members if m.state == GONE and not m.lost]


def continued(members: Sequence[Member]) -> list[Member]:
    """The processes of a run cut off from the frontier whose part was continued
    (:attr:`Member.continued`)."""
    return [m for m in members if m.continued]


def report_lines(members: Sequence[Member], run_open: bool) -> list[str]:
    """``indexer report``'s lines on a run's processes: the :func:`tally`, then one line each
    (:func:`describe`); while the run is open, the line of one :func:`to_drain` names the
    command on its machine that finishes its part, and a last line what to add to it
    (:data:`DRAIN_NOTE`) ([] without members)."""
    if not members:
        return []
    lines = [tally(members)]
    drain = to_drain(members) if run_open else []
    for m in members:
        line = f"  {describe(m)}"
        if m in drain:
            line += f": `{drain_command(m.data_dir)}` on {m.machine} drains its outbox"
        lines.append(line)
    return lines + ([f"  (to that command {DRAIN_NOTE})"] if drain else [])


def gone_run(members: Sequence[Member]) -> bool:
    """Whether a run's processes all stopped, one of them without ending (none crawls it,
    one is gone)."""
    states = {m.state for m in members}
    return CRAWLING not in states and GONE in states


def run_gone(is_open: bool, members: Sequence[Member], progress: Progress | None) -> bool:
    """Whether an open run (``is_open``) stopped without closing: on the shared frontier
    (``members``) none of its processes crawls it and one is gone (:func:`gone_run`); with
    one process, the process that wrote its ``progress`` is gone
    (:func:`indexer.crawl.owner.row_gone`: killed with -9, out of memory)."""
    if not is_open:
        return False
    if members:
        return gone_run(members)
    return progress is not None and row_gone(progress.owner) is True


def add_up(run: int, members: Sequence[Member]) -> Progress | None:
    """The run's progress from its members' (None when none wrote any): ``fetched``,
    ``indexed``, ``outbox`` and the outcomes summed over every member, the dead and ended
    ones included (their part of the run happened); ``rate`` summed over those still
    crawling; ``queued`` (the shared frontier's, not a process's) and the kind from the
    newest write; ``waiting`` the union; no owner (many processes write it)."""
    written = [m.progress for m in members if m.progress is not None]
    if not written:
        return None
    newest = max(written, key=lambda p: p.updated)
    outcomes: Counter[str] = Counter()
    for p in written:
        outcomes.update(p.outcomes)
    live = [m.progress for m in members if m.progress is not None and m.state == CRAWLING]
    return Progress(
        run,
        newest.kind,
        newest.updated,
        sum(p.fetched for p in written),
        sum(p.indexed for p in written),
        newest.queued,
        sum(p.outbox for p in written),
        round(sum(p.rate for p in live), 2),
        tuple(sorted({h for p in written for h in p.waiting})),
        dict(sorted(outcomes.items())),
        (),
    )
