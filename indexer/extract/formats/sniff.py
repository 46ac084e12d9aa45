"""Which format a response is: decided from its bytes, checked against its declared type.

Signatures first (the bytes decide, as WHATWG MIME Sniffing §7 does for binary types):
``%PDF-`` in the first KiB (PDF 2.0, ISO 32000-2 §7.5.2, lets junk precede it, but not
markup: a page may quote the header); a zip
whose ``[Content_Types].xml`` names a WordprocessingML, SpreadsheetML or PresentationML
main part (ECMA-376 Part 2, OPC) or whose ``mimetype`` entry names an OpenDocument type;
an OLE2 compound file (MS-CFB) by its stream names; ``{\\rtf``. Text without a signature
takes its format from the declared type (``text/plain``, ``text/csv``, HTML), else from
markup at its start (WHATWG §7.1 "text/html" patterns), else from the URL's extension.

A generic declared type (``application/octet-stream``, ``application/zip``, none) yields to
the bytes; a specific one that the bytes contradict ends as ``wrong-type`` naming both.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Collection
from dataclasses import dataclass

from indexer import formats as ids
from indexer.encoding.sniff import looks_binary

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
_DECLARED = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/csv": "csv",
    "application/csv": "csv",
    "text/comma-separated-values": "csv",
    "application/pdf": "pdf",
    "application/x-pdf": "pdf",
    "application/rtf": "rtf",
    "text/rtf": "rtf",
    **{media: fmt for fmt, media in ids.MEDIA_TYPES.items()},
}
_EXTENSIONS = {fmt: fmt for fmt in ids.ALL if fmt not in ("html", "text")}
_EXTENSIONS.update({"txt": "text", "htm": "html", "html": "html", "xhtml": "html"})
#: Formats one container holds (a contradiction inside one is the sniffer's doubt), and
#: the old and new formats of one application (servers send .docx as application/msword).
_FAMILIES = (
    {"docx", "xlsx", "pptx"},
    {"doc", "xls", "ppt"},
    {"odt", "ods", "odp"},
    {"doc", "docx"},
    {"xls", "xlsx"},
    {"ppt", "pptx"},
)
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
_OLE_STREAMS = (("WordDocument", "doc"), ("Workbook", "xls"), ("PowerPoint Document", "ppt"))
_MARKUP = re.compile(
    rb"\s*(?:<!doctype\s+html|<!--|<\?xml|<(?:html|head|body|script|iframe|h1|div|font|table|"
    rb"a|style|title|b|br|p|meta)[\s/>])",
    re.IGNORECASE,
)
_SMALL_PART = 1024 * 1024  # [Content_Types].xml or mimetype larger than this is not read


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with one response.

    Attributes:
        format: the format id to parse, or None when the response ends with ``outcome``.
        outcome: ``""`` (parse it), ``wrong-type`` or ``unsupported-format``.
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
    if body.lstrip()[:5] == b"{\\rtf":
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
                return _DECLARED.get(declared)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError):
        return ooxml  # a truncated package: its parser reports it
    except RuntimeError:  # an encrypted zip entry
        return ooxml
    return None


def _ole_format(body: bytes, hint: str | None) -> str | None:
    if "EncryptedPackage".encode("utf-16le") in body:  # MS-OFFCRYPTO: an encrypted OOXML
        return hint if hint in ("docx", "xlsx", "pptx") else "docx"
    for stream, fmt in _OLE_STREAMS:
        if stream.encode("utf-16le") in body:
            return fmt
    return hint if hint in ("doc", "xls", "ppt") else None


def _text_format(body: bytes, declared: str, url: str) -> str | None:
    """The format of a body without a signature, or None when it is not text we index."""
    if body and looks_binary(body):
        return None
    wanted = _DECLARED.get(declared)
    if wanted in ("html", "text", "csv"):
        return wanted
    if declared not in _GENERIC:
        return None  # text/xml, application/json, image/png with text bytes …
    if _MARKUP.match(body[:512]) or (not declared and not extension_format(url)):
        return "html"
    by_extension = extension_format(url)
    return by_extension if by_extension in ("csv", "text", "html") else "text"


def _contradicts(declared: str, found: str) -> bool:
    wanted = _DECLARED.get(declared)
    if declared in _GENERIC or wanted == found:
        return False
    return not any(found in family and wanted in family for family in _FAMILIES)


def decide(body: bytes, content_type: str | None, url: str, formats: Collection[str]) -> Verdict:
    """The format of a response and whether it is indexed.

    Args:
        body: the (decompressed) body.
        content_type: the Content-Type header value, or None.
        url: the final URL (its extension helps where the bytes cannot tell).
        formats: the chosen format ids (``crawl.formats``).

    Returns:
        A :class:`Verdict`: a format to parse, or ``wrong-type`` (not a format we know,
        a declared type the bytes contradict, or a format not chosen) or
        ``unsupported-format`` (chosen, but no parser in this build).
    """
    declared = media_type(content_type)
    hint = _DECLARED.get(declared) or extension_format(url)
    found = signature_format(body, hint)
    shown = declared or "no Content-Type"
    if found is None:
        found = _text_format(body, declared, url)
        if found is None:
            what = "binary bytes" if body and looks_binary(body) else "text"
            return Verdict(None, "wrong-type", f"{shown}; bytes are {what} of no known format")
    elif _contradicts(declared, found):
        return Verdict(None, "wrong-type", f"declared {shown}, bytes are {found}")
    if found not in formats:
        return Verdict(None, "wrong-type", f"{found} not in crawl.formats ({shown})")
    if found in ids.UNSUPPORTED:
        return Verdict(None, "unsupported-format", f"{found}: no parser in this build ({shown})")
    return Verdict(found)
