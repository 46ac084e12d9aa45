"""Site-wide duplicates: one body answered for many URLs of a host (a maintenance page).

A broken deploy or a maintenance window makes every URL of a host answer ``200`` with the
same page. Indexed page by page, it would overwrite every document with the maintenance
text, and its validators would make the server answer ``304`` to it after recovery, so the
wrong text would stay. The rule: when one main-content hash is the answer of at least
:data:`MIN_PAGES` pages and at least ``crawl.sitewide_duplicate_share`` of the host's pages
hashed in the run, those pages end as ``sitewide-duplicate`` (class skipped, effect keep):

* no indexed document is replaced and no validators or hash are stored for them;
* within the run: the documents of a host's first :data:`HOLD_PAGES` hashed pages are held
  back (at most :data:`MAX_HELD` in all) until the host has that many; those whose hash
  crossed the threshold meanwhile are never sent (a maintenance window from the start of
  the run replaces nothing), the others are sent in order, each judged again as it is
  released (one a redirect sent meanwhile is not sent twice; one whose content a page
  released before it holds ends ``duplicate``, as the visit judges). A page reached through a
  redirect is not held (the visit sends it, so that a queued copy of its URL is settled
  at once and not fetched again, ``pipeline/redirects.py``); it is counted all the same,
  and judged again as below when its hash crosses the threshold later;
* pages of that hash judged before the threshold was crossed and already sent (the window
  began mid-run) are judged again: the document gets its previous content hash back, loses
  its validators and is marked to be fetched in full and sent again next run (sent text
  cannot be taken back from Solr: the outbox may have delivered it); one that had no
  previous document is deleted;
* :meth:`SitewideDuplicates.is_sitewide` tells other learners (template statistics) to
  skip such pages.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

from indexer.crawl.frontier import Frontier
from indexer.errors import StateError, StorageError
from indexer.outcomes import Outcome
from indexer.pipeline.verdict import SITEWIDE_REASON
from indexer.report import RunStats
from indexer.settings import CrawlSettings

log = logging.getLogger(__name__)

#: Fewest pages with one hash that make a site-wide duplicate.
MIN_PAGES = 5
#: A host's first hashed pages whose documents wait for the verdict (as few as can make
#: one: a killed crawl fetches those again on resume).
HOLD_PAGES = MIN_PAGES
#: Documents held back at most, over all hosts (beyond, they are sent at once).
MAX_HELD = 200
OUTCOME = Outcome.SITEWIDE_DUPLICATE
REASON = SITEWIDE_REASON


class SitewideDuplicates:
    """Counts main-content hashes per host in the current run and judges pages.

    Args:
        crawl: for ``crawl.sitewide_duplicate_share`` (0 < share ≤ 1).
        frontier: the run's frontier (stores each URL's hash of the run).
        stats: the run's counters (outcomes of pages judged again are moved).
        delete: deletes a document id (the crawl's sink).
    """

    def __init__(
        self,
        crawl: CrawlSettings,
        frontier: Frontier,
        stats: RunStats,
        delete: Callable[[str], None],
    ) -> None:
        self._share = crawl.sitewide_duplicate_share
        self._frontier = frontier
        self._stats = stats
        self._delete = delete
        self._hashed: Counter[str] = Counter()
        self._marked: set[tuple[str, str]] = set()
        self._held: dict[str, list[tuple[str, str, Callable[[], None]]]] = {}
        self._held_count = 0

    def is_sitewide(self, host: str, digest: str) -> bool:
        """Whether ``digest`` is a site-wide duplicate of ``host`` in this run (a hook for
        learners of site statistics, e.g. templates: such pages teach them nothing)."""
        return (host, digest) in self._marked

    def is_duplicate(self, url: str, host: str, digest: str) -> bool:
        """Count ``url``'s hash; True when the page is a site-wide duplicate.

        The page that crosses the threshold also settles the pages of that hash judged
        before it (see the module docstring).
        """
        self._hashed[host] += 1
        count = self._frontier.note_hash(url, digest)
        if (host, digest) in self._marked:
            return True
        crossed = count >= MIN_PAGES and count >= self._share * self._hashed[host]
        if crossed:
            self._marked.add((host, digest))
            self._settle_earlier(host, digest)
        if crossed or self._hashed[host] >= HOLD_PAGES:
            self._release(host)
        return crossed

    def holds(self, host: str) -> bool:
        """Whether :meth:`admit` holds a document of ``host`` now (fewer than
        :data:`HOLD_PAGES` of its pages hashed in the run, and room among the held)."""
        return self._hashed[host] < HOLD_PAGES and self._held_count < MAX_HELD

    def admit(self, url: str, host: str, digest: str, send: Callable[[], None]) -> None:
        """Send a page's document now (``send()``), or hold it while its host has fewer
        than :data:`HOLD_PAGES` hashed pages in the run (call after :meth:`is_duplicate`)."""
        if not self.holds(host):
            send()
            return
        self._held.setdefault(host, []).append((url, digest, send))
        self._held_count += 1

    def release_all(self) -> None:
        """Settle every held document (the run's end: hosts with fewer pages)."""
        for host in list(self._held):
            self._release(host)

    def requeue_held(self) -> None:
        """Put every held page back in the queue unsent (the run was stopped)."""
        for held in self._held.values():
            for url, _digest, _send in held:
                self._frontier.release(url)
        self._held.clear()
        self._held_count = 0

    def _release(self, host: str) -> None:
        held = self._held.pop(host, [])
        self._held_count -= len(held)
        for url, digest, send in held:
            if (host, digest) in self._marked:
                self._end(url, OUTCOME, REASON)
                continue
            if self._frontier.reached_now(url):  # a redirect to it sent it while held
                continue
            twin = self._frontier.same_content(digest, host, url)
            if twin is not None:  # a page released before it holds its content
                self._end(url, Outcome.DUPLICATE, f"same main content as {twin}")
                continue
            try:
                send()
            except (StateError, StorageError):  # the disk, not the page: the run stops
                raise  # (this URL and the rest stay unfinished for --resume)
            except Exception as exc:  # a bug must not end the crawl: record it on its URL
                log.exception("unexpected error on %s", url)
                self._end(url, Outcome.INTERNAL_ERROR, f"internal error: {exc!r}"[:300])

    def _end(self, url: str, outcome: str, reason: str) -> None:
        """End a held URL in the frontier and the run's counts together."""
        self._frontier.finish(url, outcome, reason)
        self._stats.record(outcome, reason)

    def _settle_earlier(self, host: str, digest: str) -> None:
        earlier = self._frontier.rejudge(host, digest, OUTCOME, REASON)
        for url, old in sorted(earlier.items()):
            if self._stats.outcomes[old] > 0:
                self._stats.outcomes[old] -= 1
            self._stats.record(OUTCOME, REASON)
            if old == "indexed" and self._frontier.restore_previous(url) is None:
                self._delete(url)  # it had no document before this run
