"""Command-line entry point: ``indexer COMMAND ...``.

Each command lives in its own module under ``indexer.cli`` and exposes two functions:
``add_parser(subparsers) -> None`` registers its sub-parser, and the sub-parser sets
``func=run`` where ``run(args: argparse.Namespace) -> int`` returns the exit code.

Exit codes (:class:`indexer.cli.options.ExitCode`): 0 success, 1 runtime failure, 2 bad
usage, configuration or state file (the message names the setting or the file) or a search
query that is not searched (empty, too long), 3 refused
by a safety guard, 130 interrupted. :func:`main` is the only place that maps errors to
exit codes; the commands raise.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from types import ModuleType

from indexer.cli.options import ExitCode
from indexer.cli.stoppable import end_deferral
from indexer.errors import ConfigError, IndexerError, QueryError, StateError


def _command_modules() -> list[ModuleType]:
    # Imported here so that `indexer --help` stays fast and one broken command
    # module cannot hide the others' errors at import time.
    from indexer.cli import (
        config_cmd,
        crawl_cmd,
        delete_cmd,
        demo_cmd,
        detect_cmd,
        extract_cmd,
        reindex_cmd,
        report_cmd,
        search_cmd,
        serve_cmd,
        solr_cmd,
        tika_cmd,
    )

    return [
        crawl_cmd,
        report_cmd,
        reindex_cmd,
        delete_cmd,
        search_cmd,
        serve_cmd,
        demo_cmd,
        extract_cmd,
        detect_cmd,
        solr_cmd,
        tika_cmd,
        config_cmd,
    ]


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every command's sub-parser registered."""
    parser = argparse.ArgumentParser(
        prog="indexer",
        description="Crawl pages, decode them, extract main content, index into Solr.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _command_modules():
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (see the module docstring).

    SIGTERM is handled like SIGINT from the start (exit 130, "interrupted"), so a stop sent
    while a command is still setting up is not Python's default death by signal (143);
    a crawl's event loop installs its own handler once it runs, and a stop that comes while
    the command is ending waits for its end (:mod:`indexer.cli.stoppable`). ``argv`` None:
    this is the program (``sys.argv``), which exits with the code returned.
    """
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return _run(argv)
    finally:  # a stop that came while the command was ending waited for it (.stoppable)
        end_deferral(exiting=argv is None)


def _run(argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run its command, its errors mapped to exit codes."""
    try:
        args = build_parser().parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # `crawl --processes N`
        code: int = args.func(args)
    except ConfigError as exc:
        print(f"indexer: configuration error: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except (StateError, QueryError) as exc:
        print(f"indexer: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except IndexerError as exc:
        print(f"indexer: {exc}", file=sys.stderr)
        return ExitCode.FAILURE
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return ExitCode.OK
    except OSError as exc:  # a file or port the user named: say which, no traceback
        target = exc.filename or ""
        print(f"indexer: {exc.strerror or exc}{f': {target}' if target else ''}", file=sys.stderr)
        return ExitCode.FAILURE
    except KeyboardInterrupt:
        print("indexer: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
