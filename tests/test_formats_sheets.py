"""Workbooks whose declared used range is far larger than what they hold, and empty ones."""

from __future__ import annotations

import io
import time

import openpyxl
import pytest

from indexer.errors import DocumentError
from indexer.extract.formats.ooxml import xlsx_document

BIG = 1 << 30


def _book(cells: dict[str, str]) -> bytes:
    book = openpyxl.Workbook()
    for ref, value in cells.items():
        book.active[ref] = value  # type: ignore[index]
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_used_range_reaching_the_last_cell_reads_only_the_stored_rows() -> None:
    body = _book({"A1": "左上の値", "XFD1048576": "右下の値"})
    started = time.monotonic()
    doc = xlsx_document(body, BIG)
    assert time.monotonic() - started < 10  # the padded rectangle is 17 billion cells
    assert "左上の値" in doc.text and "右下の値" in doc.text


def test_a_workbook_without_values_is_no_text() -> None:
    with pytest.raises(DocumentError) as caught:
        xlsx_document(_book({}), BIG)
    assert caught.value.outcome == "no-text"
