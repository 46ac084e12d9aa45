"""Word, Excel and PowerPoint (Office Open XML) text: python-docx, openpyxl, python-pptx.

Each package is checked by :func:`indexer.extract.formats.package.check_package` first.
Word: body paragraphs and tables in document order (a table's cells row by row, tab
separated), the distinct header texts before them and footer texts after them (each once,
not once per section); paragraphs in a Heading 1–6 style are the ``headings``. Excel
(openpyxl read-only, cached values): every sheet, its name on the first line, rows of
tab-separated cells. PowerPoint: slide by slide the text of each shape (groups and tables
included), then the slide's notes. The title is the core properties'
``dc:title``, else (decks) the first slide's title, else the first line of the body. The
language is the text's when it shows one (:func:`.fields.document_lang`), else the core
properties' ``dc:language``.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterable, Iterator
from typing import Any

import docx
import openpyxl
import pptx
from lxml import etree
from pptx.shapes.base import BaseShape
from pptx.shapes.group import GroupShape

from indexer.errors import DocumentError
from indexer.extract.formats.fields import (
    clean_text,
    document_lang,
    first_line,
    iso_date,
    meta_value,
)
from indexer.extract.formats.package import check_package
from indexer.models import ExtractedDoc


def _extracted(fmt: str, text: str, props: Any, pages: int | None, title: str = "") -> ExtractedDoc:
    """The document record from text and OPC core properties (title, creator, dates)."""
    text = clean_text(text)
    if not text:
        raise DocumentError("no-text", f"{fmt} without text")
    language = meta_value(getattr(props, "language", None))
    return ExtractedDoc(
        title=meta_value(props.title) or title or first_line(text),
        text=text,
        extractor=fmt,
        author=meta_value(getattr(props, "author", None))
        or meta_value(getattr(props, "creator", None)),
        description=meta_value(getattr(props, "subject", None)),
        keywords=[k.strip() for k in (meta_value(props.keywords) or "").split(",") if k.strip()],
        created=iso_date(props.created),
        modified=iso_date(props.modified),
        lang=document_lang(text, language),
        format=fmt,
        page_count=pages,
    )


_HEADERS = ("header", "first_page_header", "even_page_header")
_FOOTERS = ("footer", "first_page_footer", "even_page_footer")


def _row_text(cells: Iterable[object]) -> str:
    return "\t".join(str(c).strip() for c in cells if c is not None and str(c).strip())


def docx_document(body: bytes, max_unpacked: int) -> ExtractedDoc:
    """A Word document's text (paragraphs and tables in order) and core properties.

    Raises:
        DocumentError: see :func:`check_package`; ``no-text`` for an empty document.
    """
    check_package(body, max_unpacked)
    document = docx.Document(io.BytesIO(body))
    main = "\n".join(_blocks(document))
    headers, footers = _margins(document)
    text = "\n\n".join(part for part in (*headers, main, *footers) if part.strip())
    doc = _extracted("docx", text, document.core_properties, None, first_line(main))
    return dataclasses.replace(doc, headings=list(_headings(document)))


#: Word's built-in heading styles (ECMA-376 part 1 §17.7.4.9 ``w:name``; python-docx gives
#: the English name whatever the interface language, ``見出し 1`` included).
_HEADING_STYLE = re.compile(r"heading [1-6]", re.IGNORECASE)


def _headings(document: Any) -> Iterator[str]:
    """The texts of the body's paragraphs in a Heading 1–6 style (or a style based on
    one), in document order: the ``headings`` field, as an HTML page's ``h1``–``h6``."""
    for paragraph in document.paragraphs:
        text = paragraph.text.strip()
        if text and _is_heading(paragraph.style):
            yield text


def _is_heading(style: Any) -> bool:
    """Whether a paragraph style is a built-in heading or based on one (a house style
    "Chapter" based on Heading 1), followed up to a few levels."""
    for _ in range(5):
        if style is None:
            return False
        if _HEADING_STYLE.fullmatch(str(style.name or "")):
            return True
        style = style.base_style
    return False


def _blocks(container: Any) -> Iterator[str]:
    """Paragraph texts and table rows of a body, header, footer or table cell, in document
    order; a paragraph's text boxes follow it."""
    for block in container.iter_inner_content():
        if isinstance(block, docx.table.Table):
            yield from _table_rows(block)
        else:
            yield block.text
            yield from _text_boxes(block._p)


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

#: A text box's content (``w:txbxContent``), the drawing's own (``mc:Choice``) and not
#: the VML copy a producer adds for older readers (``mc:Fallback``), ECMA-376 part 1
#: §17.17.1 and part 3 §10.2.1.
_TEXT_BOXES = etree.XPath(
    ".//w:txbxContent[not(ancestor::mc:Fallback)]",
    namespaces={
        "w": _W,
        "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    },
)


def _text_boxes(paragraph: Any) -> Iterator[str]:
    """The text of the text boxes anchored in one ``w:p`` element, a line per paragraph."""
    boxes = _TEXT_BOXES(paragraph)
    for box in boxes if isinstance(boxes, list) else ():
        if not isinstance(box, etree._Element):
            continue
        for para in box.iterchildren(f"{{{_W}}}p"):
            yield "".join(t.text or "" for t in para.iter(f"{{{_W}}}t"))


def _margins(document: Any) -> tuple[list[str], list[str]]:
    """The distinct texts of the sections' headers and footers (default, first-page and
    even-page ones), each once however many sections repeat or link to it."""
    headers: list[str] = []
    footers: list[str] = []
    for section in document.sections:
        for found, names in ((headers, _HEADERS), (footers, _FOOTERS)):
            for name in names:
                part = getattr(section, name)
                text = "" if part.is_linked_to_previous else "\n".join(_blocks(part)).strip()
                if text and text not in found:
                    found.append(text)
    return headers, footers


def _table_rows(table: docx.table.Table) -> Iterator[str]:
    for row in table.rows:
        seen: set[int] = set()
        cells = []
        for cell in row.cells:  # a merged cell repeats: once per row
            if id(cell._tc) not in seen:
                seen.add(id(cell._tc))
                cells.append("\n".join(_blocks(cell)))  # nested tables too
        yield _row_text(cells)


def xlsx_document(body: bytes, max_unpacked: int) -> ExtractedDoc:
    """A workbook's text: each sheet's name, then its rows (cached values, tab separated).

    Raises:
        DocumentError: see :func:`check_package`; ``no-text`` for empty sheets.
    """
    check_package(body, max_unpacked)
    book = openpyxl.load_workbook(io.BytesIO(body), read_only=True, data_only=True)
    try:
        parts: list[str] = []
        cells = False
        for sheet in book.worksheets:
            parts.append(sheet.title)
            # the declared used range may reach XFD1048576 while two cells hold values:
            # read the rows the sheet stores, not its padded rectangle
            sheet.reset_dimensions()
            for row in sheet.iter_rows(values_only=True):
                line = _row_text(row)
                if line:
                    parts.append(line)
                    cells = True
            parts.append("")
        if not cells:  # sheet names alone are no text
            raise DocumentError("no-text", "no cell holds a value")
        count = len(book.worksheets)
        return _extracted("xlsx", "\n".join(parts), book.properties, count)
    finally:
        book.close()


def _shape_texts(shapes: Iterable[BaseShape]) -> Iterator[str]:
    for shape in shapes:
        if isinstance(shape, GroupShape):
            yield from _shape_texts(shape.shapes)
        elif shape.has_text_frame:
            yield shape.text_frame.text  # type: ignore[attr-defined]
        elif getattr(shape, "has_table", False):
            for row in shape.table.rows:  # type: ignore[attr-defined]
                yield _row_text(cell.text for cell in row.cells)


def pptx_document(body: bytes, max_unpacked: int) -> ExtractedDoc:
    """A deck's text: slide by slide, shapes then notes.

    Raises:
        DocumentError: see :func:`check_package`; ``no-text`` for a deck without text.
    """
    check_package(body, max_unpacked)
    deck = pptx.Presentation(io.BytesIO(body))
    parts: list[str] = []
    first_title = ""
    for slide in deck.slides:
        title_shape = slide.shapes.title
        if not first_title and title_shape is not None and title_shape.has_text_frame:
            first_title = first_line(title_shape.text_frame.text)
        parts.extend(_shape_texts(slide.shapes))
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            parts.append(slide.notes_slide.notes_text_frame.text)
        parts.append("")
    return _extracted("pptx", "\n".join(parts), deck.core_properties, len(deck.slides), first_title)
