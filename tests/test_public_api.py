"""The public API stays short, sorted and importable."""

from __future__ import annotations

import pytest

import indexer


def test_all_is_sorted_and_resolves() -> None:
    assert indexer.__all__ == sorted(indexer.__all__)
    for name in indexer.__all__:
        assert getattr(indexer, name) is not None, name
    with pytest.raises(AttributeError):
        _ = indexer.no_such_name
