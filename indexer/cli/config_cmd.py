"""``indexer config show``: the effective settings and where each came from."""

from __future__ import annotations

import argparse
import json
from typing import Any

from indexer.cli.options import add_common, load_from_args
from indexer.settings import describe


def add_parser(sub: Any) -> None:
    """Register ``indexer config``."""
    p: argparse.ArgumentParser = sub.add_parser("config", help="inspect settings")
    csub = p.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    show = csub.add_parser("show", help="print effective settings with their source")
    add_common(show)
    show.add_argument("--json", action="store_true", help="one JSON object per line")
    show.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print every setting: key, value, source (default, file, env, flag) and env name."""
    rows = describe(load_from_args(args, {}))
    for row in rows:
        if args.json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            value = json.dumps(row["value"], ensure_ascii=False)
            print(f"{row['key']:<28} = {value:<40} [{row['source']}] {row['env']}")
    return 0
