"""``indexer extract FILE...``: decode and extract saved pages and documents, one JSON line
per file.

The format is decided as in a crawl (:func:`indexer.extract.formats.sniff.decide`, from the
bytes, ``--content-type`` and the file name); documents are parsed in a document worker with
the ``extract.*`` limits, so a hostile file ends with the outcome a crawl would give it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from indexer.cli.options import load_from_args
from indexer.encoding import decode_body
from indexer.errors import DocumentError, IndexerError
from indexer.extract import extract
from indexer.extract.formats.sniff import decide
from indexer.models import DecodedText, ExtractedDoc
from indexer.pipeline.documents import document_workers
from indexer.pipeline.docworkers import DocumentWorkers, Job


def add_parser(subparsers: Any) -> None:
    """Register ``extract`` on the top-level sub-parsers."""
    parser = subparsers.add_parser(
        "extract",
        help="extract title, main text and metadata from saved pages and documents",
        description="Print one JSON line per FILE (HTML, PDF, DOCX, XLSX, PPTX, text, CSV) "
        "with the extracted document, or 'outcome' and 'error' fields when it is not "
        "indexable (wrong-type, parse-error, encrypted, no-text, …).",
    )
    parser.add_argument("--config", type=Path, help="TOML settings file (extract.* limits)")
    parser.add_argument("--url", default=None, help="page URL (default: the file's file: URL)")
    parser.add_argument(
        "--content-type", default=None, help="Content-Type header value (type and charset)"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.set_defaults(func=run)


def _record(path: Path, decoded: DecodedText, doc: ExtractedDoc) -> dict[str, Any]:
    record: dict[str, Any] = {"file": str(path), "encoding": decoded.encoding or None}
    record["encoding_source"] = decoded.source or None
    record.update(asdict(doc))
    record["robots"] = sorted(doc.robots)
    return record


async def extract_file(
    path: Path,
    url: str | None,
    content_type: str | None,
    workers: DocumentWorkers,
    formats: tuple[str, ...],
) -> dict[str, Any]:
    """Read one file, decide its format, parse it; return the JSON-ready record.

    The record has the :class:`~indexer.models.ExtractedDoc` fields (``robots`` as a
    sorted list) plus ``file``, ``encoding`` and ``encoding_source``; when the file is
    not indexable, ``file``, ``outcome`` and ``error``.
    """
    page_url = url or path.resolve().as_uri()
    try:
        body = path.read_bytes()
    except OSError as exc:
        return {"file": str(path), "outcome": "error", "error": f"{type(exc).__name__}: {exc}"}
    verdict = decide(body, content_type, page_url, formats)
    if verdict.format is None:
        return {"file": str(path), "outcome": verdict.outcome, "error": verdict.reason}
    if verdict.format == "html":
        try:
            decoded = decode_body(body, content_type)
            return _record(
                path, decoded, extract(decoded.text, page_url, encoding=decoded.encoding)
            )
        except IndexerError as exc:
            return {"file": str(path), "outcome": "extract-error", "error": str(exc)}
    answer = await workers.parse(Job(verdict.format, body, page_url, content_type))
    if isinstance(answer, DocumentError):
        return {"file": str(path), "outcome": answer.outcome, "error": answer.reason}
    return _record(path, answer.decoded, answer.extracted)


async def _extract_all(args: argparse.Namespace) -> None:
    settings = load_from_args(args, {}).settings
    with document_workers(settings, 1) as workers:
        for path in args.files:
            record = await extract_file(
                path, args.url, args.content_type, workers, settings.crawl.formats
            )
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
            sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Print one JSON line per file, in order; always 0 once the arguments parsed."""
    asyncio.run(_extract_all(args))
    return 0
