"""PDF text through pypdfium2 (PDFium, the engine of Chrome).

PDFium was measured against pdfminer.six on Japanese PDFs (ReportLab CID fonts, LibreOffice
embedded fonts; ``scripts/bench/formats.py``): both give the right text, PDFium 8–10 times
faster per page, so PDFium is kept. Text comes page by page in PDFium's reading order,
vertical writing in its own (:mod:`.vertical`); a page PDFium cannot load or whose content
is empty is left out and named in the note (a damaged middle page does not pass for a
complete document). The title is the document information ``Title``, else the XMP
``dc:title``, else the first line of the first page. Only the first ``max_pages`` pages are
read (the rest is noted, not indexed).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from indexer.errors import DocumentError
from indexer.extract.formats.fields import clean_text, first_line, guess_lang, meta_value, pdf_date
from indexer.extract.formats.vertical import vertical_text
from indexer.models import ExtractedDoc

_XMP_TITLE = re.compile(
    rb"<dc:title\b[^>]*>.*?<rdf:li\b[^>]*>([^<]{1,2000})</rdf:li>", re.DOTALL | re.IGNORECASE
)


def xmp_title(body: bytes) -> str | None:
    """The ``dc:title`` of the PDF's XMP metadata, when its packet is stored unfiltered (as
    the XMP specification, Part 3 §1.1.3, recommends, so that tools can find it without
    parsing the PDF), else None."""
    match = _XMP_TITLE.search(body)
    if match is None:
        return None
    return meta_value(html.unescape(match.group(1).decode("utf-8", "replace")))


@contextmanager
def _opened(body: bytes) -> Iterator[pdfium.PdfDocument]:
    """The PDF opened by PDFium; load failures as :class:`DocumentError`."""
    try:
        document = pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentError("encrypted", "password-protected PDF") from None
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise DocumentError("encrypted", "PDF with an unsupported security handler") from None
        raise DocumentError("parse-error", f"PDF not readable: {exc}") from None
    try:
        yield document
    finally:
        document.close()


def _page_text(document: pdfium.PdfDocument, index: int) -> str | None:
    """The text of page ``index`` (vertical writing in its reading order,
    :mod:`.vertical`); ``""`` for a page without any content (blank, or its content
    stream damaged), None for a page PDFium cannot load."""
    try:
        page = document[index]
    except pdfium.PdfiumError:
        return None
    try:
        if pdfium_c.FPDFPage_CountObjects(page.raw) == 0:
            return ""
        textpage = page.get_textpage()
        try:
            return vertical_text(textpage) or str(textpage.get_text_range())
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return None
    finally:
        page.close()


def page_ranges(numbers: list[int], shown: int = 10) -> str:
    """Page numbers as ranges (``[3, 4, 5, 9]`` → ``3-5, 9``), the first ``shown`` ranges."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:shown]]
    return ", ".join(parts) + (", …" if len(ranges) > shown else "")


def _notes(pages: list[str | None], count: int, max_pages: int) -> str:
    """The report's note: pages not read (the cut, pages PDFium cannot load, pages whose
    content is empty among pages with text)."""
    failed = [n for n, text in enumerate(pages, 1) if text is None]
    empty = [n for n, text in enumerate(pages, 1) if text == ""]
    notes = [f"text of the first {max_pages} of {count} pages" if count > max_pages else ""]
    notes.append(f"pages not readable: {page_ranges(failed)}" if failed else "")
    notes.append(f"pages without content (blank or damaged): {page_ranges(empty)}" if empty else "")
    return "; ".join(note for note in notes if note)


def pdf_document(body: bytes, max_pages: int) -> ExtractedDoc:
    """Title, text and metadata of a PDF: the pages that parse, the others noted.

    Args:
        body: the PDF bytes.
        max_pages: pages whose text is read (the first ones).

    Raises:
        DocumentError: ``encrypted`` (a user password is needed), ``parse-error`` (not a
            readable PDF, no pages, or no page readable), ``no-text`` (pages without a
            text layer: a scan).
    """
    with _opened(body) as document:
        count = len(document)
        if count == 0:
            raise DocumentError("parse-error", "PDF without pages")
        pages = [_page_text(document, i) for i in range(min(count, max_pages))]
        try:
            info = document.get_metadata_dict(skip_empty=True)
        except pdfium.PdfiumError:  # a broken information dictionary: no metadata
            info = {}
    text = "\n\n".join(p for p in (clean_text(page or "") for page in pages) if p)
    if not text and all(page is None for page in pages):
        raise DocumentError("parse-error", f"no page of {count} readable")
    if not text:
        raise DocumentError("no-text", f"{count} pages without a text layer (OCR is not done)")
    return ExtractedDoc(
        title=meta_value(info.get("Title")) or xmp_title(body) or first_line(text),
        text=text,
        extractor="pdf",
        author=meta_value(info.get("Author")),
        keywords=[k for k in (meta_value(info.get("Keywords")) or "").split(",") if k.strip()],
        description=meta_value(info.get("Subject")),
        modified=pdf_date(info.get("ModDate")),
        created=pdf_date(info.get("CreationDate")),
        lang=guess_lang(text),
        format="pdf",
        page_count=count,
        note=_notes(pages, count, max_pages),
    )
