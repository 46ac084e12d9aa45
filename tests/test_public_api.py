"""The public API: a pinned set of names, each a real object (never a submodule), stable."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

import indexer

PINNED = {
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
}


def test_all_is_the_pinned_set_sorted() -> None:
    assert set(indexer.__all__) == PINNED
    assert indexer.__all__ == sorted(indexer.__all__)
    with pytest.raises(AttributeError):
        _ = indexer.no_such_name


def test_each_name_reads_twice_as_the_same_object() -> None:
    for name in indexer.__all__:
        first, second = getattr(indexer, name), getattr(indexer, name)
        assert first is second, name
        assert not isinstance(first, types.ModuleType), name


def test_submodule_imports_do_not_shadow_the_functions() -> None:
    # in a fresh interpreter: importing the subpackages first is what used to shadow them
    check = (
        "import indexer.extract.dom, indexer.cli.reindex_cmd, indexer.pipeline.reindex, "
        "indexer, types; "
        "assert all(getattr(indexer, n) is getattr(indexer, n) and not "
        "isinstance(getattr(indexer, n), types.ModuleType) for n in indexer.__all__); "
        "assert callable(indexer.extract) and callable(indexer.reindex)"
    )
    subprocess.run([sys.executable, "-c", check], check=True, timeout=60)


def test_returned_types_are_exported() -> None:
    assert indexer.extract("<title>t</title><p>本文</p>", "http://a.test/").__class__ is (
        indexer.ExtractedDoc
    )
    assert indexer.decode_body(b"abc").__class__ is indexer.DecodedText
    assert indexer.load_settings(environ={}).__class__ is indexer.LoadedSettings
