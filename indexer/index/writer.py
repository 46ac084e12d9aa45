"""Sends batches of adds and deletes to Solr's update handler (pysolr); lists a host's ids.

Blocking (requests): the index stage calls :class:`SolrWriter` methods off the event loop
(:func:`indexer.index.client.in_thread`). Adds use ``commitWithin`` for visibility, deletes
a soft commit so a gone or restricted page leaves search at once; one hard commit ends a
crawl (Solr Reference Guide, "Commits and Transaction Logs"). Errors come translated by
status from :mod:`indexer.solr.connection`, the one Solr client.

SolrCloud: any node's ``/<collection>/update`` accepts updates and forwards each document to
its shard leader (Ref Guide, "SolrCloud Shards and Indexing"), so the writer needs no
ZooKeeper access. It sends to one node of ``solr.url`` + ``solr.urls`` and moves on to the
next when that one is unreachable or answers 5xx; resending is safe because adds replace
by id and deletes by id are idempotent. Basic auth goes in a header, never in a URL.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from indexer.errors import SolrUnavailableError
from indexer.settings import SolrSettings
from indexer.solr.connection import SolrConnection
from indexer.solr.search import host_ids

log = logging.getLogger(__name__)
T = TypeVar("T")


class SolrWriter:
    """Writes to one core or collection, through any of the configured nodes; implements
    :class:`indexer.index.client.SolrClient`.

    Args:
        cfg: Solr settings (url, urls, core, collection, commit_within_ms, timeout, user,
            password).
    """

    def __init__(self, cfg: SolrSettings) -> None:
        self._cfg = cfg
        self._nodes = cfg.node_urls
        self._conns = [SolrConnection.from_settings(cfg, n) for n in self._nodes]
        self._target = cfg.target
        self._current = 0

    @property
    def node(self) -> str:
        """Base URL of the node the next request goes to first."""
        return self._nodes[self._current]

    def update(self, adds: Sequence[Mapping[str, Any]], deletes: Sequence[str]) -> None:
        """Send deletes (with a soft commit), then adds as one JSON array with commitWithin
        (``solr.commit_within_ms``).

        Raises:
            SolrUnavailableError: no node answers, or they answer 5xx.
            SolrDocumentError: a 400 naming a problem of the documents.
            SolrSchemaError: a 400 for a field the core does not know.
            SolrRejectedError: another 4xx (404 of a core being reloaded...).
            SolrAuthError: 401/403.
        """
        if deletes:
            self._call(lambda c: c.delete(self._target, deletes))
        if adds:
            within = self._cfg.commit_within_ms
            self._call(lambda c: c.add(self._target, adds, within))

    def commit(self) -> None:
        """Hard commit that opens a new searcher; errors as :meth:`update`."""
        self._call(lambda c: c.commit(self._target))

    def delete_query(self, query: str) -> None:
        """Delete every document matching ``query`` (Lucene syntax) and commit; errors as
        :meth:`update`."""
        self._call(lambda c: c.delete_query(self._target, query))

    def host_ids(self, host: str) -> list[str]:
        """Every document id of ``host`` (see :func:`indexer.solr.search.host_ids`)."""
        return host_ids(self._cfg, host)

    def _call(self, fn: Callable[[SolrConnection], T]) -> T:
        """Run ``fn`` on the current node, then on each other node while they are unavailable.

        Raises:
            SolrUnavailableError: every node failed (the last node's reason).
            SolrError: any other error at once, from the node that answered.
        """
        failure: SolrUnavailableError | None = None
        for step in range(len(self._conns)):
            index = (self._current + step) % len(self._conns)
            try:
                result = fn(self._conns[index])
            except SolrUnavailableError as exc:
                failure = exc
                if len(self._conns) > 1:
                    log.warning("Solr node %s unavailable (%s)", self._nodes[index], str(exc)[:200])
                continue
            if index != self._current:
                log.warning("Solr updates now go to %s", self._nodes[index])
                self._current = index
            return result
        assert failure is not None
        raise failure
