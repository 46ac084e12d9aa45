"""Options and set-up shared by several commands: --config, verbosity, logging."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from indexer.settings import LoadedSettings, load_settings


def add_common(p: argparse.ArgumentParser) -> None:
    """Add ``--config FILE``, ``--data-dir DIR``, ``-v`` and ``-q`` to a sub-parser."""
    p.add_argument("--config", type=Path, help="TOML settings file")
    p.add_argument("--data-dir", type=Path, help="crawl state directory (crawl.data_dir)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors")


def load_from_args(args: argparse.Namespace, flags: dict[str, Any]) -> LoadedSettings:
    """Settings from ``--config``, the environment and ``flags`` (``{"fetch.delay": 0.5}``).

    Raises:
        ConfigError: as :func:`indexer.settings.load_settings`.
    """
    if getattr(args, "data_dir", None) is not None:
        flags.setdefault("crawl.data_dir", args.data_dir)
    return load_settings(args.config, flags)


def configure_logging(verbose: int, quiet: bool) -> None:
    """Log to stderr: INFO by default, DEBUG with ``-v``, WARNING with ``-q``."""
    level = logging.WARNING if quiet else logging.DEBUG if verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("aiohttp", "urllib3", "asyncio", "chardet"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
