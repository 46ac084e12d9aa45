"""``indexer search``: query the /search handler and show hits with highlighted snippets."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from indexer.cli.options import add_common, add_solr_target, load_from_args, solr_flags
from indexer.solr.query import query_options
from indexer.solr.search import search
from indexer.solr.snippets import without_bidi

# The handler marks matches with <em>…</em>; the terminal shows them as 【…】.
MARKS = {"<em>": "【", "</em>": "】"}


def add_parser(sub: Any) -> None:
    """Register ``indexer search``."""
    p: argparse.ArgumentParser = sub.add_parser("search", help="search the index")
    p.add_argument("query", metavar="QUERY")
    add_common(p)
    add_solr_target(p)
    p.add_argument("--rows", type=int, default=10, help="hits to show (default 10)")
    p.add_argument("--json", action="store_true", help="print the hits as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the top hits. A query that is not searched (empty, too long, too complex)
    raises :class:`indexer.errors.QueryError` (``main()``: exit 2, one line says why);
    Solr not answering exits 1."""
    settings = load_from_args(args, solr_flags(args)).settings
    options = query_options(settings.search)
    result = search(settings.solr, args.query, rows=args.rows, options=options)
    for hit in result["hits"]:
        hit["title"] = without_bidi(hit["title"] or "")
        hit["snippets"] = [without_bidi(marked(s)) for s in hit["snippets"]]
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    for note in result["notes"]:
        print(f"note: {note}", file=sys.stderr)
    print(f"{result['numFound']} hits for {args.query!r}", file=sys.stderr)
    for i, hit in enumerate(result["hits"], 1):
        print(f"{i:>2}. {hit['title'] or '(no title)'}\n    {hit['url']}")
        for snippet in hit["snippets"]:
            print(f"    … {snippet} …")
    return 0


def marked(snippet: str) -> str:
    """The handler's ``<em>`` marks as the terminal's."""
    for tag, mark in MARKS.items():
        snippet = snippet.replace(tag, mark)
    return snippet
