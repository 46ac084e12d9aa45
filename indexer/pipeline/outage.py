"""Solr calls of a reindex's reconciliation (``/select`` for the ids, the deletes), waited
out like an outage on ``/update``.

While Solr is down, answers 404 or 5xx (a core reloading, a proxy misrouting) or refuses
the credentials, the call is retried with exponential backoff (``solr.backoff_base``
doubling up to ``solr.backoff_max``, as the index stage does) for at most
``solr.drain_timeout`` seconds; a stop (SIGINT, SIGTERM) ends the wait at once. Only then
does the caller end the run: ``failed`` with the last error as its reason, or
``interrupted`` (:mod:`indexer.pipeline.phases`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import tenacity

from indexer.crawl.retry import wait_seconds
from indexer.errors import SolrDocumentError, SolrError, SolrSchemaError
from indexer.index.client import in_thread
from indexer.settings import SolrSettings

log = logging.getLogger(__name__)
T = TypeVar("T")


class Stopped(Exception):
    """The stop came while a Solr call was waited out (the run ends ``interrupted``)."""


def retryable(exc: SolrError) -> bool:
    """Whether ``exc`` is an outage to wait out: Solr away, a 404/5xx, refused credentials;
    not a document Solr rejects or a field it does not know."""
    return not isinstance(exc, SolrDocumentError | SolrSchemaError)


async def patiently(
    cfg: SolrSettings, stop: asyncio.Event, what: str, fn: Callable[..., T], *args: Any
) -> T:
    """Await ``fn(*args)`` (blocking, run in a thread), retried through an outage.

    Args:
        cfg: ``solr.backoff_base``, ``solr.backoff_max`` and ``solr.drain_timeout`` (s).
        stop: set by a signal; the wait ends at once.
        what: names the call in the log line (``"asking Solr for its ids"``).

    Raises:
        Stopped: ``stop`` was set before the call succeeded.
        SolrError: not an outage, or the outage lasted longer than ``solr.drain_timeout``.
    """
    backoff = tenacity.wait_exponential(
        multiplier=cfg.backoff_base, min=cfg.backoff_base, max=cfg.backoff_max
    )
    deadline = time.monotonic() + cfg.drain_timeout
    failures = 0
    while True:
        if stop.is_set():
            raise Stopped(what)
        try:
            return await in_thread(fn, *args)
        except SolrError as exc:
            failures += 1
            delay = wait_seconds(backoff, failures)
            if not retryable(exc) or time.monotonic() + delay > deadline:
                raise
            if failures == 1:
                log.warning("Solr unavailable while %s (%s); retrying", what, str(exc)[:200])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
