"""Which format a response is: decided from its bytes; the declared type breaks ties.

Signatures first (the bytes decide, as WHATWG MIME Sniffing §7 does for binary types):
``%PDF-`` in the first KiB (PDF 2.0, ISO 32000-2 §7.5.2, lets junk precede it, but not
markup: a page may quote the header); a zip
whose ``[Content_Types].xml`` names a WordprocessingML, SpreadsheetML or PresentationML
main part (ECMA-376 Part 2, OPC) or whose ``mimetype`` entry names an OpenDocument type;
an OLE2 compound file (MS-CFB) by its stream names; ``{\\rtf``. Text without a signature
takes its format from the declared type (``text/plain``, ``text/csv``, HTML), else from
markup at its start (WHATWG §7.1 "text/html" patterns), else from the URL's extension.

The bytes decide wherever they can: a signature wins over any declared type (a DOCX sent as
``application/pdf`` is a DOCX, as an XLSX sent as the DOCX type is an XLSX); the declared
type only breaks ties (text without a signature, a zip too broken to list); without a
declared type (or a generic one) the URL's extension stands for it, so text named
``report.pdf`` is no PDF with or without ``application/pdf``. Bytes of no indexed format
end as ``wrong-type`` with what they are (``0 bytes``, a zip that is no Office package,
binary); a format ``crawl.formats`` leaves out as ``excluded-format``. HTML of a
``crawl.formats`` without ``html`` is still parsed for its links (outcome ``links-only``).
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from collections.abc import Collection
from dataclasses import dataclass

import olefile

from indexer import formats as ids
from indexer.encoding.sniff import looks_binary

# Matched in place, not on a stripped copy of a body that may be 100 MiB.
_RTF_START = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\n\r\f\v]*\{\\rtf")
_NOT_SPACE = re.compile(rb"[^ \t\n\r\f\v]")
#: Declared formats whose producers also write text under their type (Excel's and Word's
#: HTML, CSV and MHTML exports): text bytes so declared are judged by what they show.
_TEXT_EXPORTS = frozenset({"doc", "xls"})
_GENERIC = frozenset(
    {
        "",
        "application/octet-stream",
        "binary/octet-stream",
        "application/zip",
        "application/x-zip",
        "application/x-zip-compressed",
        "application/x-download",
        "application/force-download",
        "application/unknown",
        "application/x-msdownload",
    }
)
_EXTENSIONS = {fmt: fmt for fmt in ids.ALL if fmt not in ("html", "text")}
_EXTENSIONS.update({"txt": "text", "htm": "html", "html": "html", "xhtml": "html"})
_OOXML_MAIN = (
    ("wordprocessingml.document.main", "docx"),
    ("wordprocessingml.template.main", "docx"),
    ("ms-word.document.macroenabled.main", "docx"),
    ("spreadsheetml.sheet.main", "xlsx"),
    ("spreadsheetml.template.main", "xlsx"),
    ("ms-excel.sheet.macroenabled.main", "xlsx"),
    ("presentationml.presentation.main", "pptx"),
    ("presentationml.slideshow.main", "pptx"),
    ("ms-powerpoint.presentation.macroenabled.main", "pptx"),
)
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_STREAMS = (
    ("WordDocument", "doc"),
    ("Workbook", "xls"),
    ("Book", "xls"),  # Excel 5/95
    ("PowerPoint Document", "ppt"),
)
_MARKUP = re.compile(
    rb"\s*(?:<!doctype\s+html|<!--|<\?xml|<(?:html|head|body|script|iframe|h1|div|font|table|"
    rb"a|style|title|b|br|p|meta)[\s/>])",
    re.IGNORECASE,
)
#: Any tag, comment or doctype (a body declared HTML without one is plain text; ``<http:…>``
#: or ``a < b`` are not tags).
_TAG = re.compile(rb"<(?:/?[A-Za-z][A-Za-z0-9-]*[\s/>]|!--|!doctype)", re.IGNORECASE)
_SMALL_PART = 1024 * 1024  # [Content_Types].xml or mimetype larger than this is not read


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with one response.

    Attributes:
        format: the format id to parse, or None when the response ends with ``outcome``.
        outcome: ``""`` (parse it), ``links-only`` (parse HTML for its links, do not index
            it), ``wrong-type``, ``excluded-format`` or ``unsupported-format``.
        reason: one line naming what was declared and what was found.
    """

    format: str | None
    outcome: str = ""
    reason: str = ""


def media_type(content_type: str | None) -> str:
    """The media type of a Content-Type value, lower-case without parameters (``""``)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def extension_format(url: str) -> str | None:
    """The format id the URL's last path segment's extension names (``a/b.PDF`` → pdf)."""
    path = url.split("?", 1)[0].split("#", 1)[0].rsplit("/", 1)[-1]
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return _EXTENSIONS.get(ext)


def signature_format(body: bytes, hint: str | None = None) -> str | None:
    """The format the bytes' signature shows, or None (text, or an unknown binary).

    Args:
        body: the response body.
        hint: the declared or extension format, used only where the bytes cannot tell
            (a zip too broken to list, an encrypted OOXML package, which is an OLE2 file).
    """
    at = body.find(b"%PDF-", 0, 1024)
    if at == 0 or (at > 0 and b"<" not in body[:at]):  # not a page that quotes the header
        return "pdf"
    if body.startswith(b"PK\x03\x04"):
        return _zip_format(body, hint)
    if body.startswith(_OLE_MAGIC):
        return _ole_format(body, hint)
    if _RTF_START.match(body):  # a UTF-8 BOM too
        return "rtf"
    return None


def _zip_format(body: bytes, hint: str | None) -> str | None:
    ooxml = hint if hint in ("docx", "xlsx", "pptx") else None
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            names = {info.filename: info for info in archive.infolist()}
            types = names.get("[Content_Types].xml")
            if types is not None and types.file_size <= _SMALL_PART:
                listed = archive.read(types).decode("utf-8", "replace").lower()
                found = next((fmt for key, fmt in _OOXML_MAIN if key in listed), None)
                return found or ooxml
            mimetype = names.get("mimetype")
            if mimetype is not None and mimetype.file_size <= _SMALL_PART:
                declared = archive.read(mimetype).decode("ascii", "replace").strip()
                return ids.BY_MEDIA_TYPE.get(declared)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError):
        return ooxml  # a truncated package: its parser reports it
    except RuntimeError:  # an encrypted zip entry
        return ooxml
    return None


def _ole_format(body: bytes, hint: str | None) -> str | None:
    """The format of an OLE2 compound file by the streams of its root storage (MS-CFB
    directory entries, read with :mod:`olefile`; never by bytes that only look like a
    stream name, as a document's own UTF-16 text can). An encrypted OOXML package is an
    OLE2 file with an ``EncryptedPackage`` stream (MS-OFFCRYPTO §2.3.4.4): its OOXML
    parser reports it. A directory that cannot be read leaves the hint to the parser.

    The body goes to olefile in a stream of ours, closed at the end: given bytes, olefile
    wraps them in a stream it never closes, and its objects form reference cycles, so a
    whole document stayed in memory until the cyclic garbage collector ran (seconds, and
    several documents, under load: ``scripts/bench/memory.py``)."""
    stream = io.BytesIO(body)  # shares the bytes (no copy) until closed
    try:
        with olefile.OleFileIO(stream) as ole:
            if ole.exists("EncryptedPackage"):
                return hint if hint in ("docx", "xlsx", "pptx") else "docx"
            for name, fmt in _OLE_STREAMS:
                if ole.exists(name):
                    return fmt
    except (OSError, ValueError, IndexError, struct.error):  # a truncated or damaged file
        return hint if hint in ("doc", "xls", "ppt") else None
    finally:
        stream.close()  # drops the reference to the body whatever olefile still holds
    return None


def _text_format(body: bytes, declared: str, url: str, formats: Collection[str]) -> str | None:
    """The format of a body without a signature, or None when it is not text we index.

    A body declared HTML without a single tag, comment or doctype is plain text (a ``.txt``
    served as ``text/html``: its lines are kept), when ``text`` is chosen. Text declared
    as Word or Excel (:data:`_TEXT_EXPORTS`) is judged as if its type were generic."""
    if body and looks_binary(body):
        return None
    wanted = ids.BY_MEDIA_TYPE.get(declared)
    if wanted == "html" and "text" in formats and _plain(body):
        return "text"
    if wanted in ("html", "text", "csv"):
        return wanted
    if declared not in _GENERIC and wanted not in _TEXT_EXPORTS:
        return None  # text/xml, application/json, a PDF that is an HTML error page …
    # Generic, or the Word/Excel type on text (the CSV or HTML table an intranet sends as
    # application/vnd.ms-excel, a report.doc saved as HTML): what the text itself shows.
    if _MARKUP.match(body[:512]) or (not declared and not extension_format(url)):
        return "html"
    by_extension = extension_format(url)
    return by_extension if by_extension in ("csv", "text", "html") else "text"


def _named_document(declared: str, url: str) -> str | None:
    """The document format a URL's extension names when no type (or a generic one) was
    declared, or None: the name then stands for the declared type, so text without a
    signature in a ``report.pdf`` is not a PDF, whether a server said ``application/pdf``
    or nothing (``indexer extract report.pdf`` and the crawl decide alike). Text formats
    and the Word/Excel names (:data:`_TEXT_EXPORTS`, HTML saved as ``.doc``) are left to
    what the text shows."""
    if declared not in _GENERIC:
        return None
    named = extension_format(url)
    if named is None or named in ("html", "text", "csv") or named in _TEXT_EXPORTS:
        return None
    return named


def _plain(body: bytes) -> bool:
    """Text without any markup (NULs mean UTF-16, which the byte pattern cannot read)."""
    return (
        _NOT_SPACE.search(body) is not None
        and b"\x00" not in body[:4096]
        and _TAG.search(body) is None
    )


def describe(body: bytes) -> str:
    """What bytes of no indexed format are, for a ``wrong-type`` reason (``0 bytes``, a zip
    archive that is no Office package, an OLE2 file without a known stream, binary, text)."""
    if not body:
        return "0 bytes (an empty file)"
    if body.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(body)) as archive:
                count = len(archive.infolist())
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError):
            return "a zip archive that cannot be read (truncated or damaged)"
        return (
            f"a zip archive of {count} entries, not an Office Open XML or OpenDocument "
            "package (no main part in [Content_Types].xml, no mimetype entry)"
        )
    if body.startswith(_OLE_MAGIC):
        return "an OLE2 compound file without a Word, Excel or PowerPoint stream"
    return "binary bytes of no known format" if looks_binary(body) else "text"


def decide(body: bytes, content_type: str | None, url: str, formats: Collection[str]) -> Verdict:
    """The format of a response and whether it is indexed.

    Args:
        body: the (decompressed) body.
        content_type: the Content-Type header value, or None.
        url: the final URL (its extension helps where the bytes cannot tell).
        formats: the chosen format ids (``crawl.formats``).

    Returns:
        A :class:`Verdict`: a format to parse; ``html`` with ``links-only`` (HTML when
        ``html`` is not chosen: parsed for its links, not indexed); or no format with
        ``wrong-type`` (bytes of no format we know, what the declared type or the name's
        extension names but the bytes are not), ``excluded-format`` (a format not in
        ``crawl.formats``) or ``unsupported-format`` (chosen, but no parser in this build).
    """
    declared = media_type(content_type)
    hint = ids.BY_MEDIA_TYPE.get(declared) or extension_format(url)
    found = signature_format(body, hint)
    shown = declared or "no Content-Type"
    named = _named_document(declared, url)
    if found is None and named is not None and body and not looks_binary(body):
        why = f"{shown}; the name says {named}, bytes are {describe(body)}"
        return Verdict(None, "wrong-type", why)
    if not body and hint not in (None, "html", "text", "csv"):  # an empty "report.pdf"
        return Verdict(None, "wrong-type", f"{shown}; bytes are {describe(body)}")
    if found is None:
        found = _text_format(body, declared, url, formats)
        if found is None:
            return Verdict(None, "wrong-type", f"{shown}; bytes are {describe(body)}")
    if found not in formats:
        if found == "html":  # its links still lead to the chosen formats
            why = f"html not in crawl.formats: parsed for its links only ({shown})"
            return Verdict("html", "links-only", why)
        return Verdict(None, "excluded-format", f"{found} not in crawl.formats ({shown})")
    if found in ids.UNSUPPORTED:
        return Verdict(None, "unsupported-format", f"{found}: no parser in this build ({shown})")
    return Verdict(found)
