"""``indexer extract FILE...``: decode and extract saved pages, one JSON line per file."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from indexer.encoding import decode_body
from indexer.errors import IndexerError
from indexer.extract import extract


def add_parser(subparsers: Any) -> None:
    """Register ``extract`` on the top-level sub-parsers."""
    parser = subparsers.add_parser(
        "extract",
        help="extract title, main text and metadata from saved HTML files",
        description="Print one JSON line per FILE with the extracted document "
        "(or an 'error' field when the file cannot be read or parsed).",
    )
    parser.add_argument("--url", default=None, help="page URL (default: the file's file: URL)")
    parser.add_argument(
        "--content-type", default=None, help="Content-Type header value, for its charset"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.set_defaults(func=run)


def extract_file(path: Path, url: str | None, content_type: str | None) -> dict[str, Any]:
    """Read, decode and extract one file; return the JSON-ready record.

    The record has the :class:`~indexer.models.ExtractedDoc` fields (``robots`` as a
    sorted list) plus ``file`` and ``encoding``; on failure ``file`` and ``error``.
    """
    page_url = url or path.resolve().as_uri()
    try:
        body = path.read_bytes()
        decoded = decode_body(body, content_type)
        doc = extract(decoded.text, page_url, encoding=decoded.encoding)
    except (OSError, IndexerError) as exc:
        return {"file": str(path), "error": f"{type(exc).__name__}: {exc}"}
    record: dict[str, Any] = {"file": str(path), "encoding": decoded.encoding}
    record.update(asdict(doc))
    record["robots"] = sorted(doc.robots)
    return record


def run(args: argparse.Namespace) -> int:
    """Print one JSON line per file, in order; always 0 once the arguments parsed."""
    for path in args.files:
        record = extract_file(path, args.url, args.content_type)
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0
