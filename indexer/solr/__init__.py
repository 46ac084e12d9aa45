"""Solr side of the indexer: the local launcher and admin calls over HTTP."""

from indexer.solr.admin import solr_status
from indexer.solr.launcher import running_solr_url, start_solr, stop_solr

__all__ = ["running_solr_url", "solr_status", "start_solr", "stop_solr"]
