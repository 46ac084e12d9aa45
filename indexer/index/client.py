"""What the index side needs from Solr, as an interface; and blocking calls that a stop
does not wait for.

:class:`SolrClient` is implemented by :class:`indexer.index.writer.SolrWriter` (the real
Solr, through :class:`indexer.solr.connection.SolrConnection`) and by the fakes of the unit
tests; :class:`~indexer.index.sink.DocumentSink`, the index stage and reindex take one.

:func:`in_thread` runs a blocking call in a daemon thread. ``asyncio.to_thread`` would use
the loop's default executor, which ``asyncio.run`` joins on exit: a request to a slow Solr
would hold a stopped crawl for up to ``solr.timeout``. A cancelled call is abandoned (its
answer is dropped; what it carried stays in the outbox and is sent again, which is safe
because adds replace by id and deletes are idempotent).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class SolrClient(Protocol):
    """Updates and id listings for one core or collection (blocking).

    Every method raises the :class:`indexer.errors.SolrError` subclasses of
    :mod:`indexer.solr.connection`'s translation.
    """

    def update(self, adds: Sequence[Mapping[str, Any]], deletes: Sequence[str]) -> None:
        """Send deletes (by id) and adds (JSON-ready documents, or the outbox's
        :class:`indexer.index.stored.StoredDoc`) with commitWithin."""

    def commit(self) -> None:
        """Hard commit, opening a new searcher."""

    def delete_query(self, query: str) -> None:
        """Delete every document matching a Lucene query, and commit."""

    def host_ids(self, host: str) -> list[str]:
        """Every document id whose ``host`` field is ``host``."""


async def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """Await ``fn(*args)`` run in a new daemon thread; cancelling abandons the call.

    Raises:
        whatever ``fn`` raises.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        try:
            result, error = fn(*args), None
        except BaseException as exc:  # handed to the awaiting task, not lost in the thread
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="solr-call", daemon=True).start()
    return await future
