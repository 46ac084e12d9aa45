"""``indexer detect``: show how a file's bytes decode (encoding, source, replacements)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from indexer.encoding import decode_body
from indexer.errors import ConfigError


def add_parser(sub: Any) -> None:
    """Register ``indexer detect``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "detect",
        help="detect a file's character encoding",
        description="Decode FILE the way the crawler does and print the result as one JSON "
        'line {"encoding", "source", "replacements"}, or the text with --text.',
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the file to decode")
    p.add_argument(
        "--content-type",
        metavar="VALUE",
        help='an HTTP Content-Type, e.g. "text/html; charset=x-sjis"',
    )
    p.add_argument("--text", action="store_true", help="print the decoded text (UTF-8)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the decode of ``args.file``; 0 always (binary too).

    Raises:
        ConfigError: the file cannot be read (exit 2, a usage error).
    """
    try:
        body = args.file.read_bytes()
    except OSError as exc:
        raise ConfigError("FILE", f"cannot read {args.file}: {exc.strerror or exc}") from None
    decoded = decode_body(body, args.content_type)
    if args.text:
        sys.stdout.buffer.write(decoded.text.encode("utf-8", "replace"))
        sys.stdout.buffer.flush()
        return 0
    line = {
        "encoding": decoded.encoding,
        "source": decoded.source,
        "replacements": decoded.replacements,
    }
    print(json.dumps(line, ensure_ascii=False))
    return 0
