"""One closing summary for the crawl processes of ``indexer crawl --processes N``: their
summaries (:meth:`indexer.report.RunStats.summary`, each process's ``--summary-json``) added
up, with a line per process (:mod:`indexer.pipeline.processes`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from indexer.crawl.frontier.members import DRAIN_NOTE, drain_command, split_outbox
from indexer.report import RunStats, format_summary

#: Counters that add up across processes.
SUMMED = (
    "fetched",
    "indexed",
    "acknowledged",
    "reached",
    "skipped",
    "failed",
    "pending",
    "pending_in_outbox",
    "removed_characters",
    "links_truncated",
)
#: A process's exit code for bad usage, configuration or state (``ExitCode.USAGE``).
USAGE_EXIT = 2
#: How a run's end ranks when the processes ended differently (the worst is the run's).
_RANK = {"finished": 0, "refused": 1, "interrupted": 2, "failed": 3}


def add_up(summaries: Iterable[Mapping[str, Any]], seconds: float) -> dict[str, Any]:
    """The processes' summaries as one, in :meth:`RunStats.summary`'s shape.

    Args:
        summaries: each process's summary (JSON as ``--summary-json`` writes it).
        seconds: the whole launch's wall time (s).

    Returns:
        counters and the ``outcomes``/``retries`` tables summed, ``reasons`` merged by
        outcome and reason, the worst end (failed > interrupted > refused > finished) as
        ``phase`` with its ``stopped_in`` and ``reason``.
    """
    total = RunStats().summary()
    outcomes: Counter[str] = Counter()
    retries: Counter[str] = Counter()
    reasons: Counter[tuple[str, str]] = Counter()
    worst: Mapping[str, Any] = total
    for one in summaries:
        for key in SUMMED:
            total[key] += int(one.get(key, 0))
        outcomes.update(one.get("outcomes", {}))
        retries.update(one.get("retries", {}))
        reasons.update({(r["outcome"], r["reason"]): r["count"] for r in one.get("reasons", [])})
        total["links_truncated_pages"] += one.get("links_truncated_pages", [])
        if _RANK.get(one.get("phase") or "", 0) > _RANK.get(worst.get("phase") or "", 0):
            worst = one
    total.update({k: worst.get(k) for k in ("phase", "stopped_in", "reason")})
    total["phase"] = total["phase"] or "finished"
    total["outcomes"] = dict(sorted(outcomes.items()))
    total["retries"] = dict(sorted(retries.items()))
    ranked = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    total["reasons"] = [{"outcome": o, "reason": r, "count": n} for (o, r), n in ranked]
    total["seconds"] = round(seconds, 3)
    return total


def process_line(entry: Mapping[str, Any], *, counted: bool = False) -> str:
    """One summary line for a process: ``process 1 (pid 4242, DIR): finished, 120 fetched,
    out FILE.1.jsonl`` — or how it died and what replaced it (``counted``: the summary's
    outcomes came from the frontier, the dead process's among them)."""
    head = f"process {entry['index']} (pid {entry['pid']}, {entry['data_dir']})"
    if entry.get("signal"):
        if counted:
            return f"{head}: killed by signal {entry['signal']}: its URLs are counted above"
        tail = f"killed by signal {entry['signal']}: its counts are not in this summary"
        return f"{head}: {tail} (indexer report has them)"
    if entry.get("summary") is None:
        return f"{head}: exit {entry['exit_code']}, no summary"
    one = entry["summary"]
    text = f"{head}: {one.get('phase') or 'ended'}, fetched {one['fetched']}"
    text += f", indexed {one['indexed']}"
    if entry.get("replaces") is not None:
        text += f", replacing pid {entry['replaces']}"
    return text + (f", out {entry['out']}" if entry.get("out") else "")


def format_launch(summary: Mapping[str, Any]) -> str:
    """The closing lines of ``--processes N``: :func:`indexer.report.format_summary` of the
    added-up counts, then a line per process (:func:`process_line`)."""
    shown = dict(summary)
    frontier = summary.get("counted") == "frontier"
    if any(entry.get("summary") is None for entry in summary["processes"]):
        shown["acknowledged"] = shown["indexed"]  # unknown: a process gave no summary
        shown["fetched"] = f"at least {shown['fetched']}"  # a dead one's last 2 s are lost
    lines = [format_summary(shown)]
    if frontier:
        lines.append(f"counted from the frontier (run {summary['run']}): each URL once")
    elif summary.get("counted_note"):
        lines.append(f"counted by the processes: {summary['counted_note']}")
    lines += [process_line(entry, counted=frontier) for entry in summary["processes"]]
    if summary.get("died"):
        lines.append(f"{summary['died']} process(es) died: exit 1 (see `indexer report`)")
    for outbox in summary.get("open_outboxes", [])[:5]:
        machine, folder = split_outbox(outbox)
        lines.append(
            f"the run stays open: outbox {outbox} may hold changes "
            f"(`{drain_command(folder)}` on {machine} sends them and finishes the run)"
        )
    if summary.get("open_outboxes"):
        lines.append(f"(to that command {DRAIN_NOTE})")
    hint = resume_hint(summary)
    return "\n".join(lines + ([hint] if hint else []))


def resume_hint(summary: Mapping[str, Any]) -> str:
    """What ``--resume`` continues when the run stays open with URLs to crawl: ``run 3 stays
    open with 1622 URLs to crawl: the same command with --resume continues it`` (or that
    another launch crawls it on, or that a process refused the settings); '' when the run
    is closed, has none left, or the frontier could not be read."""
    if summary.get("run") is None or summary.get("run_closed") or not summary.get("left"):
        return ""
    head = f"run {summary['run']} stays open with {summary['left']} URLs to crawl"
    if summary.get("others_live"):
        return f"{head}: processes of another launch crawl it on"
    refused = [e["index"] for e in summary["processes"] if e["exit_code"] == USAGE_EXIT]
    if refused:
        said = f"process {refused[0]} refused the settings (above)"
        return f"{head}: {said}; --resume with the run's settings continues it"
    return f"{head}: the same command with --resume continues it"
