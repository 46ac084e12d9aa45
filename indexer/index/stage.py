"""The index stage: drains the outbox into Solr in batches.

- Batches are capped by ``solr.batch_size`` documents and ``solr.batch_bytes`` bytes.
- Up to ``solr.updates_in_flight`` update requests at once; a batch never carries an id
  that a batch in flight carries, so the changes of one id reach Solr in the outbox's order.
- Solr unreachable, 5xx, or a 4xx that blames no document (404 of a core being reloaded or
  a misrouting proxy): the batch stays in the outbox, :attr:`IndexStage.healthy` is cleared
  (the crawl stops dispatching: back-pressure) and the send is retried with exponential
  backoff (``solr.backoff_base`` doubling up to ``solr.backoff_max``) until Solr
  is back.
- Credentials refused (401/403) or a field unknown to the schema (a configset older than
  the code): the same pause, with one log line that names the cause and the way out; when
  it lasts longer than ``solr.auth_wait`` seconds, :meth:`IndexStage.run` raises it.
- Only a batch that Solr answers with a 400 naming a document-level problem is split in
  halves until the bad document is isolated; it is reported through ``on_rejected`` and
  dropped, the rest is indexed.
- When the crawl ends, a single hard commit makes everything visible.
- Before each batch, adds of ids that ``indexer delete`` buried meanwhile (``buried_among``,
  :meth:`indexer.crawl.frontier.tombstones.Tombstones.buried_among`) are dropped unsent.

Every Solr call runs in a daemon thread (:func:`indexer.index.client.in_thread`), so a
stopped crawl cancels the stage at once and what was not acknowledged stays in the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection, Iterable

import tenacity

from indexer.crawl.retry import wait_seconds
from indexer.errors import (
    SolrAuthError,
    SolrDocumentError,
    SolrError,
    SolrRejectedError,
    SolrSchemaError,
)
from indexer.index.client import SolrClient, in_thread
from indexer.index.outbox import Change, Outbox
from indexer.settings import SolrSettings

log = logging.getLogger(__name__)

RejectedCallback = Callable[[str, str], None]


class IndexStage:
    """Sends outbox changes to Solr.

    Args:
        outbox: the durable outbox.
        writer: the Solr client (:class:`indexer.index.writer.SolrWriter`, or a fake).
        cfg: Solr settings (batch caps, ``auth_wait``).
        on_rejected: called as ``(doc_id, solr_message)`` for a document Solr refuses.
        on_indexed: called with the number of documents acknowledged.
        on_commit: called once when the final commit begins.
        buried_among: the ids of those given that were deleted since they were queued
            (their adds are dropped, not sent); None: nothing is checked.
    """

    def __init__(
        self,
        outbox: Outbox,
        writer: SolrClient,
        cfg: SolrSettings,
        on_rejected: RejectedCallback,
        on_indexed: Callable[[int], None],
        on_commit: Callable[[], None] | None = None,
        buried_among: Callable[[Iterable[str]], set[str]] | None = None,
    ) -> None:
        self._outbox = outbox
        self._buried_among = buried_among
        self._writer = writer
        self._cfg = cfg
        self._on_rejected = on_rejected
        self._on_indexed = on_indexed
        self._on_commit = on_commit
        self.healthy = asyncio.Event()
        self.healthy.set()
        self._wake = asyncio.Event()
        self._closing = False
        self._backoff = tenacity.wait_exponential(
            multiplier=cfg.backoff_base, min=cfg.backoff_base, max=cfg.backoff_max
        )
        self._failures = 0
        self._blocked_since: float | None = None

    def notify(self) -> None:
        """Tell the stage that new changes are waiting."""
        self._wake.set()

    def close(self) -> None:
        """Ask the stage to drain what is left, commit and return."""
        self._closing = True
        self._wake.set()

    async def run(self) -> None:
        """Loop until :meth:`close` was called and the outbox is empty, then commit.

        Up to ``solr.updates_in_flight`` update requests are in flight at once (Solr indexes
        concurrent requests on threads of their own); a further one starts only with a full
        batch, which never holds an id of a batch in flight (:meth:`Outbox.next_batch`).

        Raises:
            SolrAuthError, SolrSchemaError: refused for longer than ``solr.auth_wait``.
        """
        sending: dict[asyncio.Task[None], list[Change]] = {}
        try:
            while await self._step(sending):
                pass
        finally:
            for task in sending:  # a stop, or refused credentials: abandon the rest
                task.cancel()
        await self._commit_with_retry()

    async def _step(self, sending: dict[asyncio.Task[None], list[Change]]) -> bool:
        """Start a send, or wait for one to end or for work; False once closed and drained."""
        batch: list[Change] = []
        if len(sending) < self._cfg.updates_in_flight and (
            not sending or self._closing or self._waiting(sending) >= self._cfg.batch_size
        ):
            batch, capped = self._next(sending)
            if batch and not sending and not capped and not self._closing:
                await self._wait_for_work(timeout=0.5)  # a short batch waits a little
                batch, capped = self._next(sending)
            if batch and (capped or self._closing or not sending):
                batch = self._drop_buried(batch)
                if batch:
                    sending[asyncio.create_task(self._send(batch))] = batch
                return True
        if sending:
            await self._settle(sending)
            return True
        if not batch and self._closing:
            return False
        await self._wait_for_work()
        return True

    def _waiting(self, sending: dict[asyncio.Task[None], list[Change]]) -> int:
        """Changes not in flight, counted up to one full batch (run at each new change while
        a send is in flight: the scan stays bounded however large the backlog)."""
        flying = sum(len(batch) for batch in sending.values())
        return self._outbox.count(at_most=flying + self._cfg.batch_size) - flying

    def _next(self, sending: dict[asyncio.Task[None], list[Change]]) -> tuple[list[Change], bool]:
        busy = {change.doc_id for batch in sending.values() for change in batch}
        return self._outbox.next_batch(self._cfg.batch_size, self._cfg.batch_bytes, busy)

    async def _settle(self, sending: dict[asyncio.Task[None], list[Change]]) -> None:
        """Wait until a send ends or new work arrives. After a failed send the others are
        let finish (what Solr took is acknowledged), then one backoff; the loop reads the
        outbox again, so nothing unacknowledged is lost or sent out of order."""
        self._wake.clear()
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            done, _ = await asyncio.wait(
                [*sending, waker], timeout=1.0, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            waker.cancel()
        error = self._finished(sending, done)
        if error is None:
            return
        if sending:
            await asyncio.wait(list(sending))
            self._finished(sending, set(sending))
        await self._pause(error)

    def _finished(
        self, sending: dict[asyncio.Task[None], list[Change]], done: Collection[object]
    ) -> SolrError | None:
        """Forget the ended sends of ``done``; the first Solr error among them, if any.

        Raises:
            whatever else a send raised (a full disk acknowledging, …).
        """
        error: SolrError | None = None
        for task in [t for t in sending if t in done]:
            del sending[task]
            exc = task.exception()
            if isinstance(exc, SolrError):
                error = error or exc
            elif exc is not None:
                raise exc
            else:
                self._recovered()
        return error

    def _drop_buried(self, batch: list[Change]) -> list[Change]:
        """The batch without the adds of buried ids (acknowledged: they are not sent)."""
        if self._buried_among is None:
            return batch
        gone = self._buried_among(c.doc_id for c in batch if c.action == "add")
        if not gone:
            return batch
        dropped = [c for c in batch if c.action == "add" and c.doc_id in gone]
        self._outbox.ack(dropped)
        log.info("%d add(s) of deleted documents dropped from the outbox", len(dropped))
        return [c for c in batch if not (c.action == "add" and c.doc_id in gone)]

    async def _wait_for_work(self, timeout: float = 1.0) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    async def _commit_with_retry(self) -> None:
        if self._on_commit is not None:
            self._on_commit()
        while True:
            try:
                await in_thread(self._writer.commit)
            except SolrError as exc:
                await self._pause(exc)
                continue
            self._recovered()
            return

    async def _pause(self, exc: SolrError) -> None:
        """Clear :attr:`healthy`, log why, wait the backoff; raise ``exc`` when credentials
        or the schema have been refused for longer than ``solr.auth_wait``."""
        self.healthy.clear()
        self._failures += 1
        delay = wait_seconds(self._backoff, self._failures)
        if isinstance(exc, SolrAuthError | SolrSchemaError):
            self._blocked(exc)
        elif isinstance(exc, SolrRejectedError):
            log.warning("Solr answered HTTP %d (%s); retrying in %.1f s", exc.status, exc, delay)
        else:
            log.warning("Solr unavailable (%s); retrying in %.1f s", exc, delay)
        await asyncio.sleep(delay)

    def _blocked(self, exc: SolrError) -> None:
        now = time.monotonic()
        wait = self._cfg.auth_wait
        if self._blocked_since is None:
            self._blocked_since = now
            log.error("%s; fetching paused, waiting up to solr.auth_wait=%g s", exc, wait)
        elif now - self._blocked_since >= wait:
            raise exc

    def _recovered(self) -> None:
        if self._blocked_since is not None:
            log.warning("Solr takes updates again; fetching resumes")
        self._failures = 0
        self._blocked_since = None
        self.healthy.set()

    async def _send(self, batch: list[Change]) -> None:
        """Send a batch; on a document-level 400 split it until the bad ones are isolated."""
        adds = [doc for c in batch if c.action == "add" and (doc := c.doc) is not None]
        deletes = [c.doc_id for c in batch if c.action == "delete"]
        try:
            await in_thread(self._writer.update, adds, deletes)
        except SolrDocumentError as exc:
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
