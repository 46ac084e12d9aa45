"""Office documents: a Word file's headers and footers are indexed, each distinct text
once however many sections repeat it; the language comes from the text when the
metadata (``dc:language``) contradicts it."""

from __future__ import annotations

import io

import docx
import openpyxl
import pptx
import pytest
from docx.enum.section import WD_SECTION

from indexer.extract.formats import Limits, parse_document
from indexer.extract.formats.fields import document_lang

JA = "本年度の安全衛生計画について、各部署の担当者は内容を確認してください。"
EN = "The annual safety plan is attached; every department should review it carefully. "


def _sectioned(headers: list[str | None], footer: str, first_page: str = "") -> bytes:
    """A DOCX with one section per entry of ``headers`` (None: linked to the previous)."""
    document = docx.Document()
    document.core_properties.title = "安全衛生計画"
    for number, header in enumerate(headers):
        section = document.sections[0] if number == 0 else document.add_section(WD_SECTION.NEW_PAGE)
        if header is None:
            section.header.is_linked_to_previous = True
        else:
            section.header.is_linked_to_previous = False
            section.header.paragraphs[0].text = header
            section.footer.is_linked_to_previous = False
            section.footer.paragraphs[0].text = footer  # the same text in every section
        if first_page and number == 0:
            section.different_first_page_header_footer = True
            section.first_page_header.paragraphs[0].text = first_page
        document.add_paragraph(f"第{number + 1}章　{JA}")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("headers", "first_page"),
    [
        (["社外秘　総務部"], ""),
        (["社外秘　総務部", None, "社外秘　総務部"], ""),
        (["社外秘　総務部", "第二部　詳細", None], "表紙のヘッダー"),
    ],
)
def test_headers_and_footers_are_indexed_once(headers: list[str | None], first_page: str) -> None:
    body = _sectioned(headers, "二〇二四年度版　無断転載禁止", first_page)
    doc = parse_document("docx", body, "http://127.0.0.1/p.docx", None, Limits()).extracted
    for header in {h for h in headers if h} | ({first_page} - {""}):
        assert doc.text.count(header) == 1, (header, doc.text)
    assert doc.text.count("二〇二四年度版　無断転載禁止") == 1
    for number in range(len(headers)):
        assert f"第{number + 1}章" in doc.text
    assert doc.title == "安全衛生計画"


def test_an_untitled_document_takes_its_title_from_the_body_not_the_header() -> None:
    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "社外秘"
    document.add_paragraph("出張旅費規程")
    document.add_paragraph(JA)
    out = io.BytesIO()
    document.save(out)
    doc = parse_document("docx", out.getvalue(), "http://127.0.0.1/t.docx", None, Limits())
    assert doc.extracted.title == "出張旅費規程" and "社外秘" in doc.extracted.text


_BOX = (
    '<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
    ' xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
    ' xmlns:v="urn:schemas-microsoft-com:vml"><mc:AlternateContent>'
    '<mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent>{paras}</w:txbxContent>'
    "</wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>"
    "<w:txbxContent>{paras}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
    "</mc:AlternateContent></w:r>"
)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_nested_tables_and_text_boxes_are_indexed_once(depth: int) -> None:
    """A form's layout: tables inside table cells (to ``depth``) and a text box that the
    producer wrote twice (the drawing and its VML fallback for older readers)."""
    from docx.oxml import parse_xml

    document = docx.Document()
    document.add_paragraph("申請書")
    container: object = document
    for level in range(depth):
        table = container.add_table(rows=1, cols=2)  # type: ignore[attr-defined]
        table.cell(0, 1).text = f"第{level + 1}層の欄"
        container = table.cell(0, 0)
    container.add_paragraph("入れ子の奥の氏名欄")  # type: ignore[attr-defined]
    anchor = document.add_paragraph("備考")
    paras = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in ("箱の一行目", "箱の二行目"))
    anchor._p.append(parse_xml(_BOX.format(paras=paras)))
    out = io.BytesIO()
    document.save(out)
    text = parse_document(
        "docx", out.getvalue(), "http://127.0.0.1/f.docx", None, Limits()
    ).extracted.text
    for expected in (
        "入れ子の奥の氏名欄",
        "箱の一行目",
        "箱の二行目",
        *(f"第{n + 1}層の欄" for n in range(depth)),
    ):
        assert text.count(expected) == 1, (expected, text)
    assert text.index("備考") < text.index("箱の一行目") < text.index("箱の二行目")


def _word(text: str, language: str) -> bytes:
    document = docx.Document()
    document.core_properties.language = language
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _sheet(text: str, language: str) -> bytes:
    book = openpyxl.Workbook()
    book.active.append([text])  # type: ignore[union-attr]
    book.properties.language = language
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _deck(text: str, language: str) -> bytes:
    deck = pptx.Presentation()
    deck.core_properties.language = language
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.placeholders[1].text = text  # type: ignore[attr-defined]
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


@pytest.mark.parametrize(("fmt", "make"), [("docx", _word), ("xlsx", _sheet), ("pptx", _deck)])
@pytest.mark.parametrize(
    ("text", "declared", "expected"),
    [
        (JA * 3, "en-US", "ja"),  # the template's locale over Japanese text
        (JA * 3, "ja-JP", "ja"),
        (EN * 4, "ja-JP", None),  # metadata says Japanese, the text has no kana or kanji
        (EN * 4, "en-US", "en-US"),
        (EN * 4, "", None),
    ],
)
def test_the_text_decides_the_language_over_metadata(
    fmt: str, make: object, text: str, declared: str, expected: str | None
) -> None:
    body = make(text, declared)  # type: ignore[operator]
    doc = parse_document(fmt, body, f"http://127.0.0.1/x.{fmt}", None, Limits()).extracted
    assert doc.lang == expected
    assert document_lang("短い", "en-US") == "en-US"  # too little text to contradict
