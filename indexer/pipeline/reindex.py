"""Reindex jobs: recrawl what the frontier knows, update what changed, delete what is gone.

1. Every URL reached before is queued again; the refetch is a conditional GET (stored ETag /
   Last-Modified), and a page whose main-content hash is unchanged is not re-sent, unless
   its document is missing from Solr (then it is fetched in full and sent again).
   The job runs inside the scope stored with the data directory
   (:mod:`indexer.crawl.stored_scope`); its ``--include`` / ``--exclude`` narrow it.
2. Pages answering 410 or turning ``noindex`` are planned for deletion
   (:mod:`indexer.pipeline.grace`).
3. Reconciliation with Solr itself: every id Solr holds for the job's hosts and scope is
   queued too, so a document the frontier forgot is fetched and its answer decides. A
   document whose URL ended the run with a deleting outcome (404, ``login-required``, …)
   counts one missed run; after ``reindex.delete_grace_runs`` missed runs in a row it is
   planned for deletion. Documents not fetched (limits) or failing with a ``keep`` outcome
   (network, 5xx, site-wide duplicate) count nothing.
4. Guard: when the planned deletes of a host exceed ``reindex.max_delete_share`` of its
   documents in Solr, nothing at all is deleted (unless forced) and the job reports why.

A dry run works on a copy of the frontier, sends nothing to Solr and reports each planned
change; the real data directory and the index are left as they were.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.datadir import DataDir
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.frontier.progress import ProgressWriter
from indexer.crawl.scope import Scope, build_scope
from indexer.crawl.stored_scope import ScopePlan, load_scope, plan_scope, save_scope
from indexer.crawl.urls import host_of, site_of
from indexer.errors import FrontierLostError, SolrError
from indexer.index.client import SolrClient, in_thread
from indexer.index.outbox import OUTBOX, claim_outbox
from indexer.index.writer import SolrWriter
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.pipeline.join import refuse_while_crawled
from indexer.pipeline.outage import Stopped, patiently
from indexer.pipeline.phases import EXIT_CODES, Phase, RunEnd, RunPhases, StopEvent
from indexer.pipeline.reconcile import MISSED, MissedRuns, Refusal, forget, guard, reconcile
from indexer.pipeline.refresh import stale_ids
from indexer.pipeline.verdict import ReindexPolicy
from indexer.report import RunStats
from indexer.settings import Settings, Source

ChangeCallback = Callable[[str, str], None]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReindexJob:
    """A reindex job's own choices besides the settings.

    Attributes:
        force: apply deletions even when the guard trips.
        dry_run: change nothing; report planned changes through ``on_change``.
        include, exclude: regexes narrowing the stored scope (both must hold).
        rescope: given scope settings replace the stored scope (widening allowed).
        sources: where each setting came from (``indexer.settings.LoadedSettings``);
            None: no scope setting was given.
        refresh: also re-send documents stamped older than the code
            (:mod:`indexer.pipeline.refresh`), even when unchanged.
        stop: set it to stop the job within the crawl's stop budget (a signal); the run
            ends ``interrupted``, nothing is reconciled or deleted.
    """

    force: bool = False
    dry_run: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    rescope: bool = False
    sources: dict[str, Source] | None = None
    refresh: bool = False
    stop: asyncio.Event | None = None


@dataclass
class ReindexResult:
    """What a reindex job did or would do.

    Attributes:
        stats: the recrawl's counters.
        deletes: planned deletions by host (gone pages and reconciliation).
        refusals: the guard's refusals; non-empty means nothing was deleted, unless forced.
        deleted: documents deleted from Solr.
        scope: the scope the job ran with (changes by ``--rescope`` included).
        end: how the job's run ended (None only if the recrawl raised).
        refreshed: old-stamped documents taken up for re-sending (``job.refresh``).
    """

    stats: RunStats
    deletes: dict[str, list[str]] = field(default_factory=dict)
    refusals: list[Refusal] = field(default_factory=list)
    deleted: int = 0
    scope: ScopePlan | None = None
    end: RunEnd | None = None
    refreshed: int = 0
    lost: FrontierLostError | None = None

    @property
    def refused(self) -> list[str]:
        """The guard's messages, one per refused host."""
        return [r.message for r in self.refusals]


async def reindex(
    settings: Settings,
    *,
    force: bool = False,
    dry_run: bool = False,
    on_change: ChangeCallback | None = None,
    job: ReindexJob | None = None,
    client: SolrClient | None = None,
) -> ReindexResult:
    """Run one reindex job over ``settings.crawl.data_dir``; a Solr that cannot be asked
    for its ids before the recrawl (down, a 503) ends a recorded run ``failed`` (exit 1,
    Solr's answer as the reason), nothing fetched or deleted.

    Args:
        settings: validated settings (``crawl``, ``fetch``, ``solr``, ``reindex``).
        force: apply deletions even when the guard trips (or ``job.force``).
        dry_run: change nothing; report planned changes through ``on_change`` (or
            ``job.dry_run``).
        on_change: called as ``(action, doc_id)``, action ``add``, ``update`` or ``delete``.
        job: narrowing, ``--rescope`` and the settings' sources.
        client: the Solr client (default: a :class:`SolrWriter` for ``settings.solr``).

    Raises:
        StateError: ``crawl.data_dir`` holds no crawl state, or a broken state file.
        ConfigError: a scope setting differs from the stored scope without ``rescope``.
        CrawlLockedError: another crawl uses the data directory.
    """
    job = _effective(job, force, dry_run)
    data_dir = settings.crawl.data_dir
    solr = client or SolrWriter(settings.solr)
    with open_frontier(settings, create=False) as frontier:
        frontier.data_dir.verify((OUTBOX, MISSED))
        stored = load_scope(frontier)
        plan = plan_scope(
            stored, settings.crawl, job.sources or {}, rescope=job.rescope, data_dir=data_dir
        )
        if not job.dry_run:
            claim_outbox(frontier)
            return await _run(settings, solr, frontier, data_dir, job, plan, on_change)
        return await _dry_run(settings, solr, frontier, job, plan, on_change)


def _effective(job: ReindexJob | None, force: bool, dry_run: bool) -> ReindexJob:
    """The job with the ``force`` / ``dry_run`` arguments folded in (either may say so)."""
    base = job or ReindexJob()
    return dataclasses.replace(base, force=force or base.force, dry_run=dry_run or base.dry_run)


async def _dry_run(
    settings: Settings,
    client: SolrClient,
    frontier: Frontier,
    job: ReindexJob,
    plan: ScopePlan,
    on_change: ChangeCallback | None,
) -> ReindexResult:
    """Run the job on a copy of the frontier and missed-runs counts; nothing is sent."""
    data_dir = settings.crawl.data_dir
    with tempfile.TemporaryDirectory(prefix="indexer-dry-run-") as tmp:
        frontier.copy_to(Path(tmp))  # a shared frontier copies its grace counters too
        if frontier.shared is None and DataDir(data_dir).missed.exists():
            missed = MissedRuns(DataDir(data_dir).missed)
            try:
                missed.copy_to(DataDir(Path(tmp)).missed)
            finally:
                missed.close()
        scratch = settings.model_copy(
            update={"crawl": settings.crawl.model_copy(update={"data_dir": Path(tmp)})}
        )
        with Frontier(Path(tmp)) as copy:
            return await _run(scratch, client, copy, Path(tmp), job, plan, on_change)


def _job_settings(settings: Settings, frontier: Frontier, plan: ScopePlan) -> Settings:
    """The settings the recrawl runs with: the stored scope (or, for a data directory
    without one, the given settings plus every host the frontier knows)."""
    crawl = plan.crawl.model_copy(update={"resume": False, "data_dir": settings.crawl.data_dir})
    if not plan.stored:
        hosts = (*crawl.allow_hosts, *frontier.known_hosts())
        crawl = crawl.model_copy(update={"allow_hosts": hosts})
    return settings.model_copy(update={"crawl": crawl})


async def _recrawl(
    settings: Settings,
    client: SolrClient,
    frontier: Frontier,
    job: ReindexJob,
    plan: ScopePlan,
    on_change: ChangeCallback | None,
) -> tuple[Crawler, list[str], int]:
    """Crawl the job's hosts again under the reindex policy; the run is left open for
    reconciliation (``keep_open``). Returns the crawler, the hosts it covered and how many
    old-stamped documents count as absent from the index, so that they are fetched in full
    and sent even when unchanged (``job.refresh``)."""
    scoped = _job_settings(settings, frontier, plan)
    scope = build_scope(scoped.crawl, job.include, job.exclude)
    known = {*frontier.known_hosts(), *frontier.tombstones.hosts}  # a host whose delete failed
    hosts = sorted(h for h in known if site_of(h) in scope.sites)
    try:
        before = await in_thread(_ids_by_host, client, hosts)
        stale = await in_thread(stale_ids, settings.solr, hosts) if job.refresh else frozenset()
    except SolrError as exc:  # before the recrawl began: still a run, ended failed
        raise _NoIds(_failed_start(frontier, f"Solr failed before the recrawl: {exc}")) from exc
    # old-stamped ids count as absent: fetched in full and sent even when unchanged
    present = frozenset(i for ids in before.values() for i in ids) - stale
    options = CrawlOptions(
        use_solr=not job.dry_run,
        reindex=ReindexPolicy(present=present),
        on_change=on_change,
        recheck=_in_scope(before, scope),
        narrow_include=job.include,
        narrow_exclude=job.exclude,
        client=client,
        keep_open=True,
        stop=job.stop or StopEvent(),
    )
    crawler = Crawler(scoped, frontier, options)
    await _recrawled(crawler)
    if plan.to_store is not None and not options.stop.is_set():
        save_scope(frontier, plan.to_store)
    return crawler, hosts, len(stale)


async def _recrawled(crawler: Crawler) -> None:
    """Run the recrawl; the shared frontier going away leaves with the crawler (its stats
    and end: what the job did is printed before the one line), as :class:`_Lost`."""
    try:
        await crawler.run()
    except FrontierLostError as exc:
        raise _Lost(crawler, exc) from exc


class _Lost(Exception):
    """The shared frontier went away during the recrawl (its end: ``crawler.end``)."""

    def __init__(self, crawler: Crawler, error: FrontierLostError) -> None:
        super().__init__(str(error))
        self.crawler, self.error = crawler, error


class _NoIds(Exception):
    """Solr could not be asked for its ids before the recrawl; the run was recorded."""

    def __init__(self, end: RunEnd) -> None:
        super().__init__(end.reason)
        self.end = end


def _failed_start(frontier: Frontier, reason: str) -> RunEnd:
    """Record a run that failed before its recrawl began (exit 1, as any failed recrawl),
    so ``/admin`` and ``indexer report`` show it; the next job starts anew as usual."""
    run = frontier.start_run(resume=False)
    ProgressWriter(frontier.progress, "reindex").write(run, {}, (), {})  # shown as a reindex
    end = RunPhases(frontier).end(Phase.FAILED, reason)
    log.error("reindex failed: %s", end.reason)
    return end


async def _run(
    settings: Settings,
    client: SolrClient,
    frontier: Frontier,
    data_dir: Path,
    job: ReindexJob,
    plan: ScopePlan,
    on_change: ChangeCallback | None,
) -> ReindexResult:
    if not job.dry_run:  # a dry run changes nothing of the run being crawled
        refuse_while_crawled(frontier, "frontier.url", "run the reindex once it has ended")
    try:
        crawler, hosts, stale = await _recrawl(settings, client, frontier, job, plan, on_change)
    except _NoIds as failed:
        stats = RunStats()
        stats.ended(failed.end.phase, failed.end.stopped_in, failed.end.reason)
        return ReindexResult(stats, scope=plan, end=failed.end)
    except _Lost as lost:
        crawler = lost.crawler
        return ReindexResult(crawler.stats, scope=plan, end=crawler.end, lost=lost.error)
    result = ReindexResult(crawler.stats, scope=plan, end=crawler.end, refreshed=stale)
    if crawler.end is None or crawler.end.phase != Phase.FINISHED:
        return result  # interrupted or failed: not reconciled, nothing deleted
    crawler.phases.enter(Phase.RECONCILING)
    try:
        await _reconcile(crawler, client, hosts, data_dir, job, result, on_change)
    except Stopped:
        result.end = crawler.phases.end(Phase.INTERRUPTED, "stopped by a signal while reconciling")
    except SolrError as exc:  # an outage past solr.drain_timeout, or a refusal: said, ended
        result.end = crawler.phases.end(Phase.FAILED, f"Solr failed while reconciling: {exc}")
    except FrontierLostError as exc:  # the run stays open; the job is run again
        result.lost = exc
        result.end = RunEnd(Phase.FAILED, EXIT_CODES[Phase.FAILED], _LOST, Phase.RECONCILING)
        result.stats.ended(result.end.phase, result.end.stopped_in, _LOST)
    return result


#: The reason of a job whose shared frontier went away while reconciling.
_LOST = "the PostgreSQL of the shared frontier went away"


async def _reconcile(
    crawler: Crawler,
    client: SolrClient,
    hosts: list[str],
    data_dir: Path,
    job: ReindexJob,
    result: ReindexResult,
    on_change: ChangeCallback | None,
) -> None:
    """Plan the deletes against the ids Solr holds now, apply the guard, delete; the run
    ends ``refused`` or ``finished``.

    Raises:
        Stopped, SolrError: from :func:`indexer.pipeline.outage.patiently`.
    """
    settings, frontier = crawler.settings, crawler.frontier
    planned: dict[str, set[str]] = defaultdict(set)
    for doc_id in crawler.sink.deferred_deletes:
        planned[host_of(doc_id)].add(doc_id)
    stop = crawler.options.stop
    after = await patiently(settings.solr, stop, "asking for its ids", _ids_by_host, client, hosts)
    totals = reconcile(settings, frontier, data_dir, after, planned, crawler.scope.allows)
    buried = {h: {i for i in ids if frontier.tombstones.buries(i)} for h, ids in after.items()}
    result.deletes = {h: sorted(ids - buried.get(h, set())) for h, ids in planned.items()}
    result.deletes = {h: ids for h, ids in result.deletes.items() if ids}
    result.refusals = guard(settings, result.deletes, totals)
    if result.refusals and not job.force and not job.dry_run:  # a dry run shows the plan
        result.end = crawler.phases.end(Phase.REFUSED, "; ".join(result.refused))
        return
    for host, ids in buried.items():  # `indexer delete`d ids Solr still holds: not the guard's
        if ids:
            result.deletes[host] = sorted({*result.deletes.get(host, ()), *ids})
    await _apply(client, crawler, data_dir, job, result, on_change)
    refused = bool(result.refusals) and job.dry_run
    result.end = crawler.phases.end(Phase.REFUSED if refused else Phase.FINISHED)


async def _apply(
    client: SolrClient,
    crawler: Crawler,
    data_dir: Path,
    job: ReindexJob,
    result: ReindexResult,
    on_change: ChangeCallback | None,
) -> None:
    """Report the planned deletions; unless a dry run, delete them (an outage waited out)
    and forget them."""
    ids = [doc_id for group in result.deletes.values() for doc_id in group]
    for doc_id in ids:
        if on_change is not None:
            on_change("delete", doc_id)
    if not job.dry_run and ids:
        solr = crawler.settings.solr
        stop = crawler.options.stop
        await patiently(solr, stop, "deleting", _delete_from_solr, client, solr.batch_size, ids)
        forget(data_dir, crawler.frontier, ids)
        result.deleted = len(ids)


def _in_scope(by_host: dict[str, list[str]], scope: Scope) -> tuple[str, ...]:
    """The ids of ``by_host`` inside ``scope``, in order."""
    return tuple(doc_id for ids in by_host.values() for doc_id in ids if scope.allows(doc_id))


def _ids_by_host(client: SolrClient, hosts: list[str]) -> dict[str, list[str]]:
    """Every document id Solr holds for each of ``hosts`` (blocking: run in a thread)."""
    return {host: client.host_ids(host) for host in hosts}


def _delete_from_solr(client: SolrClient, batch: int, ids: list[str]) -> None:
    """Delete ``ids`` in batches of ``batch`` and commit (blocking: run in a thread)."""
    for start in range(0, len(ids), batch):
        client.update([], ids[start : start + batch])
    client.commit()
