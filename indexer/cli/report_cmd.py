"""``indexer report``: outcome counts per outcome and per host, or one line per URL."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from indexer.cli.options import add_common, load_from_args
from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier.members import (
    Member,
    drain_command,
    report_lines,
    run_gone,
    to_drain,
)
from indexer.crawl.frontier.opening import open_view
from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.frontier.view import FrontierView
from indexer.crawl.urls import normalize_url
from indexer.errors import ConfigError, InvalidURLError
from indexer.index.outbox import OUTBOX
from indexer.pipeline.reconcile import MISSED
from indexer.report import (
    OUTCOMES,
    RUN_NOTES,
    format_counts,
    format_notes,
    format_run,
    format_url_line,
    outcome_is_known,
)


def add_parser(sub: Any) -> None:
    """Register ``indexer report``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "report",
        help="what happened to each URL of a crawl",
        description=(
            "Counts per outcome and per host of the crawl in --data-dir (also while it runs), "
            "or with --urls one line per URL: URL<TAB>outcome<TAB>reason. Outcomes: "
            + ", ".join(OUTCOMES)
            + "; URLs not finished yet show as queued or fetching."
        ),
    )
    add_common(p)
    p.add_argument("--urls", action="store_true", help="one line per URL instead of counts")
    p.add_argument("--outcome", metavar="NAME", help="with --urls: only URLs with this outcome")
    p.add_argument(
        "--explain",
        metavar="URL",
        help="why each block of this indexed page was kept or dropped (JSON lines)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the report; a missing or broken frontier, or a broken outbox or missed-runs
    file, is a ``StateError`` (exit 2)."""
    if args.outcome and not args.urls:
        raise ConfigError("--outcome", "only with --urls")
    if args.outcome and not (outcome_is_known(args.outcome) or args.outcome in _STATES):
        raise ConfigError("--outcome", f"unknown outcome {args.outcome!r}")
    settings = load_from_args(args, {}).settings
    with open_view(
        settings.crawl.data_dir, settings.frontier.url, settings.frontier.stall_seconds
    ) as view:
        DataDir(settings.crawl.data_dir).verify((OUTBOX, MISSED), read_only=True)
        if args.explain:
            return _explain(view, args.explain)
        if args.urls:
            for url, outcome, reason in view.urls(args.outcome):
                print(format_url_line(url, outcome, reason))
        else:
            print(format_counts(view.counts()))
            runs = view.runs()
            if runs:
                _print_run(view, runs[-1])
            notes = format_notes(view.meta(RUN_NOTES))
            if notes:
                print(f"\n{notes}")
    return 0


_STATES = ("queued", "fetching")


def _print_run(view: FrontierView, run: RunRecord) -> None:
    """The last run's line and, on the shared frontier, its processes (who ended how, and
    for one gone without ending the command that finishes its part)."""
    members = view.members(run.id)
    open_run = not run.finished
    progress = view.progress.all().get(run.id)
    reindex = progress is not None and progress.kind == "reindex"
    print(f"\n{format_run(run, _gone(view, run, members), shared=bool(members))}")
    for line in report_lines(members, open_run and not reindex):
        print(line)
    for m in to_drain(members) if open_run and reindex else []:  # a crawl's --join does not fit
        print(f"  `{drain_command(m.data_dir, 'reindex')}` on {m.machine} runs the job again")


def _gone(view: FrontierView, run: RunRecord, members: list[Member]) -> bool:
    """Whether ``run`` is open but its processes are gone (:func:`.members.run_gone`); with
    one process a run that wrote its exit code (interrupted) ended, though left open."""
    is_open = not run.finished and (bool(members) or run.exit_code is None)
    return run_gone(is_open, members, view.progress.all().get(run.id))


def _explain(view: FrontierView, url: str) -> int:
    """Print the stored explanation of ``url`` (also tried normalized); 1 when none."""
    lines = view.extract_state.explanation(url)
    if lines is None:
        with contextlib.suppress(InvalidURLError):
            lines = view.extract_state.explanation(normalize_url(url))
    if lines is None:
        print(f"indexer: no explanation stored for {url} (not indexed?)", file=sys.stderr)
        return 1
    print(lines)
    return 0
