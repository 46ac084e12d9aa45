"""scripts/extract_kinds.tsv labels every page of the three extraction sets exactly once.

Needs the shared corpora (skipped without them, failed under ``CI=true``).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.scripts_loader import SCRIPTS, load_script

KINDS = {"article", "listing", "documentation", "table-heavy", "synthetic"}


def test_rows_are_unique_and_use_the_documented_kinds() -> None:
    text = (SCRIPTS / "extract_kinds.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    assert rows[0] == ["set", "page", "kind"]
    assert all(len(row) == 3 for row in rows[1:])
    assert {row[2] for row in rows[1:]} <= KINDS
    assert not [k for k, n in Counter((r[0], r[1]) for r in rows[1:]).items() if n > 1]
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("by hand" in line for line in header)


@pytest.mark.parametrize("set_name", ["ja", "en", "readability"])
def test_every_corpus_page_has_a_kind_and_every_row_a_page(set_name: str) -> None:
    ev = load_script("eval_extraction")
    if not (ev.DEFAULT_ROOT / f"extract-{set_name}").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"corpus missing under CI: {ev.DEFAULT_ROOT}/extract-{set_name}")
        pytest.skip(f"corpus not available: {ev.DEFAULT_ROOT}/extract-{set_name}")
    pages = ev.load_set(set_name, ev.DEFAULT_ROOT)
    assert [p.id for p in pages if p.kind == "unlabelled"] == []
    labelled = {page for (s, page) in ev.load_kinds() if s == set_name}
    assert labelled == {p.id for p in pages}
