"""``indexer search``: query the /search handler and show hits with highlighted snippets."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from indexer.cli.common import add_common, load_from_args
from indexer.errors import QueryError
from indexer.solr.query import QueryOptions
from indexer.solr.search import search

# The handler marks matches with <em>…</em>; the terminal shows them as 【…】.
MARKS = {"<em>": "【", "</em>": "】"}


def add_parser(sub: Any) -> None:
    """Register ``indexer search``."""
    p: argparse.ArgumentParser = sub.add_parser("search", help="search the index")
    p.add_argument("query", metavar="QUERY")
    add_common(p)
    p.add_argument("--solr", help="Solr base URL (solr.url)")
    p.add_argument("--core", help="core or collection (solr.core)")
    p.add_argument("--collection", help="SolrCloud collection (solr.collection)")
    p.add_argument("--rows", type=int, default=10, help="hits to show (default 10)")
    p.add_argument("--json", action="store_true", help="print the hits as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the top hits; exit 2 for a query that is not searched (empty, too long, too
    complex: one line says why), 1 when Solr cannot be asked."""
    settings = load_from_args(
        args, {"solr.url": args.solr, "solr.core": args.core, "solr.collection": args.collection}
    ).settings
    options = QueryOptions(
        max_chars=settings.search.max_query_chars,
        allow_fuzzy=settings.search.allow_fuzzy,
        allow_leading_wildcard=settings.search.allow_leading_wildcard,
    )
    try:
        result = search(settings.solr, args.query, rows=args.rows, options=options)
    except QueryError as exc:
        print(f"indexer search: {exc}", file=sys.stderr)
        return 2
    for hit in result["hits"]:
        hit["snippets"] = [marked(s) for s in hit["snippets"]]
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
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
