"""Documents beyond HTML: format detection and one parser per format family.

:func:`sniff.decide` names a response's format from its bytes and declared type;
:func:`parse_document` runs the format's parser (:mod:`.pdf`, :mod:`.ooxml`, :mod:`.odf`,
:mod:`.plain`; the 97–2003 Office formats and RTF go to Tika, :mod:`.tika`).
Parsers raise :class:`indexer.errors.DocumentError` with the outcome the document ends as;
they run in the document worker processes (:mod:`indexer.pipeline.docworkers`), which add
the time and memory limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from zipfile import BadZipFile

from indexer.errors import DocumentError
from indexer.models import DecodedText, ExtractedDoc

__all__ = ["Limits", "ParsedDocument", "parse_document"]

#: How a document without a text encoding of its own is recorded (binary formats).
NOT_TEXT = DecodedText("", "", "")


@dataclass(frozen=True, slots=True)
class Limits:
    """Parser limits from ``extract.*``.

    Attributes:
        max_unpacked_bytes: largest unpacked size of a package (bytes).
        max_pdf_pages: PDF pages whose text is read.
    """

    max_unpacked_bytes: int = 512 * 1024 * 1024
    max_pdf_pages: int = 2000


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed document.

    Attributes:
        decoded: the text decoding (text and CSV), or :data:`NOT_TEXT`.
        extracted: title, text and metadata (``format`` set).
    """

    decoded: DecodedText
    extracted: ExtractedDoc


def parse_document(
    fmt: str, body: bytes, url: str, content_type: str | None, limits: Limits
) -> ParsedDocument:
    """Parse a document of format ``fmt`` (one of :data:`indexer.formats.PARSED` but ``html``).

    Raises:
        DocumentError: the outcome it ends as (``parse-error`` for anything a parser
            raises on malformed input, ``encrypted``, ``too-large-unpacked``, ``no-text``).
    """
    try:
        return _parse(fmt, body, url, content_type, limits)
    except DocumentError:
        raise
    except MemoryError:
        raise DocumentError("parse-error", "out of memory (extract.worker_memory)") from None
    except RecursionError:
        raise DocumentError("parse-error", "nesting too deep") from None
    except (BadZipFile, KeyError) as exc:
        raise DocumentError("parse-error", f"broken package: {exc}") from None
    except Exception as exc:  # hostile input: any library error ends as parse-error
        raise DocumentError("parse-error", f"{type(exc).__name__}: {exc}") from None


def _parse(
    fmt: str, body: bytes, url: str, content_type: str | None, limits: Limits
) -> ParsedDocument:
    from indexer.extract.formats import odf, ooxml, pdf, plain  # the parsers load in workers

    if fmt == "pdf":
        return ParsedDocument(NOT_TEXT, pdf.pdf_document(body, limits.max_pdf_pages))
    if fmt in ("text", "csv"):
        return ParsedDocument(*plain.plain_document(body, fmt, url, content_type))
    if fmt in ("odt", "ods", "odp"):
        return ParsedDocument(NOT_TEXT, odf.odf_document(body, fmt, limits.max_unpacked_bytes))
    readers = {
        "docx": ooxml.docx_document,
        "xlsx": ooxml.xlsx_document,
        "pptx": ooxml.pptx_document,
    }
    if fmt not in readers:
        raise DocumentError("unsupported-format", f"no parser for {fmt}")
    return ParsedDocument(NOT_TEXT, readers[fmt](body, limits.max_unpacked_bytes))
