"""Sends batches of adds and deletes to Solr with pysolr; translates its errors.

pysolr is synchronous (requests): call :class:`SolrWriter` methods from a worker thread.
JSON update bodies carry real UTF-8 (pysolr's default encoder escapes every non-ASCII
character, doubling Japanese payloads). Updates use ``commitWithin`` for visibility; one
hard commit ends a crawl (Solr Reference Guide, "Commits and Transaction Logs").
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import pysolr
import requests

from indexer.errors import SolrAuthError, SolrError, SolrRejectedError, SolrUnavailableError
from indexer.settings import SolrSettings

logging.getLogger("pysolr").setLevel(logging.CRITICAL)  # it logs request bodies on errors

_HTTP_STATUS = re.compile(r"\(HTTP (\d{3})\)")


class SolrWriter:
    """Writes to one core or collection.

    Args:
        cfg: Solr settings (url, core, commit_within_ms, timeout, user, password).
    """

    def __init__(self, cfg: SolrSettings) -> None:
        auth = None
        if cfg.user:
            auth = (cfg.user, cfg.password.get_secret_value() if cfg.password else "")
        self._cfg = cfg
        self._solr = pysolr.Solr(
            f"{cfg.url.rstrip('/')}/{cfg.core}",
            encoder=json.JSONEncoder(ensure_ascii=False),
            timeout=cfg.timeout,
            auth=auth,
        )

    def update(self, adds: Sequence[dict[str, Any]], deletes: Sequence[str]) -> None:
        """Send adds and deletes (deletes first) with commitWithin.

        Raises:
            SolrUnavailableError: network failure, timeout or 5xx.
            SolrRejectedError: 4xx (a bad document or request).
            SolrAuthError: 401/403.
        """
        within = self._cfg.commit_within_ms
        if deletes:
            self._call(lambda: self._solr.delete(id=list(deletes), commit=False))
        if adds:
            self._call(lambda: self._solr.add(list(adds), commit=False, commitWithin=within))

    def commit(self) -> None:
        """Hard commit that opens a new searcher.

        Raises:
            SolrUnavailableError, SolrRejectedError: as for :meth:`update`.
        """
        self._call(lambda: self._solr.commit(waitSearcher=True))

    def delete_query(self, query: str) -> None:
        """Delete every document matching ``query`` (Lucene syntax) and commit."""
        self._call(lambda: self._solr.delete(q=query, commit=True))

    def _call(self, fn: Any) -> Any:
        try:
            return fn()
        except pysolr.SolrError as exc:
            raise _translate(exc) from None
        except requests.RequestException as exc:
            raise SolrUnavailableError(f"Solr request failed: {type(exc).__name__}") from None


def _translate(exc: pysolr.SolrError) -> SolrError:
    message = str(exc)
    match = _HTTP_STATUS.search(message)
    status = int(match.group(1)) if match else 0
    if status in (401, 403):
        return SolrAuthError(f"Solr refused the credentials (HTTP {status}); check solr.user")
    if 400 <= status < 500:
        return SolrRejectedError(message[:500], status)
    return SolrUnavailableError(message[:500])
