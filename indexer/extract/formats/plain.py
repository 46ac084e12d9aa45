"""Plain text and CSV: decoded by our own decoding chain (:mod:`indexer.encoding`).

Such files rarely declare their encoding (a server's ``charset`` is used only when the bytes
agree, as for pages), so detection mostly decides; its ``encoding_source`` says ``guess``
when it was unsure. CSV cells (RFC 4180, quoted fields and newlines inside them) become
tab-separated lines. The title is the first non-empty line, else the file name.
"""

from __future__ import annotations

import csv
import io
from urllib.parse import unquote, urlsplit

from indexer.encoding import decode_body
from indexer.errors import DocumentError
from indexer.extract.formats.fields import clean_text, first_line, guess_lang
from indexer.models import DecodedText, ExtractedDoc

#: Largest CSV field read (characters); the csv module's default of 128 KiB is too small
#: for exports with long memo cells.
CSV_FIELD_LIMIT = 16 * 1024 * 1024


def file_name(url: str) -> str:
    """The URL's last path segment, percent-decoded (``/a/%E8%A6%8F%E7%A8%8B.txt`` → 規程.txt)."""
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def _csv_lines(text: str) -> str:
    csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        dialect: type[csv.Dialect] = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = csv.reader(io.StringIO(text), dialect)
    try:
        return "\n".join("\t".join(c.strip() for c in row if c.strip()) for row in rows)
    except csv.Error as exc:
        raise DocumentError("parse-error", f"CSV not readable: {exc}") from None


def plain_document(
    body: bytes, fmt: str, url: str, content_type: str | None
) -> tuple[DecodedText, ExtractedDoc]:
    """Decode ``body`` and make the document of a ``text`` or ``csv`` file.

    Raises:
        DocumentError: ``no-text`` for an empty or blank file.
    """
    decoded = decode_body(body, content_type)
    text = decoded.text
    if fmt == "csv":
        text = _csv_lines(text)
    text = clean_text(text)
    if not text:
        raise DocumentError("no-text", "empty text file")
    doc = ExtractedDoc(
        title=first_line(text) or file_name(url),
        text=text,
        extractor=fmt,
        lang=guess_lang(text),
        format=fmt,
    )
    return decoded, doc
