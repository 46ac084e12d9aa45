"""Reindex jobs: recrawl what the frontier knows, update what changed, delete what is gone.

1. Every URL reached before is queued again; the refetch is a conditional GET (stored ETag /
   Last-Modified), and a page whose main-content hash is unchanged is not re-sent, unless
   its document is missing from Solr (then it is fetched in full and sent again).
2. Pages answering 404/410 or turning ``noindex`` are planned for deletion.
3. Reconciliation with Solr itself (:mod:`indexer.pipeline.reconcile`): documents of the
   crawled hosts that this run did not reach are deleted after
   ``reindex.delete_grace_runs`` missed runs in a row; this also catches documents the
   frontier forgot. The guard refuses all deletes when too many of a host's would go.

The job's run record goes through the crawl's phases, then ``reconciling``, and ends
``finished`` or ``refused`` (:mod:`indexer.pipeline.phases`); an interrupted or failed
recrawl is not reconciled (its unreached pages would count as missed).

A dry run works on a copy of the frontier, sends nothing to Solr and reports each planned
change; the real data directory and the index are left as they were.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier import Frontier
from indexer.crawl.urls import host_of
from indexer.index.client import SolrClient, in_thread
from indexer.index.outbox import OUTBOX, claim_outbox
from indexer.index.writer import SolrWriter
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.pipeline.phases import Phase, RunEnd
from indexer.pipeline.reconcile import MISSED, MissedRuns, forget, guard, reconcile
from indexer.pipeline.verdict import ReindexPolicy
from indexer.report import RunStats
from indexer.settings import Settings

ChangeCallback = Callable[[str, str], None]


@dataclass
class ReindexResult:
    """What a reindex job did or would do.

    Attributes:
        stats: the recrawl's counters.
        deletes: planned deletions by host (gone pages and reconciliation).
        refused: guard messages; non-empty means nothing was deleted, unless forced.
        deleted: documents deleted from Solr.
        end: how the job's run ended (None only if the recrawl raised).
    """

    stats: RunStats
    deletes: dict[str, list[str]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    deleted: int = 0
    end: RunEnd | None = None


async def reindex(
    settings: Settings,
    *,
    force: bool = False,
    dry_run: bool = False,
    on_change: ChangeCallback | None = None,
    client: SolrClient | None = None,
) -> ReindexResult:
    """Run one reindex job over ``settings.crawl.data_dir``.

    Args:
        settings: validated settings (``crawl``, ``fetch``, ``solr``, ``reindex``).
        force: apply deletions even when the guard trips.
        dry_run: change nothing; report planned changes through ``on_change``.
        on_change: ``(action, doc_id)``, action ``add``, ``update`` or ``delete``; client:
            the Solr client (default: a :class:`SolrWriter` for ``settings.solr``).
    Raises:
        StateError: ``crawl.data_dir`` holds no crawl state, or a broken state file.
        CrawlLockedError: another crawl uses it. SolrError: Solr cannot list its documents.
    """
    data_dir = settings.crawl.data_dir
    solr = client or SolrWriter(settings.solr)
    with Frontier(data_dir, create=False) as frontier:
        frontier.data_dir.verify((OUTBOX, MISSED))
        if not dry_run:
            claim_outbox(frontier)
            return await _run(settings, solr, frontier, data_dir, force, False, on_change)
        with tempfile.TemporaryDirectory(prefix="indexer-dry-run-") as tmp:
            frontier.copy_to(Path(tmp))
            if DataDir(data_dir).missed.exists():
                missed = MissedRuns(DataDir(data_dir).missed)
                try:
                    missed.copy_to(DataDir(Path(tmp)).missed)
                finally:
                    missed.close()
            scratch = settings.model_copy(
                update={"crawl": settings.crawl.model_copy(update={"data_dir": Path(tmp)})}
            )
            with Frontier(Path(tmp)) as copy:
                return await _run(scratch, solr, copy, Path(tmp), force, True, on_change)


async def _run(
    settings: Settings,
    client: SolrClient,
    frontier: Frontier,
    data_dir: Path,
    force: bool,
    dry_run: bool,
    on_change: ChangeCallback | None,
) -> ReindexResult:
    hosts = frontier.known_hosts()
    crawler = await _recrawl(settings, client, frontier, hosts, dry_run, on_change)
    result = ReindexResult(crawler.stats, end=crawler.end)
    if crawler.end is None or crawler.end.phase != Phase.FINISHED:
        return result
    crawler.phases.enter(Phase.RECONCILING)
    planned: dict[str, set[str]] = defaultdict(set)
    for doc_id in crawler.sink.deferred_deletes:
        planned[host_of(doc_id)].add(doc_id)
    after = await in_thread(_ids_by_host, client, hosts)
    totals = reconcile(settings, frontier, data_dir, after, planned, crawler.scope.allows)
    result.deletes = {h: sorted(ids) for h, ids in planned.items() if ids}
    result.refused = guard(settings, result.deletes, totals)
    if result.refused and not force and not dry_run:  # a dry run still shows the plan
        result.end = crawler.phases.end(Phase.REFUSED, "; ".join(result.refused))
        return result
    for ids in result.deletes.values():
        for doc_id in ids:
            if on_change is not None:
                on_change("delete", doc_id)
    ids = [doc_id for group in result.deletes.values() for doc_id in group]
    if not dry_run and ids:
        await in_thread(_delete_from_solr, client, settings.solr.batch_size, ids)
        forget(data_dir, frontier, ids)
        result.deleted = len(ids)
    result.end = crawler.phases.end(Phase.REFUSED if result.refused and dry_run else Phase.FINISHED)
    return result


async def _recrawl(
    settings: Settings,
    client: SolrClient,
    frontier: Frontier,
    hosts: list[str],
    dry_run: bool,
    on_change: ChangeCallback | None,
) -> Crawler:
    """Crawl every known host again under the reindex policy; the run is left open for
    reconciliation (``keep_open``)."""
    crawl = settings.crawl.model_copy(
        update={"allow_hosts": (*settings.crawl.allow_hosts, *hosts), "resume": False}
    )
    scoped = settings.model_copy(update={"crawl": crawl})
    before = await in_thread(_ids_by_host, client, hosts)
    present = frozenset(doc_id for ids in before.values() for doc_id in ids)
    options = CrawlOptions(
        use_solr=not dry_run,
        reindex=ReindexPolicy(present=present),
        on_change=on_change,
        client=client,
        keep_open=True,
    )
    crawler = Crawler(scoped, frontier, options)
    await crawler.run()
    return crawler


def _ids_by_host(client: SolrClient, hosts: list[str]) -> dict[str, list[str]]:
    """Every document id Solr holds for each of ``hosts`` (blocking: run in a thread)."""
    return {host: client.host_ids(host) for host in hosts}


def _delete_from_solr(client: SolrClient, batch: int, ids: list[str]) -> None:
    """Delete ``ids`` in batches of ``batch`` and commit (blocking: run in a thread)."""
    for start in range(0, len(ids), batch):
        client.update([], ids[start : start + batch])
    client.commit()
