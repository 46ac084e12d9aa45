"""Documents parsed by the Tika service: the 97–2003 Office formats and RTF.

:class:`TikaDocuments` owns the service's lifecycle for one crawl (or ``indexer extract``):
the JVM (:class:`~indexer.extract.formats.tika_service.TikaProcess`) is started the first
time a document needs it, reused, and replaced when it died or took longer than
``extract.document_timeout`` on a document (that document ends ``parse-timeout``). A
document whose connection dropped with the JVM (its death, or another's timeout) is asked
once more of the successor, alone (:mod:`.tikaload`: documents in the service at once add
up to a share of its heap, one large at a time, so that several large files do not run it
out of memory together); one in flight at a second death ends ``parse-error``. The JVM
is stopped by its pid at :meth:`close` (the documents in flight then end ``parse-error``,
neither logged as a death nor asked again). With ``extract.tika_url`` the named service
is used and never started or stopped; it is checked once at start (dead: these formats end
``unsupported-format`` naming the setting), and a document it stops answering mid-crawl
ends ``unsupported-format`` too (one log line per outage). The service is built with
Maven at its first need when it is not built (one progress line and the build's time);
without java, or when it cannot be built (no Maven, a failed build), these formats end
``unsupported-format`` naming what is missing (part 1's outcome: class skipped, effect
keep).

:class:`DocumentParsers` is the document pool the crawl uses: the Python document workers
(:class:`~indexer.pipeline.docworkers.DocumentWorkers`) plus this, chosen by format.
Not Solr Cell: Solr's guide warns against running Tika in the search server's heap.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from indexer.errors import DocumentError, TikaServiceError
from indexer.extract.formats import NOT_TEXT, Limits, ParsedDocument, parse_document
from indexer.extract.formats.tika import tika_document
from indexer.extract.formats.tika_service import TikaProcess, find_java, ready_classpath
from indexer.pipeline.docworkers import Answer, DocumentWorkers, Job, Parser
from indexer.pipeline.tikacheck import Stopped, UrlCheck
from indexer.pipeline.tikaload import HEAP_SHARE, TikaLoad, heap_bytes
from indexer.settings import ExtractSettings

log = logging.getLogger(__name__)

#: The formats the Tika service parses (OpenDocument is read in Python: :mod:`.odf`).
TIKA_FORMATS = frozenset({"doc", "xls", "ppt", "rtf"})
Proc = TikaProcess | None  # the JVM a document was sent to (None: ``extract.tika_url``'s)


class TikaDocuments:
    """Parse documents through the Tika service, from the event loop.

    Args:
        extract: the ``extract.*`` settings (``tika_*``, ``document_timeout``).
        threads: documents parsed at once (the JVM's request threads too).
    """

    def __init__(self, extract: ExtractSettings, threads: int) -> None:
        self._settings = extract
        self._threads = max(1, threads)
        self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="tika")
        self._lock = threading.Lock()
        self._process: TikaProcess | None = None
        self._missing: str | None = None
        self._stopping = threading.Event()  # set by close(): waits on the service end
        capacity = int(HEAP_SHARE * heap_bytes(extract.tika_heap))
        self._load = TikaLoad(capacity, self._stopping)  # documents in the service at once
        # one check at start, not a refused connection per document; never on the loop
        self._check = (
            UrlCheck(extract.tika_url, extract.document_timeout) if extract.tika_url else None
        )
        self._generation = 0
        self._closed = False
        self._url_down = False  # extract.tika_url's service stopped answering
        self.restarts = 0  #: JVMs replaced after a death or a timeout

    @property
    def pid(self) -> int | None:
        """The running JVM's process id, or None."""
        process = self._process
        return process.pid if process is not None else None

    async def parse(self, job: Job) -> Answer:
        """Parse one document; never raises for bad input.

        Returns:
            The parsed document, or a :class:`DocumentError` naming its outcome.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._run, job)

    def _run(self, job: Job) -> Answer:
        for attempt in (1, 2):
            try:  # asked again after a death: alone, so that its own answer tells
                with self._load.admit(len(job.body), alone=attempt == 2):
                    answer = self._once(job, attempt)
            except Stopped:
                why = "the Tika service was stopped"
                return DocumentError("unsupported-format", f"{job.fmt} needs Tika: {why}")
            if answer is not None:
                return answer
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, job: Job, attempt: int) -> Answer | None:
        """One request of ``job`` to the service; None: ask it again (attempt 1 only)."""
        try:
            url, generation, process = self._service()
        except TikaServiceError as exc:
            return DocumentError("unsupported-format", f"{job.fmt} needs Tika: {exc}")
        try:
            timeout = self._settings.document_timeout
            parsed = tika_document(url, job.fmt, job.body, timeout)
            self._url_down = False
            return ParsedDocument(NOT_TEXT, parsed)
        except DocumentError as exc:
            # a fresh one: the caught one's traceback holds this call's frames, and with
            # them the body, in a cycle only the cyclic GC would free
            return DocumentError(exc.outcome, exc.reason)
        except TikaServiceError as exc:
            if process is None and exc.kind == "gone":
                return self._url_gone(job, url, exc)
            if self._closed:  # our own stop dropped it: no death, nothing asked again
                return DocumentError("parse-error", "the Tika service was stopped")
            if attempt == 1 and self._ask_again(exc, generation, process):
                return None
            return self._failed(job, exc, generation, process)

    def _url_gone(self, job: Job, url: str, exc: TikaServiceError) -> DocumentError:
        """A document that ``extract.tika_url``'s service did not answer: not the document's
        fault, so ``unsupported-format`` (skipped, kept), as without Java. One log line per
        outage, not one per document (the next answer ends the outage)."""
        with self._lock:
            first, self._url_down = not self._url_down, True
        if first:
            log.warning("the Tika service at extract.tika_url=%s is gone: %s", url, exc)
        return DocumentError(
            "unsupported-format", f"{job.fmt} needs Tika: extract.tika_url={url} is gone ({exc})"
        )

    def _ask_again(self, exc: TikaServiceError, generation: int, process: Proc) -> bool:
        """Whether a document whose connection dropped is asked again of a new JVM: the JVM
        of ``generation`` was replaced under it (another document's timeout) or died.

        Which of the documents in flight killed a JVM cannot be known, so each is asked once
        more; one that kills the replacement too ends ``parse-error`` (:meth:`_failed`).
        """
        if exc.kind != "gone" or process is None:
            return False
        if self._replaced_since(generation):
            return True
        death = process.death(1.0)
        if death is None:
            return False
        log.warning("%s; the documents in flight are asked again of a new one", death)
        self._replace(generation)
        return True

    def _replaced_since(self, generation: int) -> bool:
        """Whether the JVM of ``generation`` was replaced (waiting for a replacement under
        way: its stop is what dropped this document's connection)."""
        with self._lock:
            return generation != self._generation

    def _failed(
        self, job: Job, exc: TikaServiceError, generation: int, process: Proc
    ) -> DocumentError:
        """Replace the JVM that failed on ``job``; the outcome the document ends as."""
        reason = str(exc)
        if process is not None and exc.kind == "gone":
            death = process.death(1.0)
            reason = f"{death} while parsing" if death else f"Tika service unreachable: {exc}"
        self._replace(generation)
        if process is not None:
            log.warning("Tika service replaced (%s) after %s", reason, job.url)
        outcome = "parse-timeout" if exc.kind == "timeout" else "parse-error"
        return DocumentError(outcome, reason)

    def _service(self) -> tuple[str, int, Proc]:
        """The URL of a running service, its generation and JVM (None: ``tika_url``'s);
        starts one if needed.

        Raises:
            TikaServiceError: ``missing`` (no java, not built, did not start, ``tika_url``
                dead at start; remembered for the rest of the run).
        """
        if self._check is not None:
            try:
                problem = self._check.problem(self._stopping)
            except Stopped:
                raise TikaServiceError("missing", "the Tika service was stopped") from None
            if problem is not None:
                raise TikaServiceError("missing", problem)
            return self._check.url, 0, None
        with self._lock:
            if self._missing is not None:
                raise TikaServiceError("missing", self._missing)
            if self._closed or self._stopping.is_set():  # no build nor JVM once stopping
                raise TikaServiceError("missing", "the Tika service was stopped")
            if self._process is None:
                try:
                    self._process = self._start()
                except TikaServiceError as exc:
                    if self._stopping.is_set():
                        raise TikaServiceError("missing", "the Tika service was stopped") from None
                    self._missing = str(exc)
                    log.warning("DOC/XLS/PPT/RTF end unsupported-format: %s", exc)
                    raise
            return self._process.url, self._generation, self._process

    def _start(self) -> TikaProcess:
        java = find_java(self._settings.tika_java)
        classpath = ready_classpath(self._settings.tika_service_dir, self._stopping)
        try:
            heap, threads = self._settings.tika_heap, self._threads
            process = TikaProcess(java, classpath, heap, threads, self._stopping)
        except TikaServiceError as exc:
            setting = f"extract.tika_java={self._settings.tika_java}"
            if "heap" in str(exc).lower():  # "Too small maximum heap", "… object heap"
                setting = f"extract.tika_heap={self._settings.tika_heap}"
            raise TikaServiceError("missing", f"{setting}: {exc}") from None
        log.info("Tika service started (pid %d, %s)", process.pid, process.url)
        return process

    def _replace(self, generation: int) -> None:
        """Stop the JVM of ``generation`` (if still current): the next document starts one."""
        if self._settings.tika_url:
            return
        with self._lock:
            if generation != self._generation or self._process is None:
                return
            self._process.stop()
            self._process = None
            self._generation += 1
            self.restarts += 1

    def close(self) -> None:
        """Stop the JVM by its pid, then the threads waiting on it (a JVM still starting
        and the ``tika_url`` check are abandoned within a fraction of a second)."""
        self._stopping.set()
        with self._lock:
            self._closed = True
            if self._process is not None:
                self._process.stop()
                self._process = None
        self._pool.shutdown(wait=True, cancel_futures=True)


class DocumentParsers(DocumentWorkers):
    """The document workers, with the Tika formats (:data:`TIKA_FORMATS`) sent to Tika.

    Args: as :class:`~indexer.pipeline.docworkers.DocumentWorkers`, plus ``extract``, the
    ``extract.*`` settings of the Tika service.
    """

    def __init__(
        self,
        count: int,
        limits: Limits,
        extract: ExtractSettings,
        parser: Parser = parse_document,
    ) -> None:
        super().__init__(count, limits, extract.document_timeout, extract.worker_memory, parser)
        self.tika = TikaDocuments(extract, count)

    async def parse(self, job: Job) -> Answer:
        """Parse one document where its format belongs; never raises for bad input."""
        if job.fmt in TIKA_FORMATS:
            return await self.tika.parse(job)
        return await super().parse(job)

    def close(self) -> None:
        """Stop the Tika service and every worker."""
        self.tika.close()
        super().close()
