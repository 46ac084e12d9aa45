"""The index stage: drains the outbox into Solr in batches.

- Batches are capped by ``solr.batch_size`` documents and ``solr.batch_bytes`` bytes.
- Solr unreachable or 5xx: the batch stays in the outbox, :attr:`IndexStage.healthy` is
  cleared (the crawl stops dispatching: back-pressure) and the send is retried with
  exponential backoff (``solr.backoff_base`` doubling up to ``solr.backoff_max``) until
  Solr is back.
- A batch rejected with 4xx is split in halves until the bad document is isolated; it is
  reported through ``on_rejected`` and dropped, the rest is indexed.
- When the crawl ends, a single hard commit makes everything visible.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import tenacity

from indexer.crawl.retry import wait_seconds
from indexer.errors import SolrRejectedError, SolrUnavailableError
from indexer.index.outbox import Change, Outbox
from indexer.index.writer import SolrWriter
from indexer.settings import SolrSettings

log = logging.getLogger(__name__)

RejectedCallback = Callable[[str, str], None]


class IndexStage:
    """Sends outbox changes to Solr.

    Args:
        outbox: the durable outbox.
        writer: the Solr writer.
        cfg: Solr settings (batch caps).
        on_rejected: called as ``(doc_id, solr_message)`` for a document Solr refuses.
        on_indexed: called with the number of documents acknowledged.
    """

    def __init__(
        self,
        outbox: Outbox,
        writer: SolrWriter,
        cfg: SolrSettings,
        on_rejected: RejectedCallback,
        on_indexed: Callable[[int], None],
    ) -> None:
        self._outbox = outbox
        self._writer = writer
        self._cfg = cfg
        self._on_rejected = on_rejected
        self._on_indexed = on_indexed
        self.healthy = asyncio.Event()
        self.healthy.set()
        self._wake = asyncio.Event()
        self._closing = False
        self._backoff = tenacity.wait_exponential(
            multiplier=cfg.backoff_base, min=cfg.backoff_base, max=cfg.backoff_max
        )
        self._failures = 0

    def notify(self) -> None:
        """Tell the stage that new changes are waiting."""
        self._wake.set()

    def close(self) -> None:
        """Ask the stage to drain what is left, commit and return."""
        self._closing = True
        self._wake.set()

    async def run(self) -> None:
        """Loop until :meth:`close` was called and the outbox is empty, then commit.

        Raises:
            SolrAuthError: Solr refuses the credentials (not retried).
        """
        while True:
            batch = self._outbox.pending(self._cfg.batch_size, self._cfg.batch_bytes)
            if not batch:
                if self._closing:
                    break
                await self._wait_for_work()
                continue
            if len(batch) < self._cfg.batch_size and not self._closing:
                await self._wait_for_work(timeout=0.5)
                batch = self._outbox.pending(self._cfg.batch_size, self._cfg.batch_bytes)
            try:
                await self._send(batch)
            except SolrUnavailableError as exc:
                await self._pause(exc)  # the loop reads the outbox again: nothing sent twice
                continue
            self._recovered()
        await self._commit_with_retry()

    async def _wait_for_work(self, timeout: float = 1.0) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    async def _commit_with_retry(self) -> None:
        while True:
            try:
                await asyncio.to_thread(self._writer.commit)
            except SolrUnavailableError as exc:
                await self._pause(exc)
                continue
            self._recovered()
            return

    async def _pause(self, exc: SolrUnavailableError) -> None:
        self.healthy.clear()
        self._failures += 1
        delay = wait_seconds(self._backoff, self._failures)
        log.warning("Solr unavailable (%s); retrying in %.1f s", exc, delay)
        await asyncio.sleep(delay)

    def _recovered(self) -> None:
        self._failures = 0
        self.healthy.set()

    async def _send(self, batch: list[Change]) -> None:
        """Send a batch; on 4xx split it until the bad documents are isolated."""
        adds = [c.doc for c in batch if c.action == "add" and c.doc is not None]
        deletes = [c.doc_id for c in batch if c.action == "delete"]
        try:
            await asyncio.to_thread(self._writer.update, adds, deletes)
        except SolrRejectedError as exc:
            if len(batch) == 1:
                self._on_rejected(batch[0].doc_id, str(exc))
                self._outbox.ack(batch)
                return
            half = len(batch) // 2
            await self._send(batch[:half])
            await self._send(batch[half:])
            return
        self._outbox.ack(batch)
        self._on_indexed(len(adds))
