"""Refresh: send again the documents that older code made (``indexer reindex --refresh``).

A document in Solr changes only when it is sent again, and a plain reindex skips pages
answering 304 and pages whose main-content hash is unchanged. A refresh picks the ids whose
``schema_version`` / ``extractor_version`` stamps (:mod:`indexer.index.versions`) are older
than the running code's, or missing, and takes them out of the reindex's "present in the
index" set: the crawler then fetches them without validators (no If-None-Match /
If-Modified-Since), extracts them again and sends them even when their hash is unchanged.

Why refetching rather than re-extracting stored raw text: the crawl state keeps URLs,
validators and hashes, not bodies (storing every HTML page, PDF and Office file would
multiply the state's size), and the refetch path is the one reindex already has for
documents missing from the index, with politeness, robots.txt and deletes of gone pages
applied as in any crawl. The cost is one full fetch per stale page.
"""

from __future__ import annotations

from dataclasses import dataclass

from indexer.index.versions import EXTRACTOR_VERSION, SCHEMA_VERSION, stale_query
from indexer.settings import SolrSettings
from indexer.solr.connection import SolrConnection
from indexer.solr.search import ids_matching, term_query


def stale_ids(cfg: SolrSettings, hosts: list[str]) -> frozenset[str]:
    """Ids of the documents of ``hosts`` stamped older than the running code (blocking).

    Raises:
        SolrUnavailableError, SolrError: Solr cannot be asked.
    """
    stale: set[str] = set()
    for host in hosts:
        stale.update(ids_matching(cfg, f"{term_query('host', host)} AND ({stale_query()})"))
    return frozenset(stale)


@dataclass(frozen=True)
class RefreshNeed:
    """How many documents of a core or collection are stamped older than the code."""

    stale: int
    total: int

    def message(self) -> str:
        """One line for the user of ``indexer solr update-config``."""
        current = f"schema_version {SCHEMA_VERSION}, extractor_version {EXTRACTOR_VERSION}"
        if self.stale == 0:
            return f"all {self.total} documents carry the current stamps ({current})"
        return (
            f"refresh needed: {self.stale} of {self.total} documents were indexed by older "
            f"code (before {current}); run `indexer reindex --refresh` to send them again "
            "(query-time files such as synonyms_ja.txt apply at once)"
        )


def refresh_need(conn: SolrConnection, target: str) -> RefreshNeed:
    """Count stale and all documents of core or collection ``target``.

    Raises:
        SolrUnavailableError, SolrError: Solr cannot be asked.
    """
    path = f"/{target}/select"
    stale = conn.get(path, {"q": stale_query(), "rows": "0"})["response"]["numFound"]
    total = conn.get(path, {"q": "*:*", "rows": "0"})["response"]["numFound"]
    return RefreshNeed(int(stale), int(total))
