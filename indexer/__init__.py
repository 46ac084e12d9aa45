"""indexer: fetch → decode → extract → index pages into Apache Solr, Japanese first.

The public API is the names in ``__all__``; they are imported on first use so that the
command line starts fast.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "CrawlOptions": "indexer.pipeline.crawler",
    "Crawler": "indexer.pipeline.crawler",
    "DecodedText": "indexer.models",
    "ExtractedDoc": "indexer.models",
    "FetchResult": "indexer.models",
    "Frontier": "indexer.crawl.frontier",
    "IndexerError": "indexer.errors",
    "Settings": "indexer.settings",
    "SiteRule": "indexer.extract",
    "decode_body": "indexer.encoding",
    "extract": "indexer.extract",
    "load_settings": "indexer.settings",
    "reindex": "indexer.pipeline.reindex",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'indexer' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
