"""What the admin views ask Solr: its state (version, cores or the collection and its
shards, numDocs) and one stored document by id.

Blocking calls through :class:`~indexer.solr.connection.SolrConnection`: run them in a
worker thread. Solr's own error texts are logged, never shown; the page says only that
Solr did not answer.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from indexer.errors import SolrError
from indexer.settings import SolrSettings
from indexer.solr.admin import solr_version, system_info
from indexer.solr.cloud import collection_status
from indexer.solr.connection import SolrConnection

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shard:
    """One shard of a collection: its name, state and replicas (``name@node state``)."""

    name: str
    state: str
    replicas: tuple[str, ...]


@dataclass(frozen=True)
class SolrState:
    """Solr as the dashboard shows it.

    Attributes:
        url: the base URL asked (``solr.url``).
        target: the core or collection the crawls write to.
        available: Solr answered.
        version: Solr's version (``lucene.solr-spec-version``).
        mode: ``std`` or ``solrcloud``.
        num_docs: documents in the target.
        cores: ``(core, numDocs)`` of every core of a standalone node.
        shards: the collection's shards (SolrCloud).
    """

    url: str
    target: str
    available: bool = False
    version: str = ""
    mode: str = ""
    num_docs: int | None = None
    cores: tuple[tuple[str, int], ...] = ()
    shards: tuple[Shard, ...] = field(default_factory=tuple)


def solr_state(cfg: SolrSettings) -> SolrState:
    """Ask Solr (Cores API STATUS, or CLUSTERSTATUS for ``solr.collection``); a Solr that
    does not answer gives ``available=False`` (logged)."""
    conn = SolrConnection.from_settings(cfg)
    try:
        info = system_info(conn)
        if cfg.collection:
            status = collection_status(conn, cfg.collection)
            shards = tuple(_shard(name, s) for name, s in sorted(status["shards"].items()))
            return SolrState(
                conn.base_url,
                cfg.target,
                True,
                solr_version(info),
                str(info.get("mode", "")),
                int(status["numDocs"]),
                (),
                shards,
            )
        data = conn.get("/admin/cores", {"action": "STATUS"})
    except SolrError as exc:
        log.warning("admin: Solr state: %s", exc)
        return SolrState(conn.base_url, cfg.target)
    cores = tuple(
        (name, int(entry.get("index", {}).get("numDocs", 0)))
        for name, entry in sorted(data.get("status", {}).items())
        if isinstance(entry, dict)
    )
    docs = dict(cores).get(cfg.target)
    return SolrState(
        conn.base_url, cfg.target, True, solr_version(info), str(info.get("mode", "")), docs, cores
    )


def _shard(name: str, summary: dict[str, Any]) -> Shard:
    replicas = tuple(
        f"{r['name']}@{r['node']} {r['state']}{' (leader)' if r['leader'] else ''}"
        for r in summary.get("replicas", [])
    )
    return Shard(name, str(summary.get("state", "")), replicas)


def stored_document(cfg: SolrSettings, doc_id: str) -> dict[str, Any] | None:
    """The stored fields of document ``doc_id`` (real-time get, Solr Reference Guide
    "RealTime Get": ``/get?id=``), or None when Solr holds no such document.

    Raises:
        SolrError: Solr did not answer or refused (logged by the caller).
    """
    conn = SolrConnection.from_settings(cfg)
    data = conn.get(f"/{cfg.target}/get", {"id": doc_id})
    doc = data.get("doc")
    return doc if isinstance(doc, dict) else None
