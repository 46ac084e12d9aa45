"""``indexer reindex``: recrawl what the frontier knows, update changes, delete gone pages."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from typing import Any

from indexer.cli.options import (
    ExitCode,
    add_common,
    add_profile,
    add_solr_target,
    configure_logging,
    load_from_args,
    solr_flags,
)
from indexer.cli.stoppable import run_stoppable
from indexer.errors import ConfigError, FrontierLostError
from indexer.pipeline.phases import StopEvent, abort
from indexer.pipeline.reindex import ReindexJob, ReindexResult, reindex
from indexer.pipeline.resend import repair
from indexer.report import format_summary
from indexer.settings import LoadedSettings, Settings

#: What a reindex job met by a lost shared frontier runs once PostgreSQL is back: the job
#: starts anew (it has no ``--resume``).
AGAIN = "run the same command again"


def add_parser(sub: Any) -> None:
    """Register ``indexer reindex``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "reindex",
        help="recrawl known pages; update what changed, delete what is gone",
        description="Recrawl every page the frontier knows (conditional GET), re-index what "
        "changed, delete what is gone, and reconcile with Solr. Exit 3 when the mass-delete "
        "guard refuses (nothing deleted).",
    )
    add_common(p)
    add_solr_target(p)
    add_profile(p)
    p.add_argument("--delay", type=float, help="per-host delay in seconds (fetch.delay)")
    p.add_argument("--force", action="store_true", help="delete even when the guard trips")
    p.add_argument(
        "--refresh",
        action="store_true",
        help="also refetch, re-extract and re-send documents stamped older than this "
        "version (schema_version / extractor_version), even when unchanged",
    )
    _add_scope_flags(p)
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print one JSON line per planned change and a summary line; change nothing",
    )
    p.add_argument(
        "--repair",
        action="store_true",
        help="recreate a missing or broken outbox and re-send every indexed document Solr "
        "lacks or holds at an older content hash (no recrawl, no deletes)",
    )
    p.set_defaults(func=run)


def _add_scope_flags(p: argparse.ArgumentParser) -> None:
    """``--include``/``--exclude`` and lower limits narrow the stored scope; ``--rescope``."""
    p.add_argument(
        "--include",
        action="append",
        default=[],
        help="URL regex this run must also match (narrows the stored scope; repeatable)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        help="URL regex this run skips (narrows the stored scope; repeatable)",
    )
    p.add_argument("--max-pages", type=int, help="lower page limit for this run")
    p.add_argument("--max-pages-per-host", type=int, help="lower per-host limit for this run")
    p.add_argument("--max-depth", type=int, help="lower depth limit for this run")
    p.add_argument(
        "--rescope",
        action="store_true",
        help="let the scope settings given replace the scope stored with the crawl "
        "(needed to widen it; the changes are printed)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the job; exit 0, 3 when the guard refused the deletions, 130 when stopped by a
    signal, 1 when the recrawl failed (neither of the last two deletes anything); a shared
    frontier that went away is a :class:`FrontierLostError` naming what to run again (exit
    2 in ``main()``), raised after the summary of what was done."""
    configure_logging(args.verbose, args.quiet or args.dry_run)
    flags = {
        **solr_flags(args),
        "fetch.delay": args.delay,
        "crawl.max_pages": args.max_pages,
        "crawl.max_pages_per_host": args.max_pages_per_host,
        "crawl.max_depth": args.max_depth,
        "extract.profile": args.profile,
    }
    loaded = load_from_args(args, flags)
    if args.repair:
        if args.dry_run or args.force:
            raise ConfigError("--repair", "goes without --dry-run and --force")
        return _repair(loaded.settings, args.quiet)
    job = _job(args, loaded)
    counts = {"add": 0, "update": 0, "delete": 0}

    def print_change(action: str, doc_id: str) -> None:
        counts[action] = counts.get(action, 0) + 1
        print(json.dumps({"action": action, "id": doc_id}, ensure_ascii=False), flush=True)

    on_change = print_change if args.dry_run else None
    job_run = reindex(loaded.settings, on_change=on_change, job=job)
    try:
        result = run_stoppable(job_run, _on_signal(job))
    except FrontierLostError as exc:  # before the recrawl, or a dry run's copy: no summary
        raise exc.with_remedy(AGAIN) from None
    _print_result(result, args, counts)
    if result.lost is not None:  # said after the summary; the run stays open, exit 2
        raise result.lost.with_remedy(AGAIN)
    if result.end is not None and result.end.phase in ("interrupted", "failed"):
        return result.end.exit_code  # not reconciled: nothing deleted
    if result.refused and not args.force:
        return ExitCode.GUARD
    return ExitCode.OK


def _print_result(result: ReindexResult, args: argparse.Namespace, counts: dict[str, int]) -> None:
    """The job's scope, its summary (a dry run's as one JSON line) and its refusals."""
    _print_scope(result, args.dry_run)
    if args.dry_run:
        print(json.dumps(_summary_line(result, counts), ensure_ascii=False), flush=True)
    if not args.quiet and not args.dry_run:
        print(format_summary(result.stats.summary()), file=sys.stderr)
        refreshed = f", refreshed {result.refreshed} old-stamped" if args.refresh else ""
        print(f"deleted {result.deleted}{refreshed}", file=sys.stderr)
    _print_refusals(result, args.force, args.dry_run)


def _job(args: argparse.Namespace, loaded: LoadedSettings) -> ReindexJob:
    """The job's own choices from its flags (the settings' sources decide rescoping)."""
    narrowing = (tuple(args.include), tuple(args.exclude))
    sources = dict(loaded.sources)
    return ReindexJob(
        args.force, args.dry_run, *narrowing, args.rescope, sources, args.refresh, StopEvent()
    )


def _on_signal(job: ReindexJob) -> Callable[[], None]:
    """SIGINT and SIGTERM during the job (:mod:`.stoppable`): the run ends ``interrupted``
    within the stop budget; a second signal aborts."""
    stop = job.stop

    def on_signal() -> None:
        if stop is None or stop.is_set():
            abort(stop)  # the run record gets its end first
        print("indexer: stopping within 5 s; nothing is deleted (again to abort)", file=sys.stderr)
        stop.set()

    return on_signal


def _print_refusals(result: ReindexResult, force: bool, dry_run: bool) -> None:
    for message in result.refused:
        if force:
            print(f"indexer: guard overridden by --force: {message}", file=sys.stderr)
        else:
            verb = "would refuse" if dry_run else "refused"
            print(
                f"indexer: {verb}: {message}; nothing deleted (--force deletes anyway)",
                file=sys.stderr,
            )


def _summary_line(result: ReindexResult, counts: dict[str, int]) -> dict[str, Any]:
    """The dry run's closing line: planned changes and the guard's refusals."""
    return {
        "summary": True,
        "add": counts.get("add", 0),
        "update": counts.get("update", 0),
        "delete": counts.get("delete", 0),
        "refused": [
            {"host": r.host, "delete": r.delete, "total": r.total} for r in result.refusals
        ],
    }


def _print_scope(result: ReindexResult, dry_run: bool) -> None:
    """The scope changes of ``--rescope`` and this run's lower limits: a JSON line in the
    dry-run plan, a line on stderr otherwise."""
    plan = result.scope
    if plan is None or not (plan.rescoped or plan.narrowed):
        return
    if dry_run:
        changes = {
            "rescope": {k: {"stored": old, "new": new} for k, (old, new) in plan.rescoped.items()},
            "narrowed": {k: {"stored": old, "new": new} for k, (old, new) in plan.narrowed.items()},
        }
        print(json.dumps(changes, ensure_ascii=False), flush=True)
        return
    for key, (old, new) in plan.rescoped.items():
        print(f"indexer: rescope: {key} {old!r} -> {new!r} (stored)", file=sys.stderr)
    for key, (old, new) in plan.narrowed.items():
        print(f"indexer: this run only: {key} {old!r} -> {new!r}", file=sys.stderr)


def _repair(settings: Settings, quiet: bool) -> int:
    """Run ``--repair`` and say what it did; exit 0."""
    result = asyncio.run(repair(settings))
    if result.broken_outbox is not None:
        print(
            f"repair: outbox recreated; the broken one is kept as {result.broken_outbox} "
            f"({result.broken_reason})",
            file=sys.stderr,
        )
    if result.stats is not None and not quiet:
        print(format_summary(result.stats.summary()), file=sys.stderr)
    print(
        f"repair: re-sent {result.resent} of {len(result.stale)} documents that Solr lacked "
        f"or held at an older content hash ({result.indexed} indexed in the frontier)",
        file=sys.stderr,
    )
    return ExitCode.OK
