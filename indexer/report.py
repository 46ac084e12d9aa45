"""Outcomes, counters and the run summary.

Every URL the crawl meets ends with exactly one outcome of :mod:`indexer.outcomes`, plus a
reason; :data:`OUTCOMES` lists them for the command line.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.owner import GONE_LABEL
from indexer.index.xmlchars import clean_text
from indexer.outcomes import (
    HTTP_DESCRIPTION,
    TABLE,
    OutcomeClass,
    classify,
    is_failure,
    is_known,
)

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
        pending: changes left in the outbox for the next run.
        phase: how the run ended (:class:`indexer.pipeline.phases.Phase`), '' while it runs.
        stopped_in: the phase the run was in when it ended.
        reason: one line on why it ended so ('' when finished).
        removed_chars: characters outside XML 1.0 ``Char`` removed from written documents.
        links_truncated: links dropped past ``crawl.max_links_per_page``, all pages together.
        truncated_pages: ``{url: links found}`` of the pages that had too many (at most
            :data:`MAX_REASONS` pages are named).
        waiting: ``{host: epoch seconds}`` of hosts held by a Retry-After right now
            (for progress displays).
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
    removed_chars: int = 0
    links_truncated: int = 0
    truncated_pages: dict[str, int] = field(default_factory=dict)
    waiting: dict[str, float] = field(default_factory=dict)
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

    def truncated(self, url: str, found: int, kept: int) -> None:
        """Count a page whose ``found`` links were cut to ``kept``."""
        self.links_truncated += found - kept
        if len(self.truncated_pages) < MAX_REASONS:
            self.truncated_pages[url] = found

    def summary(self) -> dict[str, Any]:
        """The closing summary as a JSON-ready dict.

        ``indexed`` and the class totals (``reached``, ``skipped``, ``failed``) count URLs by
        outcome exactly as ``indexer report`` does (:func:`class_totals`); ``acknowledged``
        counts documents Solr acknowledged (or written to ``--out``), which also includes
        changes left in the outbox by an earlier run.
        """
        return {
            "phase": self.phase,
            "stopped_in": self.stopped_in,
            "reason": self.reason,
            "fetched": self.fetched,
            "indexed": self.outcomes.get("indexed", 0),
            "acknowledged": self.indexed,
            **class_totals(self.outcomes),
            "pending_in_outbox": self.pending,
            "removed_characters": self.removed_chars,
            "links_truncated": self.links_truncated,
            "links_truncated_pages": [
                {"url": url, "links": n} for url, n in sorted(self.truncated_pages.items())
            ],
            "outcomes": dict(sorted(self.outcomes.items())),
            "retries": dict(sorted(self.retries.items())),
            "reasons": [
                {"outcome": o, "reason": clean_text(r)[0], "count": n}
                for (o, r), n in sorted(self.reasons.items())
            ],
            "seconds": round(time.monotonic() - self.started, 3),
        }


#: The frontier's ``meta`` key holding the last run's notes (:func:`run_notes`).
RUN_NOTES = "run_notes"

#: Pages named in the stored notes (the summary JSON names up to :data:`MAX_REASONS`).
NOTES_PAGES = 100


def run_notes(summary: Mapping[str, Any]) -> str:
    """The run's counters that ``indexer report`` shows beside the outcomes, as JSON:
    ``links_truncated`` with the first :data:`NOTES_PAGES` pages, ``removed_characters``."""
    return json.dumps(
        {
            "links_truncated": summary.get("links_truncated", 0),
            "links_truncated_pages": summary.get("links_truncated_pages", [])[:NOTES_PAGES],
            "removed_characters": summary.get("removed_characters", 0),
        },
        ensure_ascii=False,
    )


def format_notes(notes: str | None) -> str:
    """Report lines for stored :func:`run_notes` (``""`` when there is nothing to say)."""
    if not notes:
        return ""
    data = json.loads(notes)
    lines = []
    if data.get("links_truncated"):
        lines.append(
            f"links_truncated {data['links_truncated']} in the last run "
            "(crawl.max_links_per_page), on:"
        )
        lines += [f"  {p['url']}  {p['links']} links" for p in data["links_truncated_pages"]]
    if data.get("removed_characters"):
        lines.append(
            f"removed_characters {data['removed_characters']} in the last run "
            "(not allowed in XML 1.0)"
        )
    return "\n".join(clean_text(line)[0] for line in lines)


def format_summary(summary: dict[str, Any]) -> str:
    """Human-readable closing lines for a summary from :meth:`RunStats.summary`."""
    lines = [
        f"fetched {summary['fetched']}, {format_totals(summary)} in {summary['seconds']:.1f} s"
    ]
    if summary.get("phase") and summary["phase"] != "finished":
        end = f"run {summary['phase']} while {summary['stopped_in']}"
        lines.append(end + (f": {summary['reason']}" if summary.get("reason") else ""))
    if summary["acknowledged"] != summary["indexed"]:
        lines.append(f"documents acknowledged by the index: {summary['acknowledged']}")
    if summary.get("removed_characters"):
        lines.append(
            f"removed {summary['removed_characters']} characters not allowed in XML 1.0 "
            "(control characters, lone surrogates, U+FFFE/U+FFFF)"
        )
    if summary.get("links_truncated"):
        pages = summary["links_truncated_pages"]
        lines.append(
            f"links_truncated {summary['links_truncated']} on {len(pages)} page(s) "
            f"(crawl.max_links_per_page), e.g. {pages[0]['url']}"
        )
    for item in summary["reasons"][:30]:
        lines.append(f"  {item['outcome']:<22} {item['count']:>6}  {item['reason']}")
    return "\n".join(lines)


#: States of URLs without an outcome yet, as ``indexer report`` shows them.
PENDING_STATES = ("queued", "fetching")


def class_totals(counts: Mapping[str, int]) -> dict[str, int]:
    """URL counts by the classes of :mod:`indexer.outcomes`, in the words both the closing
    summary and ``indexer report`` use: ``reached`` (indexed, not-modified, unchanged,
    redirected), ``skipped``, ``failed`` (failure, gone, network) and ``pending`` (queued
    or fetching: only a report during a crawl has them)."""
    totals = {"reached": 0, "skipped": 0, "failed": 0, "pending": 0}
    for outcome, n in counts.items():
        if outcome in PENDING_STATES:
            totals["pending"] += n
        elif is_failure(outcome):
            totals["failed"] += n
        elif classify(outcome) == OutcomeClass.REACHED:
            totals["reached"] += n
        else:
            totals["skipped"] += n
    return totals


def format_totals(totals: Mapping[str, Any]) -> str:
    """``indexed 3 (reached 4), skipped 0, failed 1`` (``, pending N`` when any)."""
    line = (
        f"indexed {totals['indexed']} (reached {totals['reached']}), "
        f"skipped {totals['skipped']}, failed {totals['failed']}"
    )
    return line + (f", pending {totals['pending']}" if totals.get("pending") else "")


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
    lines.append(format_totals({"indexed": by_outcome["indexed"], **class_totals(by_outcome)}))
    lines.append("")
    lines.append(f"{'host':<32} {'urls':>8}  outcomes")
    for host, counts in sorted(by_host.items(), key=lambda kv: (-kv[1].total(), kv[0])):
        detail = ", ".join(f"{o} {n}" for o, n in counts.most_common())
        lines.append(f"{host or '(no host)':<32} {counts.total():>8}  {detail}")
    return "\n".join(lines)


def format_run(run: RunRecord, gone: bool = False, *, shared: bool = False) -> str:
    """``last run N: PHASE (exit CODE): REASON`` for ``indexer report``; with ``gone`` (its
    process ended without closing it, :mod:`indexer.crawl.owner`) it says so and what
    continues it: ``crawl --resume``, or with ``shared`` (the shared frontier's processes)
    the commands the lines on its processes name."""
    line = f"last run {run.id}: {run.phase or ('finished' if run.finished else 'unknown')}"
    if gone:
        how = (
            "the commands below continue it" if shared else "`indexer crawl --resume` continues it"
        )
        line += f", {GONE_LABEL}: {how}"
    if run.exit_code is not None:
        line += f" (exit {run.exit_code})"
    return line + (f": {run.reason}" if run.reason else "")


def format_url_line(url: str, outcome: str, reason: str) -> str:
    """``URL<TAB>outcome<TAB>reason``; tabs and line breaks in the fields become spaces,
    characters outside XML 1.0 ``Char`` are removed."""
    fields = (clean_text(f)[0] for f in (url, outcome, reason))
    return "\t".join(" ".join(f.split()) if f else "" for f in fields)
