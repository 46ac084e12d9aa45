"""How a ``--processes N`` launch ends (:mod:`indexer.pipeline.processes`): its exit code and
its summary, the children's ``--summary-json`` added up (:mod:`indexer.pipeline.summaries`)
with one entry per process."""

from __future__ import annotations

import contextlib
import json
import signal
from typing import TYPE_CHECKING, Any

from indexer.crawl.frontier.members import split_outbox
from indexer.errors import StateError
from indexer.outcomes import Outcome
from indexer.pipeline.launchstate import RunCount, open_outboxes, run_count
from indexer.pipeline.summaries import add_up
from indexer.report import class_totals

if TYPE_CHECKING:
    from indexer.pipeline.processes import Child, Launch
    from indexer.pipeline.processplan import Plan


def exit_code(launch: Launch) -> int:
    """The launch's exit code, by the first rule that holds: 130 when stopped by a signal;
    the first failing child's code when a failure stopped the others (their deaths by our
    SIGTERM are ours); 1 when a child died by a signal (or ended without a code); else the
    first failing child's code, else the worst (0 when every child ended 0)."""
    codes = [1 if c.code is None else c.code for c in launch.ended]
    if launch.signals:
        return 130
    failures = [code for code in codes if code > 0 and code != 130]
    if launch.failed and failures:
        return failures[0]
    if any(code < 0 for code in codes):
        return 1  # a process died: said in the summary, even when its work was taken over
    return failures[0] if failures else max(codes, default=1)


def summary(launch: Launch, seconds: float) -> dict[str, Any]:
    """The children's summaries added up, with one entry per process in ``processes``."""
    stopped = bool(launch.signals) or launch.failed  # the stop passed on was ours
    entries = [_entry(launch.plan, c, stopped) for c in sorted(launch.ended, key=_order)]
    total = add_up([e["summary"] for e in entries if e["summary"] is not None], seconds)
    total["processes"] = entries
    total["died"] = sum(1 for e in entries if e["signal"])
    total["open_outboxes"] = []
    total["counted"] = "processes"
    total["counted_note"] = "the frontier could not be read at the end"
    with contextlib.suppress(StateError):  # the frontier is gone: the children said so
        found = open_outboxes(launch.plan.url, launch.plan.stall_seconds)
        dirs = {launch.plan.dir_of(c.index) for c in launch.ended}
        mine = {str(d.resolve()) for d in dirs}
        # only this launch's: a refused launch is not to name another command's directories
        total["open_outboxes"] = [key for key in found if split_outbox(key)[1] in mine]
        count_from_frontier(total, run_count(launch.plan.url, dirs, launch.began))
    return total


def count_from_frontier(total: dict[str, Any], count: RunCount | None) -> None:
    """Put the frontier's counts of the run into ``total`` (the processes' added up): the
    outcomes, ``indexed`` and the class totals count each URL once, by its last outcome,
    whichever process ended it, also one that died or failed without a summary, or that
    a stalled process ended a second time after its hosts were taken over; ``fetched`` is
    the processes' summaries or, when more, their last progress rows (one wrote no summary);
    ``acknowledged`` and the reasons stay the processes' own. Adds ``run``, ``left`` (URLs
    of the run not done), ``run_closed`` and ``others_live``; ``counted`` becomes
    ``frontier``. The counts stay the processes' (with ``counted_note`` saying why) when
    ``count`` is None (the frontier could not be read, or no process joined a run) or the
    run was shared with another launch (``--join``: whose URL is whose is not stored)."""
    if count is None:
        total["counted_note"] = "no process of this launch joined a run"
        return
    total.update(run=count.run, left=count.left, run_closed=count.closed)
    total["others_live"] = count.others_live
    if count.shared:  # another launch's processes ended URLs of the run too
        total["counted_note"] = "another launch crawled the run too"
        return
    total.update(class_totals(count.outcomes))
    total["outcomes"] = dict(count.outcomes)
    total["indexed"] = count.outcomes.get(Outcome.INDEXED.value, 0)
    total["pending"] = count.left
    total["fetched"] = max(total["fetched"], count.fetched)  # a process without a summary
    total["counted"] = "frontier"
    total.pop("counted_note", None)


def _order(child: Child) -> tuple[int, bool]:
    return child.index, child.replaces is not None


def _entry(plan: Plan, child: Child, stopped: bool) -> dict[str, Any]:
    """One child's entry: index, pid, exit code, data dir, out file, the signal that killed
    it (not the stop passed on while it was starting: ``stopped``), the pid it replaces, its
    summary (read and removed; None when it wrote none)."""
    code = 1 if child.code is None else child.code
    ours = stopped and -code in (signal.SIGTERM, signal.SIGINT)
    path = plan.summary_of(child.index)
    one = None
    if code >= 0 and path.exists():
        one = json.loads(path.read_text("utf-8"))
        path.unlink()
    out = plan.out_of(child.index)
    return {
        "index": child.index,
        "pid": child.proc.pid,
        "exit_code": code,
        "data_dir": str(plan.dir_of(child.index)),
        "out": None if out is None else str(out),
        "signal": -code if code < 0 and not ours else None,
        "replaces": child.replaces,
        "summary": one,
    }
