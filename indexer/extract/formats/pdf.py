"""PDF text through pypdfium2 (PDFium, the engine of Chrome).

PDFium was measured against pdfminer.six on Japanese PDFs (ReportLab CID fonts, LibreOffice
embedded fonts; ``scripts/bench/formats.py``): both give the right text, PDFium 8–10 times
faster per page, so PDFium is kept. Text comes page by page in PDFium's reading order; the
title is the document information ``Title``, else the XMP ``dc:title``, else the first line
of the first page. Only the first ``max_pages`` pages are read (the rest is noted, not
indexed).
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


def _page_text(document: pdfium.PdfDocument, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return str(textpage.get_text_range())
        finally:
            textpage.close()
    finally:
        page.close()


def pdf_document(body: bytes, max_pages: int) -> ExtractedDoc:
    """Title, text and metadata of a PDF.

    Args:
        body: the PDF bytes.
        max_pages: pages whose text is read (the first ones).

    Raises:
        DocumentError: ``encrypted`` (a user password is needed), ``parse-error`` (not a
            readable PDF, or no pages), ``no-text`` (pages without a text layer: a scan).
    """
    with _opened(body) as document:
        count = len(document)
        if count == 0:
            raise DocumentError("parse-error", "PDF without pages")
        try:
            pages = [_page_text(document, i) for i in range(min(count, max_pages))]
            info = document.get_metadata_dict(skip_empty=True)
        except pdfium.PdfiumError as exc:
            raise DocumentError("parse-error", f"PDF page not readable: {exc}") from None
    text = "\n\n".join(p for p in (clean_text(page) for page in pages) if p)
    if not text:
        raise DocumentError("no-text", f"{count} pages without a text layer (OCR is not done)")
    note = f"text of the first {max_pages} of {count} pages" if count > max_pages else ""
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
        note=note,
    )
