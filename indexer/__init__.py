"""indexer: fetch → decode → extract → index pages into Apache Solr, Japanese first.

The public API is the names in ``__all__``: ``run_crawl(settings, ...) -> RunStats`` and
``reindex(settings, ...) -> ReindexResult`` run jobs, ``decode_body`` and ``extract`` work
on one page, ``load_settings`` reads the settings; the types they take and return are
exported too. Each name is imported on first use (the command line starts fast) and then
kept, so every read gives the same object; type checkers see the real types.

``indexer.extract`` is the function even after ``import indexer.extract.dom``: the package
does not let a submodule import replace an exported name. The subpackage itself is reached
with ``from indexer.extract import dom`` or ``sys.modules["indexer.extract"]`` (``import
indexer.extract as x`` binds the function, as attribute lookup comes first).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.crawl.frontier import Frontier
    from indexer.encoding import decode_body
    from indexer.errors import IndexerError
    from indexer.extract import extract
    from indexer.models import DecodedText, ExtractedDoc, FetchResult
    from indexer.outcomes import Outcome
    from indexer.pipeline.crawler import Crawler, CrawlOptions, run_crawl
    from indexer.pipeline.reindex import ReindexResult, reindex
    from indexer.pipeline.verdict import ReindexPolicy
    from indexer.report import RunStats
    from indexer.settings import LoadedSettings, Settings, SiteRule, load_settings

__version__ = "0.1.0"

_EXPORTS = {
    "CrawlOptions": "indexer.pipeline.crawler",
    "Crawler": "indexer.pipeline.crawler",
    "DecodedText": "indexer.models",
    "ExtractedDoc": "indexer.models",
    "FetchResult": "indexer.models",
    "Frontier": "indexer.crawl.frontier",
    "IndexerError": "indexer.errors",
    "LoadedSettings": "indexer.settings",
    "Outcome": "indexer.outcomes",
    "ReindexPolicy": "indexer.pipeline.verdict",
    "ReindexResult": "indexer.pipeline.reindex",
    "RunStats": "indexer.report",
    "Settings": "indexer.settings",
    "SiteRule": "indexer.settings",
    "decode_body": "indexer.encoding",
    "extract": "indexer.extract",
    "load_settings": "indexer.settings",
    "reindex": "indexer.pipeline.reindex",
    "run_crawl": "indexer.pipeline.crawler",
}

__all__ = [
    "CrawlOptions",
    "Crawler",
    "DecodedText",
    "ExtractedDoc",
    "FetchResult",
    "Frontier",
    "IndexerError",
    "LoadedSettings",
    "Outcome",
    "ReindexPolicy",
    "ReindexResult",
    "RunStats",
    "Settings",
    "SiteRule",
    "decode_body",
    "extract",
    "load_settings",
    "reindex",
    "run_crawl",
]


def __getattr__(name: str) -> object:
    """Import an exported name on first use and keep it in the package namespace."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'indexer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later reads find it without this hook
    return value


class _Package(types.ModuleType):
    """The package's module type: importing the subpackage ``indexer.extract`` binds it as
    an attribute of ``indexer``, which would hide the exported function of that name."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
