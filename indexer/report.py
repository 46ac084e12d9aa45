"""Outcomes, counters and the run summary.

Every URL the crawl meets ends with exactly one outcome of :mod:`indexer.outcomes`, plus a
reason; :data:`OUTCOMES` lists them for the command line.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from indexer.crawl.runs import RunRecord
from indexer.outcomes import HTTP_DESCRIPTION, TABLE, is_failure, is_known

#: Every outcome with its description, for listings (``http-<code>`` stands for any code).
OUTCOMES: dict[str, str] = {
    **{str(o): row.description for o, row in TABLE.items()},
    "http-<code>": HTTP_DESCRIPTION,
}


def outcome_is_known(outcome: str) -> bool:
    """Whether ``outcome`` is an :class:`~indexer.outcomes.Outcome` (``http-NNN`` included)."""
    return is_known(outcome)


#: Distinct ``(outcome, reason)`` pairs counted per run; the rest are lumped together.
MAX_REASONS = 1000
OTHER_REASONS = "(other reasons)"


@dataclass
class RunStats:
    """Counters of one run, keyed ``stage/outcome`` and by reason.

    Attributes:
        outcomes: final outcomes, ``{"indexed": 12, "http-404": 1}``.
        reasons: ``{("http-404", "Not Found"): 1}`` for every non-indexed outcome.
        retries: retries scheduled per reason.
        fetched: HTTP fetches made (attempts included).
        indexed: documents acknowledged by Solr (or written to --out).
        pending: changes left in the outbox at the end.
        phase: how the run ended (:class:`indexer.pipeline.phases.Phase`), '' while it runs.
        stopped_in: the phase the run was in when it ended.
        reason: one line on why it ended so ('' when finished).
    """

    outcomes: Counter[str] = field(default_factory=Counter)
    reasons: Counter[tuple[str, str]] = field(default_factory=Counter)
    retries: Counter[str] = field(default_factory=Counter)
    fetched: int = 0
    indexed: int = 0
    pending: int = 0
    phase: str = ""
    stopped_in: str = ""
    reason: str = ""
    started: float = field(default_factory=time.monotonic)

    def ended(self, phase: str, stopped_in: str, reason: str) -> None:
        """Record how the run ended."""
        self.phase, self.stopped_in, self.reason = phase, stopped_in, reason

    def record(self, outcome: str, reason: str = "") -> None:
        """Count one URL's final outcome.

        At most :data:`MAX_REASONS` distinct reasons are kept (reasons often name a URL);
        later new ones count as ``(other reasons)``, so memory stays flat on long crawls.
        """
        self.outcomes[outcome] += 1
        if outcome != "indexed":
            key = (outcome, reason[:200])
            if key not in self.reasons and len(self.reasons) >= MAX_REASONS:
                key = (outcome, OTHER_REASONS)
            self.reasons[key] += 1

    def record_many(self, outcome: str, reason: str, count: int) -> None:
        """Count ``count`` URLs that ended with the same outcome and reason."""
        if count:
            self.outcomes[outcome] += count
            self.reasons[(outcome, reason[:200])] += count

    def summary(self) -> dict[str, Any]:
        """The closing summary as a JSON-ready dict."""
        failed = {k: v for k, v in self.outcomes.items() if is_failure(k)}
        skipped = {k: v for k, v in self.outcomes.items() if k not in failed and k != "indexed"}
        return {
            "phase": self.phase,
            "stopped_in": self.stopped_in,
            "reason": self.reason,
            "fetched": self.fetched,
            "indexed": self.indexed,
            "pending_in_outbox": self.pending,
            "skipped": sum(skipped.values()),
            "failed": sum(failed.values()),
            "outcomes": dict(sorted(self.outcomes.items())),
            "retries": dict(sorted(self.retries.items())),
            "reasons": [
                {"outcome": o, "reason": r, "count": n}
                for (o, r), n in sorted(self.reasons.items())
            ],
            "seconds": round(time.monotonic() - self.started, 3),
        }


def format_summary(summary: dict[str, Any]) -> str:
    """Human-readable closing lines for a summary from :meth:`RunStats.summary`."""
    lines = [
        f"fetched {summary['fetched']}, indexed {summary['indexed']}, "
        f"skipped {summary['skipped']}, failed {summary['failed']} "
        f"in {summary['seconds']:.1f} s"
    ]
    if summary.get("phase") and summary["phase"] != "finished":
        end = f"run {summary['phase']} while {summary['stopped_in']}"
        lines.append(end + (f": {summary['reason']}" if summary.get("reason") else ""))
    for item in summary["reasons"][:30]:
        lines.append(f"  {item['outcome']:<22} {item['count']:>6}  {item['reason']}")
    return "\n".join(lines)


def format_counts(rows: Iterable[tuple[str, str, int]]) -> str:
    """The ``indexer report`` table from ``(host, outcome, count)`` rows.

    Two blocks: counts per outcome over all hosts, then per host with its outcomes, each
    sorted by count (largest first).
    """
    by_outcome: Counter[str] = Counter()
    by_host: dict[str, Counter[str]] = {}
    for host, outcome, count in rows:
        by_outcome[outcome] += count
        by_host.setdefault(host, Counter())[outcome] += count
    lines = [f"{'outcome':<24} {'urls':>8}"]
    lines += [f"{o:<24} {n:>8}" for o, n in by_outcome.most_common()]
    lines.append(f"{'total':<24} {sum(by_outcome.values()):>8}")
    lines.append("")
    lines.append(f"{'host':<32} {'urls':>8}  outcomes")
    for host, counts in sorted(by_host.items(), key=lambda kv: (-kv[1].total(), kv[0])):
        detail = ", ".join(f"{o} {n}" for o, n in counts.most_common())
        lines.append(f"{host or '(no host)':<32} {counts.total():>8}  {detail}")
    return "\n".join(lines)


def format_run(run: RunRecord) -> str:
    """``last run N: PHASE (exit CODE): REASON`` for ``indexer report``."""
    line = f"last run {run.id}: {run.phase or ('finished' if run.finished else 'unknown')}"
    if run.exit_code is not None:
        line += f" (exit {run.exit_code})"
    return line + (f": {run.reason}" if run.reason else "")


def format_url_line(url: str, outcome: str, reason: str) -> str:
    """``URL<TAB>outcome<TAB>reason``; tabs and line breaks in the fields become spaces."""
    return "\t".join(" ".join(f.split()) if f else "" for f in (url, outcome, reason))
