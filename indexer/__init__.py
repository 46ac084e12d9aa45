"""indexer: fetch → decode → extract → index pages into Apache Solr, Japanese first."""

__version__ = "0.1.0"
