"""Where a crawl's documents and deletions go: the ``--out`` file and/or Solr via the outbox.

Adds and deletes for Solr are written to the durable outbox (:mod:`indexer.index.outbox`)
and drained by the index stage (:mod:`indexer.index.stage`) while the crawl goes on. The
``--out`` JSON-lines file (:mod:`indexer.index.outfile`) is flushed line by line: a
document is in the file before its URL is marked done, so a crawl killed with -9 and
resumed loses none; a write error stops the crawl.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from indexer.crawl.datadir import DataDir
from indexer.index.client import SolrClient
from indexer.index.outbox import Outbox
from indexer.index.outfile import OutFile
from indexer.index.stage import IndexStage
from indexer.index.writer import SolrWriter
from indexer.index.xmlchars import clean_value
from indexer.settings import Settings

log = logging.getLogger(__name__)


class DocumentSink:
    """Receives documents and deletions from the crawler.

    Args:
        settings: all settings (``solr`` for the writer, ``crawl.data_dir`` for the outbox).
        out: JSON-lines file to write (:func:`out_record`: the fields, the main text as
            ``text``), or None.
        use_solr: send changes to Solr through the outbox.
        append: append to ``out`` (a resumed crawl) instead of writing it anew.
        on_rejected: ``(doc_id, message)`` for a document Solr refuses.
        on_indexed: number of documents Solr acknowledged (or written to ``out`` alone).
        on_change: ``(action, doc_id)`` for each change, action ``add``, ``update``, ``delete``.
        defer_deletes: collect deletions in :attr:`deferred_deletes` instead of sending them.
        client: the Solr client (default: a :class:`SolrWriter` for ``settings.solr``).
        on_commit: called when the final commit begins.
        buried: whether a document id was deleted by ``indexer delete`` and not crawled
            again (:mod:`indexer.crawl.frontier.tombstones`): its document is not written.
        buried_among: the buried ids among those given, asked by the index stage before
            each batch it sends (a delete by another process meanwhile).

    Attributes:
        failure: one line when the index stage gave up (credentials or schema refused for
            longer than ``solr.auth_wait``), else ''.
        pending: changes left in the outbox after :meth:`close`.
        removed_chars: characters outside XML 1.0 ``Char`` removed from what was written.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        out: Path | None,
        use_solr: bool,
        append: bool,
        on_rejected: Callable[[str, str], None],
        on_indexed: Callable[[int], None],
        on_change: Callable[[str, str], None] | None = None,
        defer_deletes: bool = False,
        client: SolrClient | None = None,
        on_commit: Callable[[], None] | None = None,
        buried: Callable[[str], bool] | None = None,
        buried_among: Callable[[Iterable[str]], set[str]] | None = None,
    ) -> None:
        self._settings = settings
        self._out_path = out
        self._use_solr = use_solr
        self._append = append
        self._on_rejected = on_rejected
        self._on_indexed = on_indexed
        self._on_change = on_change
        self._defer = defer_deletes
        self.deferred_deletes: list[str] = []
        self.pending = 0
        self.failure = ""
        self._client = client
        self._on_commit = on_commit
        self._buried = buried
        self._buried_among = buried_among
        self.removed_chars = 0
        self._out: OutFile | None = None
        self._outbox: Outbox | None = None
        self._index: IndexStage | None = None
        self._task: asyncio.Task[None] | None = None

    def open(self) -> None:
        """Open the ``--out`` file and start the index stage (needs a running event loop)."""
        if self._out_path is not None:
            self._out = OutFile(self._out_path, append=self._append)
            if self._out.cut_bytes:
                log.warning(
                    "%s: cut a partial last line (%d bytes)", self._out_path, self._out.cut_bytes
                )
        if self._use_solr:
            self._outbox = Outbox(DataDir(self._settings.crawl.data_dir).outbox)
            self._index = IndexStage(
                self._outbox,
                self._client or SolrWriter(self._settings.solr),
                self._settings.solr,
                on_rejected=self._on_rejected,
                on_indexed=self._on_indexed,
                on_commit=self._on_commit,
                buried_among=self._buried_among,
            )
            self._task = asyncio.create_task(self._index.run())
            self._task.add_done_callback(self._stage_ended)

    def _stage_ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failure = str(task.exception())

    async def close(
        self, stop: asyncio.Event | None = None, grace: Callable[[], float] = lambda: 0.0
    ) -> None:
        """Drain the outbox into Solr (up to ``solr.drain_timeout`` s), commit, close all.

        Changes Solr did not take stay in the outbox for the next run (:attr:`pending`
        tells how many). Once ``stop`` is set (the user asked the crawl to stop, before or
        during the drain) the drain goes on for ``grace()`` more seconds at most (the
        crawl's stop budget, :mod:`indexer.pipeline.phases`, and ``solr.stop_drain_timeout``).
        """
        try:
            if self._task is not None and self._index is not None and self._outbox is not None:
                self._index.close()
                try:
                    await self._drain(self._task, stop or asyncio.Event(), grace)
                finally:
                    self.pending = self._outbox.count()
                    self._outbox.close()
        finally:
            if self._out is not None:
                self._out.close()

    async def _drain(
        self, task: asyncio.Task[None], stop: asyncio.Event, grace: Callable[[], float]
    ) -> None:
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait(
                {task, stopped},
                timeout=self._settings.solr.drain_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            stopped.cancel()
        if not task.done() and stop.is_set():
            await asyncio.wait({task}, timeout=grace())
        if not task.done():
            task.cancel()
            log.warning(
                "%d changes wait in the outbox and are sent on the next run",
                self._outbox.count() if self._outbox is not None else 0,
            )
        await asyncio.gather(task, return_exceptions=True)

    def backlog(self) -> int:
        """Changes waiting in the outbox now (0 without Solr or once closed)."""
        try:
            return self._outbox.count() if self._outbox is not None else 0
        except sqlite3.ProgrammingError:  # closed at the run's end: what was left
            return self.pending

    async def wait_ready(self, stop: asyncio.Event) -> None:
        """Return when Solr takes changes again and the outbox is below its high-water mark."""
        if self._index is None or self._outbox is None:
            return
        high_water = self._settings.solr.outbox_high_water
        outbox = self._outbox

        def over() -> bool:  # asked before each dispatch: a scan of at most high_water + 1
            return outbox.count(at_most=high_water + 1) > high_water

        while not self._index.healthy.is_set() or over():
            if self.failure:  # the index stage gave up: the crawl stops
                stop.set()
            if stop.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._index.healthy.wait(), 1.0)
            if over():
                await asyncio.sleep(0.2)

    def state_connections(self) -> tuple[sqlite3.Connection, ...]:
        r"""The outbox's connection once :meth:`open`\ ed with one (for the crawl's grouped
        commits, :meth:`indexer.crawl.frontier.groups.GroupedCommits.grouped`), else ()."""
        return () if self._outbox is None else (self._outbox.connection,)

    def add(self, doc: dict[str, Any], text: str, *, update: bool) -> None:
        """Send a document (JSON-ready dict with ``id``); ``update``: it was indexed before.

        Characters outside XML 1.0 ``Char`` are removed from every field and from ``text``
        first (:mod:`indexer.index.xmlchars`), counted in :attr:`removed_chars`. A buried
        document (deleted by ``indexer delete``) is dropped.
        """
        if self._buried is not None and self._buried(str(doc["id"])):
            log.info("%s: not sent: deleted by `indexer delete`", doc["id"])
            return
        doc, removed = clean_value(doc)
        text, removed_text = clean_value(text)
        self.removed_chars += removed + removed_text
        if self._on_change is not None:
            self._on_change("update" if update else "add", doc["id"])
        if self._out is not None:
            self._out.write(out_record(doc, text))
            if self._outbox is None:
                self._on_indexed(1)
        if self._outbox is not None and self._index is not None:
            self._outbox.add(doc)
            self._index.notify()

    def delete(self, doc_id: str, *, at_once: bool = False) -> None:
        """Delete a document, or keep the deletion for review when deletes are deferred
        (``at_once``: sent even then, as a restricted page's is)."""
        if self._defer and not at_once:  # reported by whoever reviews them (reindex)
            self.deferred_deletes.append(doc_id)
            return
        if self._on_change is not None:
            self._on_change("delete", doc_id)
        if self._outbox is not None and self._index is not None:
            self._outbox.delete(doc_id)
            self._index.notify()


def out_record(doc: dict[str, Any], text: str) -> dict[str, Any]:
    """The ``--out`` line of a document: its fields with the main text once, as ``text``
    (the Solr document's ``content`` holds the same text and is left out)."""
    record = {k: v for k, v in doc.items() if k != "content"}
    record["text"] = text
    return record
