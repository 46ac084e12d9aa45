"""``indexer delete``: remove documents from the index and forget them in the frontier."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from yarl import URL

from indexer.cli.options import add_common, add_solr_target, load_from_args, solr_flags
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.urls import host_of, normalize_url
from indexer.errors import ConfigError, InvalidURLError, SolrError
from indexer.index.outbox import OUTBOX, Outbox
from indexer.index.writer import SolrWriter
from indexer.pipeline.reconcile import MISSED
from indexer.settings import Settings
from indexer.solr.search import count, term_query


def add_parser(sub: Any) -> None:
    """Register ``indexer delete``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "delete", help="remove a URL or a whole host from the index and the frontier"
    )
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--url", help="the page's URL (its document id)")
    target.add_argument("--host", help="every document of this host (host[:port])")
    add_common(p)
    add_solr_target(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Delete and commit; exit 1 when Solr fails (the URL or host is then buried and
    forgotten all the same, and a later run deletes it: :func:`_pending`), 2 for a URL or
    host that cannot be read.

    Adds of the URL or host still waiting in the outbox (a crawl killed before its drain)
    become deletes in one transaction first, so the next crawl cannot bring them back. The
    URL or host is buried in the frontier first (:mod:`indexer.crawl.frontier.tombstones`):
    no ``crawl --resume`` or ``reindex`` brings it back through the stored seeds, scope or
    outlinks; ``indexer crawl`` naming it as a seed lifts the tombstone.
    """
    settings = load_from_args(args, solr_flags(args)).settings
    with open_frontier(settings, create=False) as frontier:
        frontier.data_dir.verify((OUTBOX, MISSED))
        outbox = Outbox(frontier.data_dir.outbox)
        try:
            found, forgotten = _delete(args, settings, frontier, outbox)
        except SolrError as exc:  # buried and forgotten already: the next run deletes it
            print(f"indexer: {exc}", file=sys.stderr)
            print(_pending(bool(args.url)), file=sys.stderr)
            return 1
        finally:
            outbox.close()
    _say(args, found, forgotten)
    return 0


def _delete(
    args: argparse.Namespace, settings: Settings, frontier: Frontier, outbox: Outbox
) -> tuple[int, int]:
    """Bury, retract, forget, then delete in Solr; returns (documents Solr held, URLs
    forgotten). Raises SolrError when Solr does not take it."""
    writer = SolrWriter(settings.solr)
    if args.url:
        doc_id = _url_argument(args.url, settings.crawl.strip_params)
        frontier.tombstones.bury_url(doc_id)
        queued = outbox.retract(lambda i: i == doc_id, also=[doc_id])
        forgotten = frontier.forget([doc_id])
        found = count(settings.solr, term_query("id", doc_id))
        writer.update([], queued)
        writer.commit()
    else:
        host = _host_argument(args.host)
        frontier.tombstones.bury_host(host)
        queued = outbox.retract(lambda i: host_of(i) == host)
        forgotten = frontier.forget_host(host)
        found = count(settings.solr, term_query("host", host))
        writer.update([], queued)
        writer.delete_query(term_query("host", host))
    outbox.settle_deletes(queued)
    return found, forgotten


def _pending(url: bool) -> str:
    """What a delete that Solr did not take leaves behind, and how it reaches Solr: a
    URL's delete waits in the outbox, a host's in its tombstone (reindex deletes what
    Solr holds of a buried URL or host)."""
    later = "`indexer crawl --resume` or `indexer reindex`" if url else "`indexer reindex`"
    return (
        "indexer: the delete is recorded (forgotten in the frontier, no crawl brings it "
        f"back) but Solr still holds it: the next {later} deletes it, or run this again"
    )


def _say(args: argparse.Namespace, found: int, forgotten: int) -> None:
    """What was deleted, and how a user brings it back (a seed lifts the tombstone)."""
    print(
        f"deleted {found} document(s) from the index; {forgotten} URL(s) forgotten in the frontier",
        file=sys.stderr,
    )
    target = args.url or f"URL (any URL of {args.host})"
    if not found and not forgotten:  # the tombstone is written all the same
        hint = "" if args.url else " (hosts are written host[:port])"
        print(f"indexer: nothing matched{hint}; no crawl fetches it from now on", file=sys.stderr)
    else:
        print("it stays deleted: no `crawl --resume` or `reindex` brings it back", file=sys.stderr)
    print(f"to index it again, give it as a seed: indexer crawl {target}", file=sys.stderr)


def _url_argument(value: str, strip_params: tuple[str, ...]) -> str:
    try:
        return normalize_url(value, strip_params)
    except InvalidURLError as exc:
        raise ConfigError("--url", str(exc)) from None


def _host_argument(value: str) -> str:
    """``host[:port]`` from what the user gave: a host, or a URL of that host."""
    text = value.strip()
    if "://" in text:
        try:
            url = normalize_url(text)
        except InvalidURLError as exc:
            raise ConfigError("--host", str(exc)) from None
        if URL(url).path not in ("", "/"):
            raise ConfigError("--host", "give a host or a site's root URL (--url deletes a page)")
        return host_of(url)
    return text.strip("/").lower()
