"""Find a charset declared inside the document: the XML declaration and ``<meta>`` tags.

The ``<meta>`` part is the WHATWG HTML "prescan a byte stream to determine its encoding"
algorithm (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding):
comments skipped, other tags' attributes consumed, ``<meta charset>`` or
``<meta http-equiv="content-type" content="...charset=...">``, unknown labels ignored, a
UTF-16 label means UTF-8 and x-user-defined means windows-1252. It runs over the first
1024 bytes, then over :data:`EXTENDED_WINDOW` bytes for late ``<meta>`` tags (browsers
reparse when they meet one). The XML declaration is XML 1.0 §4.3.3 ``encoding=``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.encoding.labels import lookup_label

PRESCAN_BYTES = 1024
EXTENDED_WINDOW = 64 * 1024

_SPACE = b"\t\n\x0c\r "
_SPACE_OR_SLASH = _SPACE + b"/"
_XML_DECL = re.compile(
    rb"\s*<\?xml\s[^>]{0,200}?\bencoding\s*=\s*([\"'])([^\"'>]{1,40})\1", re.IGNORECASE
)
_MARKUP = re.compile(rb"<!--|<meta[\t\n\x0c\r /]|</?[a-zA-Z]|<[!/?]", re.IGNORECASE)
_CHARSET = re.compile(rb"charset", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A charset found in the document.

    Attributes:
        label: the label as written, stripped and lower-cased (e.g. ``x-sjis``).
        encoding: our codec name for it (see :func:`indexer.encoding.labels.lookup_label`).
        where: ``xml`` or ``meta``.
    """

    label: str
    encoding: str
    where: str


def xml_declaration(data: bytes) -> Declaration | None:
    """The ``encoding`` of an XML declaration at the start of ``data`` (leading
    whitespace allowed), if its label is known."""
    match = _XML_DECL.match(data)
    if match is None:
        return None
    label = match.group(2).decode("ascii", "replace").strip().lower()
    encoding = lookup_label(label)
    return Declaration(label, encoding, "xml") if encoding else None


def prescan(data: bytes) -> Declaration | None:
    """Run the WHATWG prescan over 1024 bytes, then over the extended window.

    Returns:
        The first ``<meta>`` declaration with a known label, or None.
    """
    found = _prescan_window(data[:PRESCAN_BYTES])
    if found is None and len(data) > PRESCAN_BYTES:
        window = data[:EXTENDED_WINDOW]
        if _CHARSET.search(window, PRESCAN_BYTES - 16) is not None:
            found = _prescan_window(window)
    return found


def _prescan_window(buf: bytes) -> Declaration | None:
    pos = buf.find(b"<")
    while 0 <= pos < len(buf):
        match = _MARKUP.match(buf, pos)
        if match is None:
            pos = buf.find(b"<", pos + 1)
            continue
        token = match.group().lower()
        if token == b"<!--":
            end = buf.find(b"-->", pos + 4)
            pos = -1 if end < 0 else end + 3
        elif token.startswith(b"<meta"):
            found, pos = _meta(buf, match.end())
            if found is not None:
                return found
        elif token[-1:].isalpha():
            pos = _skip_tag(buf, match.end())
        else:
            end = buf.find(b">", pos + 2)
            pos = -1 if end < 0 else end + 1
        if pos >= 0:
            pos = buf.find(b"<", pos)
    return None


def _skip_tag(buf: bytes, pos: int) -> int:
    """Skip a start or end tag's name and attributes; return the position after it."""
    while pos < len(buf) and buf[pos] not in _SPACE and buf[pos] != 0x3E:
        pos += 1
    while (attr := _attribute(buf, pos)) is not None:
        pos = attr[2]
    return pos


def _meta(buf: bytes, pos: int) -> tuple[Declaration | None, int]:
    """Process one ``<meta`` tag's attributes; return its declaration and the next position."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: Declaration | None = None
    while (attr := _attribute(buf, pos)) is not None:
        name, value, pos = attr
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv" and value == b"content-type":
            got_pragma = True
        elif name == b"content" and charset is None:
            label = _charset_from_content(value)
            if label is not None and (charset := _declared(label)) is not None:
                need_pragma = True
        elif name == b"charset" and charset is None:
            charset = _declared(value)
            need_pragma = False
    if charset is None or need_pragma is None or (need_pragma and not got_pragma):
        return None, pos
    return charset, pos


def _declared(raw: bytes) -> Declaration | None:
    label = raw.decode("ascii", "replace").strip("\t\n\x0c\r ")
    encoding = lookup_label(label)
    if encoding is None:
        return None
    if encoding in ("utf-16le", "utf-16be"):
        encoding = "utf-8"  # a byte-oriented document cannot really be UTF-16
    return Declaration(label.lower(), encoding, "meta")


def _attribute(buf: bytes, pos: int) -> tuple[bytes, bytes, int] | None:
    """WHATWG "get an attribute": ``(name, value, next_position)`` or None at ``>``/end."""
    end = len(buf)
    while pos < end and buf[pos] in _SPACE_OR_SLASH:
        pos += 1
    if pos >= end or buf[pos] == 0x3E:
        return None
    start = pos
    while (
        pos < end
        and (buf[pos] not in _SPACE_OR_SLASH and buf[pos] != 0x3E)
        and (buf[pos] != 0x3D or pos == start)
    ):
        pos += 1
    if pos >= end:
        return None
    name = buf[start:pos].lower()
    while pos < end and buf[pos] in _SPACE:
        pos += 1
    if pos >= end or buf[pos] != 0x3D:
        return name, b"", pos
    return _attribute_value(buf, pos + 1, name)


def _attribute_value(buf: bytes, pos: int, name: bytes) -> tuple[bytes, bytes, int] | None:
    end = len(buf)
    while pos < end and buf[pos] in _SPACE:
        pos += 1
    if pos >= end:
        return None
    quote = buf[pos]
    if quote in b"\"'":
        close = buf.find(bytes((quote,)), pos + 1)
        if close < 0:
            return None
        return name, buf[pos + 1 : close].lower(), close + 1
    if quote == 0x3E:
        return name, b"", pos
    start = pos
    while pos < end and buf[pos] not in _SPACE and buf[pos] != 0x3E:
        pos += 1
    if pos >= end:
        return None
    return name, buf[start:pos].lower(), pos


_CONTENT_CHARSET = re.compile(rb"charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*", re.IGNORECASE)


def _charset_from_content(value: bytes) -> bytes | None:
    """WHATWG "extracting a character encoding from a meta element" (the label only)."""
    for match in _CONTENT_CHARSET.finditer(value):
        rest = value[match.end() :]
        if rest[:1] in (b'"', b"'"):
            close = rest.find(rest[:1], 1)
            return rest[1:close] if close > 0 else None
        return re.split(rb"[\t\n\x0c\r ;]", rest, maxsplit=1)[0]
    return None
