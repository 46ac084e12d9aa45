"""Reindex jobs: recrawl what the frontier knows, update what changed, delete what is gone.

1. Every URL reached before is queued again; the refetch is a conditional GET (stored ETag /
   Last-Modified), and a page whose main-content hash is unchanged is not re-sent, unless
   its document is missing from Solr (then it is fetched in full and sent again).
2. Pages answering 404/410 or turning ``noindex`` are planned for deletion.
3. Reconciliation with Solr itself (:mod:`indexer.pipeline.reconcile`): documents of the
   crawled hosts that this run did not reach are deleted after
   ``reindex.delete_grace_runs`` missed runs in a row; this also catches documents the
   frontier forgot. The guard refuses all deletes when too many of a host's would go.

A dry run works on a copy of the frontier, sends nothing to Solr and reports each planned
change; the real data directory and the index are left as they were.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.frontier import Frontier
from indexer.crawl.urls import host_of
from indexer.errors import ConfigError
from indexer.index.writer import SolrWriter
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.pipeline.reconcile import forget, guard, reconcile
from indexer.pipeline.verdict import ReindexPolicy
from indexer.report import RunStats
from indexer.settings import Settings
from indexer.solr.search import host_ids

ChangeCallback = Callable[[str, str], None]


@dataclass
class ReindexResult:
    """What a reindex job did or would do.

    Attributes:
        stats: the recrawl's counters.
        deletes: planned deletions by host (gone pages and reconciliation).
        refused: guard messages; non-empty means nothing was deleted, unless forced.
        deleted: documents deleted from Solr.
    """

    stats: RunStats
    deletes: dict[str, list[str]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    deleted: int = 0


async def reindex(
    settings: Settings,
    *,
    force: bool = False,
    dry_run: bool = False,
    on_change: ChangeCallback | None = None,
) -> ReindexResult:
    """Run one reindex job over ``settings.crawl.data_dir``.

    Args:
        settings: validated settings (``crawl``, ``fetch``, ``solr``, ``reindex``).
        force: apply deletions even when the guard trips.
        dry_run: change nothing; report planned changes through ``on_change``.
        on_change: called as ``(action, doc_id)``, action ``add``, ``update`` or ``delete``.

    Raises:
        ConfigError: ``crawl.data_dir`` holds no crawl state.
        CrawlLockedError: another crawl uses the data directory.
        SolrUnavailableError, SolrError: Solr cannot be asked for its documents.
    """
    data_dir = settings.crawl.data_dir
    if not (data_dir / "frontier.sqlite3").is_file():
        raise ConfigError("crawl.data_dir", f"no crawl state in {data_dir}: crawl first")
    with Frontier(data_dir) as frontier:
        if not dry_run:
            return await _run(settings, frontier, data_dir, force, False, on_change)
        with tempfile.TemporaryDirectory(prefix="indexer-dry-run-") as tmp:
            frontier.copy_to(Path(tmp))
            if (data_dir / "missed.sqlite3").exists():
                _copy_db(data_dir / "missed.sqlite3", Path(tmp) / "missed.sqlite3")
            scratch = settings.model_copy(
                update={"crawl": settings.crawl.model_copy(update={"data_dir": Path(tmp)})}
            )
            with Frontier(Path(tmp)) as copy:
                return await _run(scratch, copy, Path(tmp), force, True, on_change)


async def _run(
    settings: Settings,
    frontier: Frontier,
    data_dir: Path,
    force: bool,
    dry_run: bool,
    on_change: ChangeCallback | None,
) -> ReindexResult:
    hosts = frontier.known_hosts()
    crawl = settings.crawl.model_copy(
        update={"allow_hosts": (*settings.crawl.allow_hosts, *hosts), "resume": False}
    )
    scoped = settings.model_copy(update={"crawl": crawl})
    before = await asyncio.to_thread(_ids_by_host, settings, hosts)
    present = frozenset(doc_id for ids in before.values() for doc_id in ids)
    options = CrawlOptions(
        use_solr=not dry_run, reindex=ReindexPolicy(present=present), on_change=on_change
    )
    crawler = Crawler(scoped, frontier, options)
    stats = await crawler.run()
    result = ReindexResult(stats)
    planned: dict[str, set[str]] = defaultdict(set)
    for doc_id in crawler.sink.deferred_deletes:
        planned[host_of(doc_id)].add(doc_id)
    after = await asyncio.to_thread(_ids_by_host, settings, hosts)
    totals = reconcile(settings, frontier, data_dir, after, planned, crawler.scope.allows)
    result.deletes = {h: sorted(ids) for h, ids in planned.items() if ids}
    result.refused = guard(settings, result.deletes, totals)
    if result.refused and not force and not dry_run:  # a dry run still shows the plan
        return result
    for ids in result.deletes.values():
        for doc_id in ids:
            if on_change is not None:
                on_change("delete", doc_id)
    ids = [doc_id for group in result.deletes.values() for doc_id in group]
    if not dry_run and ids:
        await asyncio.to_thread(_delete_from_solr, settings, ids)
        forget(data_dir, frontier, ids)
        result.deleted = len(ids)
    return result


def _ids_by_host(settings: Settings, hosts: list[str]) -> dict[str, list[str]]:
    """Every document id Solr holds for each of ``hosts`` (blocking: run in a thread)."""
    return {host: host_ids(settings.solr, host) for host in hosts}


def _delete_from_solr(settings: Settings, ids: list[str]) -> None:
    """Delete ``ids`` in batches and commit (blocking: run in a thread)."""
    writer = SolrWriter(settings.solr)
    for start in range(0, len(ids), settings.solr.batch_size):
        writer.update([], ids[start : start + settings.solr.batch_size])
    writer.commit()


def _copy_db(source: Path, target: Path) -> None:
    src = sqlite3.connect(source)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
