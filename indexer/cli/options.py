"""What the commands share: exit codes, options (--config, --data-dir, -v/-q, the Solr
target --solr/--core/--collection), loading settings from them, logging."""

from __future__ import annotations

import argparse
import logging
from enum import IntEnum
from pathlib import Path
from typing import Any

from indexer.extract.profile import PROFILES
from indexer.settings import LoadedSettings, load_settings


class ExitCode(IntEnum):
    """Process exit codes of every command (``main()`` maps errors to them)."""

    OK = 0
    FAILURE = 1  #: a runtime failure (Solr down, a file that cannot be written, …)
    USAGE = 2  #: bad usage, configuration or state file; the message names it
    GUARD = 3  #: refused by a safety guard (reindex's mass-delete guard)
    INTERRUPTED = 130  #: stopped by SIGINT/SIGTERM (128 + 2, the shell's convention)


def add_common(p: argparse.ArgumentParser) -> None:
    """Add ``--config FILE``, ``--data-dir DIR``, ``-v`` and ``-q`` to a sub-parser."""
    p.add_argument("--config", type=Path, help="TOML settings file")
    p.add_argument("--data-dir", type=Path, help="crawl state directory (crawl.data_dir)")
    p.add_argument("--frontier", metavar="URL", help="PostgreSQL frontier (frontier.url)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors")


def add_solr_target(p: argparse.ArgumentParser) -> None:
    """Add ``--solr URL``, ``--core NAME`` and ``--collection NAME`` (``solr.url``,
    ``solr.core``, ``solr.collection``); read them back with :func:`solr_flags`."""
    p.add_argument("--solr", help="Solr base URL (solr.url)")
    p.add_argument("--core", help="core or collection (solr.core)")
    p.add_argument("--collection", help="SolrCloud collection (solr.collection)")


def add_profile(p: argparse.ArgumentParser) -> None:
    """Add ``--profile search|precision`` (``extract.profile``, :mod:`indexer.extract.profile`)."""
    p.add_argument(
        "--profile",
        choices=PROFILES,
        help="extraction profile: search (recall first, the default) or precision "
        "(the article only) (extract.profile)",
    )


def solr_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings flags of :func:`add_solr_target`'s options (None: not given)."""
    return {"solr.url": args.solr, "solr.core": args.core, "solr.collection": args.collection}


def load_from_args(args: argparse.Namespace, flags: dict[str, Any]) -> LoadedSettings:
    """Settings from ``--config``, the environment and ``flags`` (``{"fetch.delay": 0.5}``).

    Raises:
        ConfigError: as :func:`indexer.settings.load_settings`.
    """
    if getattr(args, "data_dir", None) is not None:
        flags.setdefault("crawl.data_dir", args.data_dir)
    if getattr(args, "frontier", None) is not None:
        flags.setdefault("frontier.url", args.frontier)
    return load_settings(args.config, flags)


def configure_logging(verbose: int, quiet: bool) -> None:
    """Log to stderr: INFO by default, DEBUG with ``-v``, WARNING with ``-q``."""
    level = logging.WARNING if quiet else logging.DEBUG if verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("aiohttp", "urllib3", "asyncio", "chardet"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
