"""The admin views of ``indexer serve`` (``/admin/…``), behind a login.

:func:`setup_admin` adds the routes, the login guard and the reindex jobs to the
application; :mod:`.auth` holds the sessions and CSRF rules, :mod:`.state` what is read
from the crawl state, :mod:`.solr_state` what is asked of Solr, :mod:`.jobs` the reindex
child processes, :mod:`.pages` and :mod:`.reindex_page` the handlers.
"""

from __future__ import annotations

from indexer.web.admin.context import AdminContext
from indexer.web.admin.pages import setup_admin

__all__ = ["AdminContext", "setup_admin"]
