"""The format decision: the bytes decide, a declared type that names what the bytes cannot
be ends as wrong-type, a format not chosen too; part 2's ids are valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer import formats as ids
from indexer.errors import ConfigError
from indexer.extract.formats.pdf import pdf_document, xmp_title
from indexer.extract.formats.sniff import decide
from indexer.settings import load_settings
from tests.formats_fixtures import excel_file, powerpoint_file, reportlab_pdf, word_file

PDF = reportlab_pdf([["本文"]], title="題")
DOCX = word_file("題", ["本文"], [["a"]])
XLSX = excel_file("題", {"表": [["a"]]})
PPTX = powerpoint_file("題", [("a", "b", "c")])
OLE_DOC = (Path(__file__).parent / "fixtures" / "tika" / "sample.doc").read_bytes()


@pytest.mark.parametrize(
    ("body", "declared", "url", "expected"),
    [
        (PDF, "application/pdf", "/a", "pdf"),
        (PDF, "application/octet-stream", "/download?id=3", "pdf"),
        (PDF, None, "/a", "pdf"),
        (b"\r\n" + PDF, "application/pdf", "/a", "pdf"),  # junk before the header
        (DOCX, "application/zip", "/a", "docx"),
        (DOCX, "application/msword", "/a.doc", "docx"),  # same family: the bytes win
        (XLSX, "application/octet-stream", "/a", "xlsx"),
        (PPTX, "", "/a", "pptx"),
        (b"hello", "text/plain; charset=utf-8", "/a", "text"),
        (b"a,b\n1,2\n", "text/csv", "/a", "csv"),
        (b"a,b\n1,2\n", "application/octet-stream", "/x.csv", "csv"),
        (b"<!doctype html><p>x", "text/html", "/a", "html"),
        (b"<html><p>x", "application/octet-stream", "/a", "html"),
        (b"just words", None, "/", "html"),  # no type, no extension: a page, as before
        (b"just words", None, "/readme.txt", "text"),
        (b"<title>The %PDF-1.7 header</title>", "text/html", "/a", "html"),
    ],
)
def test_the_bytes_decide_the_format(
    body: bytes, declared: str | None, url: str, expected: str
) -> None:
    verdict = decide(body, declared, "http://127.0.0.1" + url, ids.ALL)
    assert (verdict.format, verdict.outcome) == (expected, "")


@pytest.mark.parametrize(
    ("body", "declared", "found"),
    [
        (b"<html>not a pdf</html>", "application/pdf", "text"),
        (b"\x89PNG\r\n\x1a\n" + bytes(64), "image/png", "binary"),
        (b"\x89PNG\r\n\x1a\n" + bytes(64), "application/octet-stream", "binary"),
        (b"{}", "application/json", "text"),
    ],
)
def test_a_type_the_bytes_cannot_be_or_unknown_bytes_is_wrong_type(
    body: bytes, declared: str, found: str
) -> None:
    verdict = decide(body, declared, "http://127.0.0.1/a", ids.ALL)
    assert verdict.format is None and verdict.outcome == "wrong-type"
    assert found in verdict.reason and declared in verdict.reason


def test_formats_not_chosen_and_part_two_formats() -> None:
    verdict = decide(PDF, "application/pdf", "http://127.0.0.1/a", ("html",))
    assert (verdict.outcome, verdict.format) == ("excluded-format", None)
    assert "crawl.formats" in verdict.reason
    for body, declared in ((OLE_DOC, "application/octet-stream"), (b"{\\rtf1 x}", "text/rtf")):
        verdict = decide(body, declared, "http://127.0.0.1/a", ids.ALL)
        assert verdict.format in ("doc", "rtf") and verdict.outcome == ""


def test_crawl_formats_setting_validates_ids() -> None:
    chosen = load_settings(None, {"crawl.formats": ("pdf", "odt")}, environ={})
    assert chosen.settings.crawl.formats == ("pdf", "odt")
    with pytest.raises(ConfigError, match=r"crawl\.formats.*'docm'"):
        load_settings(None, {"crawl.formats": ("pdf", "docm")}, environ={})
    env = load_settings(None, None, environ={"INDEXER_CRAWL_FORMATS": "html,text"})
    assert env.settings.crawl.formats == ("html", "text")


def test_pdf_title_falls_back_to_xmp_then_the_first_line() -> None:
    packet = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:title><rdf:Alt>'
        '<rdf:li xml:lang="x-default">年次報告書 &amp; 資料</rdf:li></rdf:Alt></dc:title>'
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
    ).encode()
    untitled = reportlab_pdf([["一行目の見出し"], ["二頁目"]])
    assert xmp_title(untitled) is None
    assert pdf_document(untitled, 10).title == "一行目の見出し"  # "untitled" is a placeholder
    assert xmp_title(untitled + b"\n%" + packet) == "年次報告書 & 資料"
