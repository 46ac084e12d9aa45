"""The frontier as an interface: what the crawl, the reindex job and the reports ask of it.

:class:`~indexer.crawl.frontier.store.Frontier` (SQLite, ``frontier.sqlite3``) is the backend
here; a PostgreSQL backend (Throughput, part 2) implements the same protocols. The interface
is split by concern so that each can grow beside the others:

- :class:`URLQueue`: the queue of URLs — runs, adding (batched: one call, one transaction),
  claiming the next due URL of a host (an index lookup, flat in the number queued), retries
  and final outcomes;
- :class:`RunRecords`: the run records (phases, exit code, reason) and the stored meta
  values (seeds, scope, notes);
- :class:`RecrawlRecords`: what a recrawl remembers per URL (hashes, outlinks, reached);
- :class:`ExtractRecords`: the extractor's per-host template statistics and explanations.

:class:`AsyncURLQueue` is the queue's hot calls as coroutines that leave the event loop (a
backend runs them on one thread of its own, adds batched, in the order they were handed
in, so that a refusal recorded after an add cannot overtake it):
:class:`~indexer.crawl.frontier.threaded.ThreadedQueue` implements it over any backend of
:class:`URLQueue`; the crawl does not use it yet, it calls :class:`URLQueue` on the loop
(with grouped commits, :mod:`indexer.crawl.frontier.groups`).
Entries are ``(url, host, depth)``; times are epoch seconds; outcomes are
:class:`~indexer.outcomes.Outcome` values (or ``http-<code>``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from indexer.crawl.frontier.hoprecords import DocFields, Hop
from indexer.crawl.frontier.store import Claimed

Entry = tuple[str, str, int]  # (url, host, depth)
Refusal = tuple[str, str, int, str, str]  # (url, host, depth, outcome, reason)


class URLQueue(Protocol):
    """The queue of URLs of one data directory (one crawl at a time holds it)."""

    run: int

    def start_run(self, resume: bool) -> int:
        """Begin (or with ``resume`` continue) a run; return its number."""
        ...

    def add(self, entries: Iterable[Entry]) -> int:
        """Queue entries not yet seen in this run, in one transaction; return how many."""
        ...

    def hosts_with_queued(self) -> list[str]:
        """Hosts with at least one queued URL."""
        ...

    def claim(self, host: str, now: float) -> Claimed | None:
        """Take the shallowest URL of ``host`` due at ``now``; None when none is due."""
        ...

    def next_due(self, host: str) -> float | None:
        """The earliest due time among the host's queued URLs, or None."""
        ...

    def retry_later(self, url: str, at: float, reason: str) -> None:
        """Queue a claimed URL again for ``at``, counting the attempt."""
        ...

    def release(self, url: str) -> None:
        """Queue a claimed URL again without counting an attempt."""
        ...

    def finish(
        self,
        url: str,
        outcome: str,
        reason: str = "",
        *,
        reached: bool = False,
        etag: str | None = None,
        last_modified: str | None = None,
        content_hash: str | None = None,
    ) -> None:
        """Record a claimed URL's final outcome for this run."""
        ...

    def finish_left(self, url: str, outcome: str, reason: str) -> None:
        """Record the outcome of a URL whose document was deleted; drop its validators."""
        ...

    def record_many(self, rows: Sequence[Refusal]) -> list[bool]:
        """Store final outcomes of URLs never queued, in one transaction; one answer a row
        (False: already handled in this run)."""
        ...

    def finish_queued(self, outcome: str, reason: str, host: str | None = None) -> int:
        """End every URL still queued (of ``host``, or all) with ``outcome``; how many."""
        ...

    def query_variants(self, url: str, limit: int) -> int:
        """Known URLs sharing ``url``'s part before ``?``, counted up to ``limit``."""
        ...

    def queued_count(self) -> int:
        """URLs queued or being fetched."""
        ...

    def fetched_in_run(self) -> int:
        """URLs claimed at least once in this run."""
        ...

    def fetched_in_run_by_host(self) -> dict[str, int]:
        """``{host: URLs claimed in this run}``."""
        ...

    def outcomes(self) -> Iterator[tuple[str, str, str, str]]:
        """``(url, host, outcome, reason)`` of every URL with a final outcome."""
        ...


class RunRecords(Protocol):
    """Run records and stored meta values."""

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        """Store the current run's phase (closing phases end the run)."""
        ...

    def finish_run(self) -> None:
        """Mark the current run finished."""
        ...

    def meta(self, key: str) -> str | None:
        """A stored meta value, or None."""
        ...

    def set_meta(self, key: str, value: str) -> None:
        """Store a meta value."""
        ...

    def save_seeds(self, seeds: Iterable[str]) -> None:
        """Remember the crawl's seeds (they define the scope of ``--resume``)."""
        ...

    def stored_seeds(self) -> tuple[str, ...]:
        """The seeds of the last crawl that had any."""
        ...


class RecrawlRecords(Protocol):
    """What a recrawl remembers beside the URL states."""

    def same_content(self, digest: str, host: str, url: str) -> str | None:
        """Another URL of ``host`` reached in this run with main-content hash ``digest``."""
        ...

    def reached_now(self, url: str) -> bool:
        """Whether ``url`` was reached in this run."""
        ...

    def known(self, url: str) -> bool:
        """Whether the frontier has ``url`` at all (any state, any run)."""
        ...

    def record_hops(self, hops: Iterable[Hop], outcome: str) -> list[bool]:
        """End intermediate redirect hops ``(url, host, depth, reason)`` in this run; which
        were ended."""
        ...

    def buried(self, url: str) -> bool:
        """Whether ``indexer delete`` buried ``url``."""
        ...

    def record_reached(
        self, url: str, host: str, depth: int, source: str, fields: DocFields
    ) -> bool:
        """Record ``url`` as indexed in this run, reached by a redirect from ``source``, with
        the document's ``(etag, last_modified, content_hash)``."""
        ...

    def save_outlinks(self, url: str, links: list[str]) -> None:
        """Store the outlinks of a page's last full fetch."""
        ...

    def stored_outlinks(self, url: str) -> list[str]:
        """The outlinks stored for ``url``."""
        ...


class ExtractRecords(Protocol):
    """The extractor's per-host template statistics and per-URL explanations."""

    def load_template_stats(self, host: str) -> str | None:
        """The host's stored statistics (JSON), or None."""
        ...

    def save_template_stats(self, items: Iterable[tuple[str, str]]) -> None:
        """Store ``(host, JSON)`` statistics."""
        ...

    def save_explanation(self, url: str, run: int, lines: str) -> None:
        """Store the explanation (JSON lines) of a page's extraction."""
        ...

    def save_packed_explanation(self, url: str, run: int, packed: bytes) -> None:
        """:meth:`save_explanation` of lines compressed already: ``zlib`` of their UTF-8
        (:func:`indexer.extract.explain.pack`, done in the page's worker)."""
        ...

    def explanation(self, url: str) -> str | None:
        """The stored explanation of ``url``, or None."""
        ...


class FrontierBackend(URLQueue, RunRecords, RecrawlRecords, Protocol):
    """A whole frontier backend: the queue, the run records, the recrawl records, and the
    extractor's records as ``extract_state``."""

    @property
    def extract_state(self) -> ExtractRecords:
        """The extractor's template statistics and explanations."""
        ...

    def close(self) -> None:
        """Close the backend and release the data directory's lock."""
        ...


class AsyncURLQueue(Protocol):
    """The queue's hot calls as coroutines that leave the event loop."""

    async def add(self, entries: Sequence[Entry]) -> int:
        """:meth:`URLQueue.add`, batched with the adds of other pages."""
        ...

    async def record_many(self, rows: Sequence[Refusal]) -> list[bool]:
        """:meth:`URLQueue.record_many`, off the loop."""
        ...

    async def claim(self, host: str, now: float) -> Claimed | None:
        """:meth:`URLQueue.claim`, after every add handed in before it."""
        ...

    async def next_due(self, host: str) -> float | None:
        """:meth:`URLQueue.next_due`, after every add handed in before it."""
        ...

    async def close(self) -> None:
        """Write what is pending and stop the thread."""
        ...


if TYPE_CHECKING:  # mypy checks that the SQLite backend implements the whole interface
    from indexer.crawl.frontier.store import Frontier

    _SQLITE: type[FrontierBackend] = Frontier
