"""Site-wide duplicates: one body answered for many URLs of a host (a maintenance page).

A broken deploy or a maintenance window makes every URL of a host answer ``200`` with the
same page. Indexed page by page, it would overwrite every document with the maintenance
text, and its validators would make the server answer ``304`` to it after recovery, so the
wrong text would stay. The rule: when one main-content hash is the answer of at least
:data:`MIN_PAGES` pages and at least ``crawl.sitewide_duplicate_share`` of the host's pages
hashed in the run, those pages end as ``sitewide-duplicate`` (class skipped, effect keep):

* no indexed document is replaced and no validators or hash are stored for them;
* pages of that hash judged before the threshold was crossed are judged again: a document
  sent with that content gets its previous content hash back, loses its validators and is
  marked to be fetched in full and sent again next run (the sent text cannot be taken back
  from Solr within the run: the outbox may have delivered it already); one that had no
  previous document is deleted;
* :meth:`SitewideDuplicates.is_sitewide` tells other learners (template statistics) to
  skip such pages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from indexer.crawl.frontier import Frontier
from indexer.report import RunStats
from indexer.settings import CrawlSettings

#: Fewest pages with one hash that make a site-wide duplicate.
MIN_PAGES = 5
OUTCOME = "sitewide-duplicate"
REASON = "same main content as crawl.sitewide_duplicate_share of the host's pages in this run"


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
        if count < MIN_PAGES or count < self._share * self._hashed[host]:
            return False
        self._marked.add((host, digest))
        self._settle_earlier(host, digest)
        return True

    def _settle_earlier(self, host: str, digest: str) -> None:
        earlier = self._frontier.rejudge(host, digest, OUTCOME, REASON)
        for url, old in sorted(earlier.items()):
            if self._stats.outcomes[old] > 0:
                self._stats.outcomes[old] -= 1
            self._stats.record(OUTCOME, REASON)
            if old == "indexed" and self._frontier.restore_previous(url) is None:
                self._delete(url)  # it had no document before this run
