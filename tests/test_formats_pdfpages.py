"""PDF pages: a damaged middle page costs that page, named in the note, not the document
nor its completeness; vertical writing (縦書き) reads columns right to left, each top to
bottom, bands top to bottom, from both producers' ways of setting it."""

from __future__ import annotations

import io
import re

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from indexer.errors import DocumentError
from indexer.extract.formats.pdf import page_ranges, pdf_document
from tests.formats_fixtures import LIBREOFFICE_PDF, reportlab_pdf

PAGES = [[f"第{n}頁の本文です。", f"規程の第{n}条を定める。"] for n in range(1, 7)]


def _object(pdf: bytes, number: int) -> tuple[int, int]:
    """Where object ``number``'s body lies (after ``N 0 obj``, before ``endobj``)."""
    match = re.search(rb"\n%d 0 obj\n" % number, pdf)
    assert match is not None
    return match.end(), pdf.index(b"endobj", match.end())


def _page_object(pdf: bytes, page: int) -> int:
    kids = re.search(rb"/Kids \[([^\]]*)\]", pdf)
    assert kids is not None
    return int(re.findall(rb"(\d+) 0 R", kids.group(1))[page - 1])


def _break_page(pdf: bytes, page: int) -> bytes:
    """The page's dictionary overwritten (PDFium cannot load the page)."""
    start, end = _object(pdf, _page_object(pdf, page))
    return pdf[:start] + b"x" * (end - start) + pdf[end:]


def _break_content(pdf: bytes, page: int) -> bytes:
    """The page's content stream overwritten with junk of the same length."""
    start, end = _object(pdf, _page_object(pdf, page))
    contents = re.search(rb"/Contents (\d+) 0 R", pdf[start:end])
    assert contents is not None
    start, end = _object(pdf, int(contents.group(1)))
    data = pdf.index(b"stream\n", start) + 7
    stop = pdf.index(b"endstream", data)
    return pdf[:data] + b"q" * (stop - data) + pdf[stop:]


@pytest.mark.parametrize("damage", [_break_page, _break_content])
@pytest.mark.parametrize("broken", [(2,), (4,), (2, 3, 5)])
def test_damaged_pages_are_left_out_and_named(damage: object, broken: tuple[int, ...]) -> None:
    pdf = reportlab_pdf(PAGES, title="規程集")
    for page in broken:
        pdf = damage(pdf, page)  # type: ignore[operator]
    doc = pdf_document(pdf, 100)
    for number in range(1, 7):
        assert (f"第{number}頁の本文です。" in doc.text) is (number not in broken)
    assert doc.page_count == 6 and doc.title == "規程集"
    assert page_ranges(list(broken)) in doc.note
    assert ("not readable" if damage is _break_page else "without content") in doc.note


def test_a_pdf_without_any_readable_page_is_a_parse_error() -> None:
    pdf = reportlab_pdf(PAGES[:2])
    with pytest.raises(DocumentError) as caught:
        pdf_document(_break_page(_break_page(pdf, 1), 2), 100)
    assert caught.value.outcome == "parse-error"
    assert pdf_document(reportlab_pdf(PAGES), 100).note == ""  # a sound PDF has no note
    assert page_ranges([1, 2, 3, 7, 9, 10]) == "1-3, 7, 9-10"


def _vertical_font() -> str:
    name = "HeiseiMin-W3-V"
    if name not in pdfmetrics.getRegisteredFontNames():
        font = UnicodeCIDFont("HeiseiMin-W3", isVertical=True)
        font.name = font.fontName = name
        pdfmetrics.registerFont(font)
    return name


def _vertical_pdf(title: str, bands: list[list[str]], folio: str) -> bytes:
    """A page with a horizontal title, bands of vertical columns (each band's first column
    rightmost) and a horizontal folio at the foot."""
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, invariant=True)
    pdf.setFont("HeiseiKakuGo-W5", 16)
    pdf.drawString(60, 800, title)
    pdf.setFont(_vertical_font(), 12)
    for number, columns in enumerate(bands):
        for column, text in enumerate(columns):
            pdf.drawString(520 - 22 * column, 770 - 330 * number, text)
    pdf.setFont("HeiseiMin-W3", 10)
    pdf.drawString(290, 40, folio)
    pdf.showPage()
    pdf.save()
    return out.getvalue()


@pytest.mark.parametrize(
    "bands",
    [
        [["一段目の第一行です。", "一段目の第二行です。", "第三行。"]],
        [["上段の一行目。", "上段の二行目です。"], ["下段の一行目です。", "下段の二行目。", "三"]],
    ],
)
def test_vertical_columns_read_right_to_left_in_bands(bands: list[list[str]]) -> None:
    doc = pdf_document(_vertical_pdf("総務部だより　第十二号", bands, "- 1 -"), 10)
    expected = ["総務部だより　第十二号", *(c for band in bands for c in band), "- 1 -"]
    assert doc.text.splitlines() == expected


def test_libreoffice_vertical_writing_comes_out_in_columns() -> None:
    doc = pdf_document((LIBREOFFICE_PDF.parent / "vertical-ja.pdf").read_bytes(), 10)
    text = doc.text.replace("\n", "")
    assert text == (
        "縦書きの社内報春の健康診断は四月十日から始まります。受診票は総務課で受け取ってく"
        "ださい。会場は本館三階の大会議室です。"
    )
    assert doc.text.splitlines()[0] == "縦書きの社内報"  # a column, not one character a line
