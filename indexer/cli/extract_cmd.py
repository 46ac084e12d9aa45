"""``indexer extract FILE...``: decode and extract saved pages and documents, one JSON line
per file.

The format is decided as in a crawl (:func:`indexer.extract.formats.sniff.decide`, from the
bytes, ``--content-type`` and the file name); documents are parsed in a document worker with
the ``extract.*`` limits, so a hostile file ends with the outcome a crawl would give it.

With ``--site DIR`` (every ``*.html``/``*.htm`` under DIR) or ``--learn`` (the FILEs
themselves) the pages are taken for one site's: its template is learnt from them first
(:mod:`indexer.extract.template`) and then left out of each page's text; otherwise the
per-page chain alone decides. ``--explain`` prints why each block of a page was kept or
dropped, one JSON line per block.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from indexer import formats as format_ids
from indexer.cli.options import add_profile, load_from_args
from indexer.encoding import decode_body
from indexer.errors import ConfigError, DocumentError, IndexerError
from indexer.extract import extract_page
from indexer.extract.formats.sniff import decide
from indexer.extract.profile import DEFAULT_PROFILE, Profile
from indexer.extract.template import (
    NO_TEMPLATE,
    MemoryTemplateStore,
    SiteTemplate,
    TemplateLearner,
)
from indexer.models import DecodedText, ExtractedDoc
from indexer.pipeline.documents import document_workers
from indexer.pipeline.docworkers import DocumentWorkers, Job

_SITE = "site"  # the one host of the pages given


#: Every parsed format, as ``--help`` names it (``text`` stays a word: it is no extension).
_FORMAT_NAMES = ", ".join(fmt if fmt == "text" else fmt.upper() for fmt in format_ids.PARSED)


def add_parser(subparsers: Any) -> None:
    """Register ``extract`` on the top-level sub-parsers."""
    parser = subparsers.add_parser(
        "extract",
        help="extract title, main text and metadata from saved pages and documents",
        description=f"Print one JSON line per FILE ({_FORMAT_NAMES}; DOC, XLS, PPT and RTF "
        "through the Tika service, extract.tika_*) with the extracted document, or "
        "'outcome' and 'error' fields when it is not indexable (wrong-type, parse-error, "
        "encrypted, no-text, …); with --explain, one "
        'JSON line per block of a page: {"action": "kept|dropped", "reason", "path", "text"}.',
    )
    parser.add_argument("--config", type=Path, help="TOML settings file (extract.* limits)")
    parser.add_argument("--url", default=None, help="page URL (default: the file's file: URL)")
    parser.add_argument(
        "--content-type", default=None, help="Content-Type header value (type and charset)"
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
    add_profile(parser)
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path)
    parser.set_defaults(func=run)


def _site_pages(directory: Path) -> list[Path]:
    """The HTML pages (``*.html``, ``*.htm``) under ``directory``, in name order.

    Raises:
        ConfigError: ``--site`` names no directory, or one without HTML pages (a template
            learnt from nothing would silently be none).
    """
    if not directory.is_dir():
        raise ConfigError("--site", f"{directory} is not a directory")
    pages = [
        path
        for path in sorted(directory.rglob("*"))
        if path.suffix.lower() in (".html", ".htm") and path.is_file()
    ]
    if not pages:
        raise ConfigError("--site", f"no .html or .htm pages under {directory}")
    return pages


def learn_template(paths: Iterable[Path], content_type: str | None = None) -> SiteTemplate:
    """The template of the site whose HTML pages are ``paths`` (unreadable files skipped).

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
    template: SiteTemplate = NO_TEMPLATE,
    explain: bool = False,
    profile: Profile = DEFAULT_PROFILE,
) -> dict[str, Any]:
    """Read one file, decide its format, parse it; return the JSON-ready record.

    The record has the :class:`~indexer.models.ExtractedDoc` fields (``robots`` as a
    sorted list) plus ``file``, ``encoding`` and ``encoding_source``; when the file is
    not indexable, ``file``, ``outcome`` and ``error``. An HTML page is extracted with
    ``template`` and ``profile`` (:mod:`indexer.extract.profile`); with ``explain`` its
    record also has ``decisions``.
    """
    page_url = url or path.resolve().as_uri()
    try:
        body = path.read_bytes()
    except OSError as exc:
        return {"file": str(path), "outcome": "error", "error": f"{type(exc).__name__}: {exc}"}
    verdict = decide(body, content_type, page_url, formats)
    if verdict.format is None or verdict.outcome:  # links-only: a crawl does not index it
        return {"file": str(path), "outcome": verdict.outcome, "error": verdict.reason}
    if verdict.format == "html":
        return _html_record(path, body, content_type, page_url, (template, explain, profile))
    answer = await workers.parse(Job(verdict.format, body, page_url, content_type))
    if isinstance(answer, DocumentError):
        return {"file": str(path), "outcome": answer.outcome, "error": answer.reason}
    return _record(path, answer.decoded, answer.extracted)


def _html_record(
    path: Path,
    body: bytes,
    content_type: str | None,
    url: str,
    how: tuple[SiteTemplate, bool, Profile],
) -> dict[str, Any]:
    template, explain, profile = how
    try:
        decoded = decode_body(body, content_type)
        page = extract_page(
            decoded.text,
            url,
            encoding=decoded.encoding,
            template=template,
            explain=explain,
            profile=profile,
        )
    except IndexerError as exc:
        return {"file": str(path), "outcome": "extract-error", "error": str(exc)}
    record = _record(path, decoded, page.doc)
    if explain:
        record["decisions"] = [json.loads(d.as_json()) for d in page.decisions]
    return record


async def _extract_all(args: argparse.Namespace) -> None:
    settings = load_from_args(args, {"extract.profile": args.profile}).settings
    template = NO_TEMPLATE
    if args.site is not None:
        template = learn_template(_site_pages(args.site), args.content_type)
    elif args.learn:
        template = learn_template(args.files, args.content_type)
    formats = settings.crawl.formats
    with document_workers(settings, 1) as workers:
        for path in args.files:
            record = await extract_file(
                path,
                args.url,
                args.content_type,
                workers,
                formats,
                template,
                args.explain,
                settings.extract.profile,
            )
            _write(record, path, several=len(args.files) > 1)


def _write(record: dict[str, Any], path: Path, several: bool) -> None:
    """The record as one JSON line, or with ``decisions`` one line per decision."""
    lines = record.get("decisions", [record])
    for line in lines:
        if several and line is not record:
            line["file"] = str(path)
        sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Print one JSON line per file, in order; always 0 once the arguments parsed."""
    asyncio.run(_extract_all(args))
    return 0
