"""``indexer tika build``: build the Tika service (DOC, XLS, PPT, RTF) ahead of a crawl.

A crawl or ``indexer extract`` builds it by itself at the first document that needs it
(:func:`indexer.extract.formats.tika_service.ready_classpath`); this does it ahead, for
an install whose crawls must not wait a minute or two, or to see a failing build's output.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from indexer.cli.options import ExitCode, configure_logging, load_from_args
from indexer.extract.formats.tika_service import build_tika_service


def add_parser(subparsers: Any) -> None:
    """Register ``tika`` with its ``build`` action."""
    parser = subparsers.add_parser("tika", help="build the Tika service (DOC/XLS/PPT/RTF)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build it with Maven now (else: at first need)")
    build.add_argument("--config", type=Path, help="TOML settings (extract.tika_service_dir)")
    build.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the service of ``extract.tika_service_dir`` when stale; print its jar and the
    time taken. Errors (:class:`~indexer.errors.TikaServiceError`: no Maven, a failed build
    with its last lines) are exit 1 through :func:`indexer.cli.main`."""
    configure_logging(0, args.quiet)
    settings = load_from_args(args, {})
    started = time.monotonic()
    classpath = build_tika_service(settings.settings.extract.tika_service_dir)
    print(f"Tika service ready: {classpath[0]} ({time.monotonic() - started:.0f} s)")
    return ExitCode.OK
