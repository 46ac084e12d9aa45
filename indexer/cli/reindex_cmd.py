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
from indexer.pipeline.reindex import reindex
from indexer.report import format_summary


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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the job; exit 0, or 3 when the guard refused the deletions."""
    configure_logging(args.verbose, args.quiet or args.dry_run)
    flags = {**solr_flags(args), "fetch.delay": args.delay}
    settings = load_from_args(args, flags).settings

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
    if result.refused and not args.force:
        return ExitCode.GUARD
    return ExitCode.OK
