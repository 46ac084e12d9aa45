"""The frontier in PostgreSQL (``frontier.url = "postgresql://…"``): one frontier for many
crawl processes and machines.

:mod:`.connection` adapts a psycopg 3 connection to the frontier's
:class:`~indexer.crawl.frontier.sql.Connection` (placeholders, errors); :mod:`.schema` holds
the tables in the database schema ``indexer`` and their versions; :mod:`.store` the backend
:class:`~indexer.crawl.frontier.postgres.store.PgFrontier`, the same interface as the SQLite
:class:`~indexer.crawl.frontier.store.Frontier` (:mod:`indexer.crawl.frontier.interface`).
"""

from __future__ import annotations
