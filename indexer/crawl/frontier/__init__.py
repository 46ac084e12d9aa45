"""The frontier: the crawl state of one data directory (URLs, runs, scope, template statistics).

:mod:`.interface` names what a frontier backend implements;
:class:`~indexer.crawl.frontier.store.Frontier` is the SQLite backend (``frontier.sqlite3``
in the data directory); :mod:`.schema` holds its tables and version, :mod:`.view` a read-only
view for reports, :mod:`.runs` the run records, :mod:`.recrawl` the per-URL recrawl records
and :mod:`.extract_state` the extractor's per-host template statistics.
"""

from __future__ import annotations

from indexer.crawl.frontier.store import Claimed, Frontier

__all__ = ["Claimed", "Frontier"]
