"""Document worker processes: hostile documents parsed under limits, one worker each.

A PDF or Office parser may hang, crash in C code or allocate without end. Each document is
parsed in a worker process of its own pool (not the page pool, whose one broken worker
would break every page in flight): the worker runs with an address-space limit
(``setrlimit(RLIMIT_AS)``, ``extract.worker_memory``) and is given ``extract.document_timeout``
seconds of wall time. A worker over time is killed (by its pid) and a worker that died is
noticed by its closed pipe; either costs that one worker, which is replaced when next
needed, and the document ends as ``parse-timeout`` or ``parse-error``. Workers start
lazily (a crawl of HTML pages never starts one) and die with the crawler (PDEATHSIG).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
import resource
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from indexer.errors import DocumentError
from indexer.extract.formats import Limits, ParsedDocument, parse_document
from indexer.pipeline.workers import die_with_parent, stops_blocked

log = logging.getLogger(__name__)

#: Seconds a new worker may take to start and import its parsers.
START_TIMEOUT = 60.0
_READY = "ready"
#: What a worker answers: the parsed document or the outcome it ends as.
Answer = ParsedDocument | DocumentError
#: ``parser(fmt, body, url, content_type, limits)``: a top-level function (it is pickled).
Parser = Callable[[str, bytes, str, "str | None", Limits], ParsedDocument]


@dataclass(frozen=True, slots=True)
class Job:
    """One document to parse (pickled to a worker)."""

    fmt: str
    body: bytes
    url: str
    content_type: str | None


def _serve(conn: Connection, parent: int, memory: int, limits: Limits, parser: Parser) -> None:
    """Worker main loop: answer jobs until the pipe closes."""
    die_with_parent(parent)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    from indexer.extract.formats import odf, ooxml, pdf, plain  # noqa: F401  (load first)

    conn.send(_READY)  # the document's time starts once the worker can take it
    while True:
        try:
            job: Job = conn.recv()
            job = dataclasses.replace(job, body=conn.recv_bytes())  # see _Worker.ask
        except (EOFError, OSError):
            return
        answer: Answer
        try:
            answer = parser(job.fmt, job.body, job.url, job.content_type, limits)
        except DocumentError as exc:
            answer = exc
        except MemoryError:
            answer = DocumentError("parse-error", "out of memory (extract.worker_memory)")
        del job
        conn.send(answer)


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, memory: int, limits: Limits, parser: Parser) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process: BaseProcess = ctx.Process(
            target=_serve, args=(child, os.getpid(), memory, limits, parser), daemon=True
        )
        with stops_blocked():  # a stop is the crawler's to handle, not the worker's
            self.process.start()
        child.close()

    def started(self) -> bool:
        """Wait until the worker has loaded its parsers; False if it died or took longer
        than :data:`START_TIMEOUT`."""
        try:
            return bool(self.conn.poll(START_TIMEOUT)) and self.conn.recv() == _READY
        except (EOFError, OSError):
            return False

    def ask(self, job: Job, timeout: float) -> Answer | None:
        """The worker's answer, or None when it was killed for time or died (see
        :attr:`failure`)."""
        self.failure = ""
        try:
            # the body as raw bytes after the rest: pickled, it would be copied whole first
            self.conn.send(dataclasses.replace(job, body=b""))
            self.conn.send_bytes(job.body)
            if not self.conn.poll(timeout):
                self.failure = f"parse-timeout: over extract.document_timeout={timeout:g} s"
                return None
            answer: Answer = self.conn.recv()
            return answer
        except (EOFError, OSError):
            self.process.join(1)
            self.failure = f"parse-error: parser crashed (exit code {self.process.exitcode})"
            return None

    def stop(self) -> None:
        """Kill the process (by its pid, through its handle) and wait for it."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class DocumentWorkers:
    """A pool of document workers, used from the event loop.

    Args:
        count: worker processes at most (at least 1).
        limits: parser limits.
        timeout: wall seconds per document (``extract.document_timeout``).
        memory: address-space limit per worker in bytes (``extract.worker_memory``).
        parser: the parsing function (tests inject hanging or crashing ones).
    """

    def __init__(
        self,
        count: int,
        limits: Limits,
        timeout: float,
        memory: int,
        parser: Parser = parse_document,
    ) -> None:
        self._limits, self._timeout, self._memory = limits, timeout, memory
        self._parser = parser
        self._count = max(1, count)
        self._threads = ThreadPoolExecutor(self._count, thread_name_prefix="docworker")
        self._idle: asyncio.Queue[_Worker | None] | None = None
        self._all: set[_Worker] = set()
        self._closed = False
        self.replaced = 0

    async def parse(self, job: Job) -> Answer:
        """Parse one document in a worker; never raises for bad input.

        Returns:
            The parsed document, or a :class:`DocumentError` naming its outcome
            (``parse-timeout`` and ``parse-error`` for a killed or crashed worker).
        """
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self._count):
                self._idle.put_nowait(None)
        worker = await self._idle.get()
        loop = asyncio.get_running_loop()
        try:
            worker, answer = await loop.run_in_executor(self._threads, self._run, worker, job)
        except BaseException:  # cancelled: the thread may still use the worker; not reused
            self._idle.put_nowait(None)
            raise
        self._idle.put_nowait(worker)
        return answer

    def _run(self, worker: _Worker | None, job: Job) -> tuple[_Worker | None, Answer]:
        if self._closed:
            return worker, DocumentError("parse-error", "document workers stopped")
        if worker is None or not worker.process.is_alive():
            if worker is not None:
                self._retire(worker)
            worker = _Worker(self._memory, self._limits, self._parser)
            self._all.add(worker)
            if not worker.started():
                self._retire(worker)
                why = f"document worker did not start (extract.worker_memory={self._memory})"
                return None, DocumentError("parse-error", why)
        answer = worker.ask(job, self._timeout)
        if answer is not None:
            return worker, answer
        outcome, _, reason = worker.failure.partition(": ")
        log.warning("document worker replaced (%s) after %s", reason, job.url)
        self._retire(worker)
        self.replaced += 1
        return None, DocumentError(outcome, reason)

    def _retire(self, worker: _Worker) -> None:
        worker.stop()
        self._all.discard(worker)

    def close(self) -> None:
        """Stop every worker and the threads waiting on them."""
        self._closed = True
        for worker in list(self._all):
            self._retire(worker)
        self._threads.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> DocumentWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
