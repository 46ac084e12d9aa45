"""``indexer extract FILE...``: decode and extract saved pages, one JSON line per file.

With ``--site DIR`` (every ``*.html``/``*.htm`` under DIR) or ``--learn`` (the FILEs
themselves) the pages are taken for one site's: its template is learnt from them first
(:mod:`indexer.extract.template`) and then left out of each FILE's text. Otherwise the
per-page chain alone decides. ``--explain`` prints why each block was kept or dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from indexer.encoding import decode_body
from indexer.errors import IndexerError
from indexer.extract import extract_page
from indexer.extract.template import (
    NO_TEMPLATE,
    MemoryTemplateStore,
    SiteTemplate,
    TemplateLearner,
)

_SITE = "site"  # the one host of the pages given


def add_parser(subparsers: Any) -> None:
    """Register ``extract`` on the top-level sub-parsers."""
    parser = subparsers.add_parser(
        "extract",
        help="extract title, main text and metadata from saved HTML files",
        description="Print one JSON line per FILE with the extracted document "
        "(or an 'error' field when the file cannot be read or parsed); with --explain, "
        'one JSON line per block: {"action": "kept|dropped", "reason", "path", "text"}.',
    )
    parser.add_argument("--url", default=None, help="page URL (default: the file's file: URL)")
    parser.add_argument(
        "--content-type", default=None, help="Content-Type header value, for its charset"
    )
    parser.add_argument(
        "--explain", action="store_true", help="print why each block was kept or dropped"
    )
    parser.add_argument(
        "--site", type=Path, metavar="DIR", help="learn the site's template from DIR's pages"
    )
    parser.add_argument(
        "--learn", action="store_true", help="learn the site's template from the FILEs"
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.set_defaults(func=run)


def _site_pages(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.rglob("*")):
        if path.suffix.lower() in (".html", ".htm") and path.is_file():
            yield path


def learn_template(paths: Iterable[Path], content_type: str | None = None) -> SiteTemplate:
    """The template of the site whose pages are ``paths`` (unreadable files are skipped).

    Returns:
        the template (not ``known`` when too few pages to tell, see
        ``TemplateParams.min_pages``).
    """
    learner = TemplateLearner(MemoryTemplateStore())
    for path in paths:
        try:
            decoded = decode_body(path.read_bytes(), content_type)
            page = extract_page(decoded.text, path.resolve().as_uri(), learn=True)
        except (OSError, IndexerError):
            continue
        learner.observe(_SITE, page.keys)
    return learner.template(_SITE)


def extract_file(
    path: Path,
    url: str | None,
    content_type: str | None,
    template: SiteTemplate = NO_TEMPLATE,
    explain: bool = False,
) -> dict[str, Any]:
    """Read, decode and extract one file; return the JSON-ready record.

    The record has the :class:`~indexer.models.ExtractedDoc` fields (``robots`` as a
    sorted list) plus ``file`` and ``encoding`` (and ``decisions`` with ``explain``);
    on failure ``file`` and ``error``.
    """
    page_url = url or path.resolve().as_uri()
    try:
        body = path.read_bytes()
        decoded = decode_body(body, content_type)
        page = extract_page(
            decoded.text, page_url, encoding=decoded.encoding, template=template, explain=explain
        )
    except (OSError, IndexerError) as exc:
        return {"file": str(path), "error": f"{type(exc).__name__}: {exc}"}
    doc = page.doc
    record: dict[str, Any] = {"file": str(path), "encoding": decoded.encoding}
    record.update(asdict(doc))
    record["robots"] = sorted(doc.robots)
    if explain:
        record["decisions"] = [json.loads(d.as_json()) for d in page.decisions]
    return record


def run(args: argparse.Namespace) -> int:
    """Print one JSON line per file (or per block with ``--explain``), in order; always 0
    once the arguments parsed."""
    template = NO_TEMPLATE
    if args.site is not None:
        template = learn_template(_site_pages(args.site), args.content_type)
    elif args.learn:
        template = learn_template(args.files, args.content_type)
    several = len(args.files) > 1
    for path in args.files:
        record = extract_file(path, args.url, args.content_type, template, args.explain)
        if not args.explain or "error" in record:
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
            continue
        for decision in record["decisions"]:
            if several:
                decision["file"] = str(path)
            sys.stdout.write(json.dumps(decision, ensure_ascii=False) + "\n")
    return 0
