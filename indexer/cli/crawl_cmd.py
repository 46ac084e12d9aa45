"""``indexer crawl``: crawl seeds into Solr (and/or a JSON-lines file)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
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
from indexer.cli.progress import ProgressDisplay
from indexer.cli.stoppable import run_stoppable
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.members import LOST_KEY
from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.stored_scope import load_scope, resumed_scope, save_scope, scope_of
from indexer.errors import ConfigError, FrontierLostError, NoOpenRunError
from indexer.index.outbox import OUTBOX, claim_outbox
from indexer.pipeline.childside import HANDOFF_FLAG, ChildProgress, take_handoff
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.pipeline.join import join_or_lead, require_shared
from indexer.pipeline.phases import abort
from indexer.pipeline.processes import run_processes
from indexer.pipeline.processplan import plan_of, prepare_outputs, require_frontier
from indexer.pipeline.reconcile import MISSED
from indexer.pipeline.summaries import format_launch, resume_hint
from indexer.report import RunStats, format_summary
from indexer.settings import Settings, Source

log = logging.getLogger("indexer")

#: CLI flag destination → settings key.
FLAG_KEYS = {
    "delay": "fetch.delay",
    "per_host": "fetch.per_host",
    "concurrency": "fetch.concurrency",
    "timeout": "fetch.timeout",
    "user_agent": "fetch.user_agent",
    "max_pages": "crawl.max_pages",
    "max_pages_per_host": "crawl.max_pages_per_host",
    "max_depth": "crawl.max_depth",
    "data_dir": "crawl.data_dir",
    "include": "crawl.include",
    "exclude": "crawl.exclude",
    "allow_host": "crawl.allow_hosts",
    "resume": "crawl.resume",
    "obey_noindex": "crawl.obey_noindex",
    "formats": "crawl.formats",
    "profile": "extract.profile",
    "processes": "crawl.processes",
    "memory_budget": "crawl.memory_budget",
}


def add_parser(sub: Any) -> None:
    """Register ``indexer crawl``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "crawl",
        help="crawl seed URLs and index the pages",
        description="Crawl the seeds' hosts, decode, extract and index every page.",
    )
    p.add_argument("seeds", nargs="*", metavar="SEED_URL", help="start URLs")
    add_common(p)
    add_solr_target(p)
    add_profile(p)
    p.add_argument("--out", type=Path, help="also write each document as a JSON line here")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    p.add_argument("--delay", type=float, help="per-host delay in seconds (fetch.delay)")
    p.add_argument("--per-host", type=int, help="requests in flight per host (fetch.per_host)")
    p.add_argument("--concurrency", type=int, help="requests in flight in total")
    p.add_argument("--timeout", type=float, help="total seconds per request (fetch.timeout)")
    p.add_argument("--user-agent", help="User-Agent (fetch.user_agent)")
    p.add_argument("--max-pages", type=int, help="pages fetched in total (crawl.max_pages)")
    p.add_argument("--max-pages-per-host", type=int, help="pages fetched per host")
    p.add_argument("--max-depth", type=int, help="link distance from a seed (crawl.max_depth)")
    p.add_argument("--include", action="append", help="URL regex to include (repeatable)")
    p.add_argument("--exclude", action="append", help="URL regex to exclude (repeatable)")
    p.add_argument("--allow-host", action="append", help="extra host in scope (repeatable)")
    _add_state(p)
    p.add_argument(
        "--ignore-noindex",
        dest="obey_noindex",
        action="store_false",
        default=None,
        help="index pages even when they ask not to be (crawl.obey_noindex)",
    )
    _add_formats(p)
    p.add_argument("--summary-json", type=Path, help="write the closing summary as JSON here")
    p.set_defaults(func=run)


def _add_state(p: argparse.ArgumentParser) -> None:
    """``--resume`` (this data directory's stopped crawl) and ``--join`` (the crawl running
    on the shared frontier, :mod:`indexer.pipeline.join`)."""
    p.add_argument(
        "--resume",
        action="store_true",
        default=None,
        help="continue the stopped crawl in --data-dir",
    )
    p.add_argument("--join", action="store_true", help="join the crawl running on --frontier")
    p.add_argument(
        "--processes", type=int, help="crawl processes on this machine (crawl.processes)"
    )
    p.add_argument(
        "--memory-budget",
        metavar="SIZE",
        help="response bodies held in memory at once, e.g. 512MiB (crawl.memory_budget; "
        "with --processes N each process gets a 1/N share)",
    )
    p.add_argument(HANDOFF_FLAG, type=int, dest="from_parent", help=argparse.SUPPRESS)


def _add_formats(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--formats",
        type=lambda v: tuple(f.strip() for f in v.split(",") if f.strip()),
        help="format ids indexed, comma-separated: html,pdf,docx,xlsx,pptx,text,csv,"
        "doc,xls,ppt,rtf,odt,ods,odp (crawl.formats; default all)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the crawl (or ``--processes N``): exit 0 at its end (failed pages are reported),
    130 when stopped by SIGINT/SIGTERM, 1 when it failed (Solr refused credentials or schema
    past ``solr.auth_wait``, or changes stay in the outbox), 2 (:func:`_crawl`); a summary."""
    configure_logging(args.verbose, args.quiet)
    loaded = load_from_args(args, _flags(args))
    settings = loaded.settings
    if not settings.crawl.seeds and not settings.crawl.resume:
        raise ConfigError("crawl.seeds", "give at least one SEED_URL (or --resume)")
    require_shared(settings, join=args.join)
    if settings.crawl.processes > 1:  # refused without frontier.url
        return _many(args, settings)
    _check_outputs(args, settings)
    use_solr = args.out is None or args.solr is not None
    with open_frontier(settings, create=not settings.crawl.resume) as frontier:
        frontier.data_dir.verify((OUTBOX, MISSED))
        if use_solr:
            claim_outbox(frontier)
        joined = _joined(frontier, settings, args, use_solr, loaded.sources)
        if joined is None:
            return ExitCode.OK
        settings = joined  # a --join takes the running crawl's values it was not given
        stored = load_scope(frontier)
        settings = _resumed(settings, stored, loaded.sources)
        if settings.crawl.resume and not (settings.crawl.seeds or stored or frontier.known_hosts()):
            raise ConfigError("crawl.resume", _NOTHING.format(frontier.data_dir.root))
        if settings.crawl.seeds and not (settings.crawl.resume and stored):
            save_scope(frontier, scope_of(settings.crawl))  # reindex jobs keep to it
        display = ProgressDisplay(enabled=not args.quiet)
        shown = display.update if args.from_parent is None else ChildProgress().update
        options = CrawlOptions(
            out=args.out, use_solr=use_solr, on_progress=shown, lift=tuple(args.seeds)
        )
        crawler = Crawler(settings, frontier, options)
        with display:
            stats = _crawl(crawler, options, args)
    end = crawler.end
    interrupted = end is not None and end.phase == "interrupted"
    _report(stats, args, interrupted=interrupted)
    return ExitCode(end.exit_code) if end is not None else ExitCode.INTERRUPTED


def _joined(
    frontier: Frontier,
    settings: Settings,
    args: argparse.Namespace,
    use_solr: bool,
    sources: Mapping[str, Source] | None = None,
) -> Settings | None:
    """Check a ``--join`` or lead (:func:`~indexer.pipeline.join.join_or_lead`): the settings
    to crawl with (``sources``: where each setting came from; None takes nothing from the
    running crawl); None for a child of ``--processes N`` that finds the run closed (the
    others finished it first: nothing to do, exit 0; from a user, the refusal stands).

    Raises:
        ConfigError: as :func:`~indexer.pipeline.join.join_or_lead`.
    """
    try:
        return join_or_lead(frontier, settings, sources, join=args.join, use_solr=use_solr)
    except NoOpenRunError:
        if args.from_parent is None:
            raise
        log.info("the run ended before this process joined it: nothing left to crawl")
        return None


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the flags give (None: not given); a child of ``--processes N`` gets the
    frontier URL by pipe (:func:`~indexer.pipeline.childside.take_handoff`)."""
    flags = {**solr_flags(args), **{key: getattr(args, dest) for dest, key in FLAG_KEYS.items()}}
    if args.from_parent is not None:
        flags.update(take_handoff(args.from_parent))
    if args.seeds:
        flags["crawl.seeds"] = tuple(args.seeds)
    flags["crawl.resume"] = True if args.join else flags["crawl.resume"]  # joins the open run
    return flags


def _many(args: argparse.Namespace, settings: Settings) -> int:
    """``--processes N``: N crawl processes over the shared frontier, one summary
    (:mod:`indexer.pipeline.processes`)."""
    require_frontier(settings)
    check_output_paths(args.out, args.summary_json, settings.crawl.data_dir)
    plan = plan_of(args.argv, settings, args.out, join=args.join, secret=args.frontier or "")
    prepare_outputs(plan, resume=settings.crawl.resume, overwrite=args.overwrite)
    display = ProgressDisplay(enabled=not args.quiet)
    with display:
        code, summary = run_processes(plan, display.update)
    if not args.quiet:
        print(format_launch(summary), file=sys.stderr)
        if code == ExitCode.INTERRUPTED and not resume_hint(summary):
            print("interrupted: run the same command with --resume to continue", file=sys.stderr)
    if args.summary_json:
        args.summary_json.write_text(json.dumps(summary, ensure_ascii=False, indent=2), "utf-8")
    return code


def _resumed(
    settings: Settings, stored: dict[str, Any] | None, sources: Mapping[str, Source]
) -> Settings:
    """A resumed crawl runs with its crawl's stored scope and limits where this run gives
    none (:func:`~indexer.crawl.stored_scope.resumed_scope`); a new crawl as given."""
    if not (settings.crawl.resume and stored):
        return settings
    crawl = resumed_scope(stored, settings.crawl, sources)
    return settings.model_copy(update={"crawl": crawl})


def _check_outputs(args: argparse.Namespace, settings: Settings) -> None:
    """Refuse ``--out``/``--summary-json`` paths that cannot be written or would be lost.

    Raises:
        ConfigError: a path inside the data directory, or an existing ``--out`` without
            ``--resume`` or ``--overwrite``.
    """
    check_output_paths(args.out, args.summary_json, settings.crawl.data_dir)
    if args.out is not None and args.out.exists() and not (settings.crawl.resume or args.overwrite):
        raise ConfigError(
            "--out", f"{args.out} exists: --resume continues it, --overwrite replaces it"
        )


def _crawl(crawler: Crawler, options: CrawlOptions, args: argparse.Namespace) -> RunStats:
    """Run the crawl's event loop (a signal stops it, :mod:`.stoppable`); when the shared
    frontier went away, print what was done before ``main()`` prints the one line (exit 2,
    as for a broken state file; the summary says ``frontier_lost``), and so when a second
    signal aborted it (exit 130)."""

    def stop() -> None:
        if options.stop.is_set():
            abort(options.stop)  # the run record gets its end first
        log.warning(
            "stopping: within 5 s; pages in flight and unsent changes wait for --resume "
            "(again to abort)"
        )
        options.stop.set()

    try:
        return run_stoppable(crawler.run(), stop)
    except FrontierLostError:
        _report(crawler.stats, args, interrupted=False, lost=True)
        raise
    except KeyboardInterrupt:  # aborted by a second signal: what was done, then exit 130
        _report(crawler.stats, args, interrupted=True)
        raise


def check_output_paths(out: Path | None, summary: Path | None, data_dir: Path) -> None:
    """Fail before crawling when an output path cannot be written.

    Raises:
        ConfigError: ``--out`` or ``--summary-json`` is a directory or its folder is
            missing; ``crawl.data_dir`` exists and is not a directory.
    """
    for flag, path in (("--out", out), ("--summary-json", summary)):
        if path is None:
            continue
        if path.is_dir():
            raise ConfigError(flag, f"{path} is a directory; give a file name")
        if not path.parent.is_dir():
            raise ConfigError(flag, f"folder {path.parent} does not exist")
    if data_dir.exists() and not data_dir.is_dir():
        raise ConfigError("crawl.data_dir", f"{data_dir} exists and is not a directory")


def _report(
    stats: RunStats, args: argparse.Namespace, interrupted: bool, *, lost: bool = False
) -> None:
    summary = stats.summary()
    summary["interrupted"] = interrupted
    if lost:  # a --processes parent lets the others find it out themselves
        summary[LOST_KEY] = True
    if not args.quiet:
        print(format_summary(summary), file=sys.stderr)
        if interrupted:
            print("interrupted: run the same command with --resume to continue", file=sys.stderr)
    if args.summary_json:
        args.summary_json.write_text(json.dumps(summary, ensure_ascii=False, indent=2), "utf-8")


#: ``--resume`` of a data directory whose first crawl stopped before it stored its seeds
#: (a full disk at its start): refused, never an empty crawl that exits 0.
_NOTHING = "nothing to resume in {}: the first crawl stopped before it stored its seeds; give them"
