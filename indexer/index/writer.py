"""Sends batches of adds and deletes to Solr with pysolr; translates its errors.

pysolr is synchronous (requests): call :class:`SolrWriter` methods from a worker thread.
JSON update bodies carry real UTF-8 (pysolr's default encoder escapes every non-ASCII
character, doubling Japanese payloads). Updates use ``commitWithin`` for visibility; one
hard commit ends a crawl (Solr Reference Guide, "Commits and Transaction Logs").

SolrCloud: any node's ``/<collection>/update`` accepts updates and forwards each document to
its shard leader (Ref Guide, "SolrCloud Shards and Indexing"), so the writer needs no
ZooKeeper access. It sends to one node of ``solr.url`` + ``solr.urls`` and moves on to the
next when that one is unreachable or answers 5xx; resending is safe because adds replace
by id and deletes by id are idempotent. Basic auth goes in a header, never in a URL.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pysolr
import requests

from indexer.errors import SolrAuthError, SolrError, SolrRejectedError, SolrUnavailableError
from indexer.settings import SolrSettings
from indexer.solr.connection import AUTH_HINT

logging.getLogger("pysolr").setLevel(logging.CRITICAL)  # it logs request bodies on errors

_HTTP_STATUS = re.compile(r"\(HTTP (\d{3})\)")
log = logging.getLogger(__name__)
T = TypeVar("T")


class SolrWriter:
    """Writes to one core or collection, through any of the configured nodes.

    Args:
        cfg: Solr settings (url, urls, core, collection, commit_within_ms, timeout, user,
            password).
    """

    def __init__(self, cfg: SolrSettings) -> None:
        auth = None
        if cfg.user:
            auth = (cfg.user, cfg.password.get_secret_value() if cfg.password else "")
        self._cfg = cfg
        self._nodes = cfg.node_urls
        self._clients = [
            pysolr.Solr(
                f"{node}/{cfg.target}",
                encoder=json.JSONEncoder(ensure_ascii=False),
                timeout=cfg.timeout,
                auth=auth,
            )
            for node in self._nodes
        ]
        self._current = 0

    @property
    def node(self) -> str:
        """Base URL of the node the next request goes to first."""
        return self._nodes[self._current]

    def update(self, adds: Sequence[dict[str, Any]], deletes: Sequence[str]) -> None:
        """Send adds and deletes (deletes first) with commitWithin.

        Raises:
            SolrUnavailableError: network failure, timeout or 5xx.
            SolrRejectedError: 4xx (a bad document or request).
            SolrAuthError: 401/403.
        """
        within = self._cfg.commit_within_ms
        if deletes:
            self._call(lambda solr: solr.delete(id=list(deletes), commit=False))
        if adds:
            self._call(lambda solr: solr.add(list(adds), commit=False, commitWithin=within))

    def commit(self) -> None:
        """Hard commit that opens a new searcher.

        Raises:
            SolrUnavailableError, SolrRejectedError: as for :meth:`update`.
        """
        self._call(lambda solr: solr.commit(waitSearcher=True))

    def delete_query(self, query: str) -> None:
        """Delete every document matching ``query`` (Lucene syntax) and commit.

        Raises:
            SolrUnavailableError, SolrRejectedError, SolrAuthError: as for :meth:`update`.
        """
        self._call(lambda solr: solr.delete(q=query, commit=True))

    def _call(self, fn: Callable[[pysolr.Solr], T]) -> T:
        """Run ``fn`` on the current node, then on each other node while they are unavailable.

        Raises:
            SolrUnavailableError: every node failed (the last node's reason).
            SolrRejectedError, SolrAuthError: at once, from the node that answered.
        """
        failure: SolrUnavailableError | None = None
        for step in range(len(self._clients)):
            index = (self._current + step) % len(self._clients)
            try:
                result = _translated(fn, self._clients[index])
            except SolrUnavailableError as exc:
                failure = exc
                if len(self._clients) > 1:
                    log.warning("Solr node %s unavailable (%s)", self._nodes[index], str(exc)[:200])
                continue
            if index != self._current:
                log.warning("Solr updates now go to %s", self._nodes[index])
                self._current = index
            return result
        assert failure is not None
        raise failure


def _translated(fn: Callable[[pysolr.Solr], T], solr: pysolr.Solr) -> T:
    try:
        return fn(solr)
    except pysolr.SolrError as exc:
        raise _translate(exc) from None
    except requests.RequestException as exc:
        raise SolrUnavailableError(f"Solr request failed: {type(exc).__name__}") from None


def _translate(exc: pysolr.SolrError) -> SolrError:
    message = str(exc)
    match = _HTTP_STATUS.search(message)
    status = int(match.group(1)) if match else 0
    if status in (401, 403):
        return SolrAuthError(f"Solr refused the credentials (HTTP {status}); {AUTH_HINT}")
    if 400 <= status < 500:
        return SolrRejectedError(_concise(message), status)
    return SolrUnavailableError(_concise(message))


def _concise(message: str) -> str:
    """One readable line from a pysolr error (no HTML, no urllib3 retry chains)."""
    if "Failed to connect" in message:
        return "no answer (cannot connect)"
    if "timed out" in message:
        return "no answer (timed out)"
    text = " ".join(re.sub(r"<[^>]+>", " ", message).split())
    return text[:300]
