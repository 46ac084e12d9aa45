"""``indexer search``: query the /search handler and show hits with highlighted snippets."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from indexer.cli.options import add_common, add_solr_target, load_from_args, solr_flags
from indexer.solr.search import search


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
    """Print the top hits; exit 1 when Solr cannot be asked."""
    settings = load_from_args(args, solr_flags(args)).settings
    result = search(settings.solr, args.query, rows=args.rows)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{result['numFound']} hits for {args.query!r}", file=sys.stderr)
    for i, hit in enumerate(result["hits"], 1):
        print(f"{i:>2}. {hit['title'] or '(no title)'}\n    {hit['url']}")
        for snippet in hit["snippets"]:
            print(f"    … {snippet} …")
    return 0
