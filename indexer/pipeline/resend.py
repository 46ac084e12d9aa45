"""The re-send path: fetch again, in full, the indexed pages whose document Solr lacks.

The frontier remembers, for every page it reached, the hash of the main content it last
sent (``content_hash``); the document in Solr carries the same field. A document is
*stale* when the frontier holds its page as indexed and Solr has no document of that id
or one with another hash (a lost outbox, a restored or emptied core). Re-sending runs one
crawl over exactly the stale pages: a new frontier run in which only they are queued,
fetched without validators (a 304 would send nothing), links not followed, sitemaps not
read, deletions held back (gone pages are left to ``indexer reindex`` and its guard).

``indexer reindex --repair`` uses it after recreating a broken outbox; the same path
serves any job that must bring Solr back in line with the frontier.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.urls import host_of
from indexer.errors import StateError
from indexer.index.outbox import OUTBOX, Outbox
from indexer.pipeline.crawler import Crawler, CrawlOptions
from indexer.pipeline.verdict import ReindexPolicy
from indexer.report import RunStats
from indexer.settings import Settings
from indexer.solr.search import host_documents

_REDIRECTED = "redirected to "


@dataclass
class ResendResult:
    """What a re-send did.

    Attributes:
        indexed: pages the frontier holds as indexed (with a content hash).
        stale: their ids that Solr lacked or held at another hash, sorted.
        resent: documents sent again (added or updated) by the re-send crawl.
        stats: the re-send crawl's counters (None when nothing was stale).
        broken_outbox: where a broken outbox was set aside by ``--repair`` (None if none).
        broken_reason: what was wrong with it ('' if none).
    """

    indexed: int = 0
    stale: list[str] = field(default_factory=list)
    resent: int = 0
    stats: RunStats | None = None
    broken_outbox: Path | None = None
    broken_reason: str = ""


def stale_documents(
    indexed: Iterable[tuple[str, str, str]], in_solr: Mapping[str, str | None]
) -> list[str]:
    """URLs whose document Solr lacks or holds at another content hash (pure).

    Args:
        indexed: ``(url, doc_id, content_hash)`` the frontier holds as indexed.
        in_solr: ``{doc_id: content_hash or None}`` of the documents Solr holds.

    Returns:
        the frontier URLs to fetch again, sorted.
    """
    stale = {
        url for url, doc_id, digest in indexed if doc_id not in in_solr or in_solr[doc_id] != digest
    }
    return sorted(stale)


def frontier_documents(frontier: Frontier) -> list[tuple[str, str, str]]:
    """``(url, doc_id, content_hash)`` of every page the frontier holds as indexed.

    A page reached through a redirect is indexed under its final URL (the reason the
    frontier stored, ``redirected to URL``), which is then its document id.
    """
    rows = []
    reasons = {url: reason for url, _host, _o, reason in frontier.outcomes()}
    for url, digest in frontier.indexed_documents():
        reason = reasons.get(url, "")
        target = reason[len(_REDIRECTED) :].split("; ", 1)[0]  # notes may follow
        doc_id = target if reason.startswith(_REDIRECTED) else url
        rows.append((url, doc_id, digest))
    return rows


def solr_hashes(settings: Settings, hosts: Iterable[str]) -> dict[str, str | None]:
    """``{doc_id: content_hash}`` of every document Solr holds for ``hosts`` (blocking).

    Raises:
        SolrUnavailableError, SolrError: Solr cannot be asked.
    """
    found: dict[str, str | None] = {}
    for host in hosts:
        for doc in host_documents(settings.solr, host, ("id", "content_hash")):
            found[str(doc["id"])] = doc.get("content_hash")
    return found


async def resend(settings: Settings, frontier: Frontier) -> ResendResult:
    """Fetch and send again every document Solr lacks or holds at an older hash.

    Args:
        settings: validated settings (``crawl.data_dir`` is the frontier's directory).
        frontier: the opened, locked frontier.

    Raises:
        SolrUnavailableError, SolrError: Solr cannot be asked for its documents.
        StateError, StorageError: a state file is broken or cannot be written.
    """
    indexed = frontier_documents(frontier)
    hosts = sorted({host_of(url) for url, _id, _h in indexed})
    in_solr = await asyncio.to_thread(solr_hashes, settings, hosts)
    stale = stale_documents(indexed, in_solr)
    result = ResendResult(indexed=len(indexed), stale=stale)
    if not stale:
        return result
    frontier.start_run_for(stale)
    crawl = settings.crawl.model_copy(
        update={"resume": True, "seeds": (), "allow_hosts": (*settings.crawl.allow_hosts, *hosts)}
    )
    crawl = crawl.model_copy(update={"sitemaps": False})
    scoped = settings.model_copy(update={"crawl": crawl})
    sent: list[str] = []
    options = CrawlOptions(
        use_solr=True,
        reindex=ReindexPolicy(present=frozenset(in_solr) - frozenset(stale)),
        follow_links=False,
        on_change=lambda action, doc_id: sent.append(doc_id) if action != "delete" else None,
    )
    result.stats = await Crawler(scoped, frontier, options).run()
    result.resent = len(set(sent))
    return result


async def repair(settings: Settings) -> ResendResult:
    """``indexer reindex --repair``: recreate a missing or broken outbox, then re-send.

    A broken outbox is kept beside the new one as ``outbox.sqlite3.broken-N``
    (:meth:`~indexer.crawl.datadir.DataDir.set_aside`); its changes are recovered by the
    re-send, which brings back every document Solr lacks or holds at an older hash.

    Raises:
        StateError: the frontier is missing or broken (it cannot be rebuilt).
        CrawlLockedError: another crawl uses the data directory.
        SolrUnavailableError, SolrError: Solr cannot be asked for its documents.
    """
    with open_frontier(settings, create=False) as frontier:
        broken: Path | None = None
        reason = ""
        try:
            frontier.data_dir.verify((OUTBOX,))
        except StateError as exc:
            reason = str(exc)
            broken = frontier.data_dir.set_aside(OUTBOX)
        Outbox(frontier.data_dir.outbox).close()  # recreated now, even with nothing to send
        frontier.set_meta(frontier.outbox_mark, "1")
        result = await resend(settings, frontier)
        result.broken_outbox, result.broken_reason = broken, reason
        return result
