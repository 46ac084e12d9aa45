"""``indexer reindex``: recrawl what the frontier knows, update changes, delete gone pages."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from indexer.cli.options import (
    ExitCode,
    add_common,
    add_solr_target,
    configure_logging,
    load_from_args,
    solr_flags,
)
from indexer.errors import ConfigError
from indexer.pipeline.reindex import reindex
from indexer.pipeline.resend import repair
from indexer.report import format_summary
from indexer.settings import Settings


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
    p.add_argument("--delay", type=float, help="per-host delay in seconds (fetch.delay)")
    p.add_argument("--force", action="store_true", help="delete even when the guard trips")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print one JSON line per planned change; change nothing",
    )
    p.add_argument(
        "--repair",
        action="store_true",
        help="recreate a missing or broken outbox and re-send every indexed document Solr "
        "lacks or holds at an older content hash (no recrawl, no deletes)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the job; exit 0, 3 when the guard refused the deletions, 130 when stopped by a
    signal, 1 when the recrawl failed (neither of the last two deletes anything)."""
    configure_logging(args.verbose, args.quiet or args.dry_run)
    flags = {**solr_flags(args), "fetch.delay": args.delay}
    settings = load_from_args(args, flags).settings
    if args.repair:
        if args.dry_run or args.force:
            raise ConfigError("--repair", "goes without --dry-run and --force")
        return _repair(settings, args.quiet)

    def print_change(action: str, doc_id: str) -> None:
        print(json.dumps({"action": action, "id": doc_id}, ensure_ascii=False), flush=True)

    result = asyncio.run(
        reindex(
            settings,
            force=args.force,
            dry_run=args.dry_run,
            on_change=print_change if args.dry_run else None,
        )
    )
    if not args.quiet and not args.dry_run:
        print(format_summary(result.stats.summary()), file=sys.stderr)
        print(f"deleted {result.deleted}", file=sys.stderr)
    for message in result.refused:
        if args.force:
            print(f"indexer: guard overridden by --force: {message}", file=sys.stderr)
        else:
            verb = "would refuse" if args.dry_run else "refused"
            print(
                f"indexer: {verb}: {message}; nothing deleted (--force deletes anyway)",
                file=sys.stderr,
            )
    if result.end is not None and result.end.phase in ("interrupted", "failed"):
        return result.end.exit_code  # not reconciled: nothing deleted
    if result.refused and not args.force:
        return ExitCode.GUARD
    return ExitCode.OK


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
