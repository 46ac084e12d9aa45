"""RTF's document information in the default font's code page when ``\\ansicpg`` is absent.

An RTF's ``\\'xx`` escapes are bytes of a code page: ``\\ansicpgN`` names the document's,
and a font's ``\\fcharsetN`` its own (RTF 1.9.1, "Font table"). Old Japanese word
processors write ``\\ansi`` with a default font (``\\deffN``) of ``\\fcharset128`` and no
``\\ansicpg``; Tika's RTF parser reads the body by the font's charset but the ``{\\info}``
fields (``\\title``, ``\\subject``, ``\\author`` …) by the document's code page, cp1252 when
none is named, so a Shift_JIS title comes out as mojibake. :func:`with_info_charset`
rewrites the escapes of the ``{\\info}`` group as ``\\uN?`` (Unicode, read alike by any
reader), decoded by the default font's charset.
"""

from __future__ import annotations

import re

#: ``\fcharsetN`` → Python codec: the double-byte East Asian charsets (RTF 1.9.1, the
#: Windows ``*_CHARSET`` values).
CHARSETS = {128: "cp932", 129: "cp949", 134: "gbk", 136: "big5"}
_ANSICPG = re.compile(rb"\\ansicpg\d")
_DEFF = re.compile(rb"\\deff(\d{1,5})")
_INFO = re.compile(rb"\{\\info\b")
_ESCAPES = re.compile(rb"\\\\|(?:\\'[0-9a-fA-F]{2})+")


def _group_end(body: bytes, start: int) -> int:
    """The index just past the group opened at ``body[start]`` (``{``), or ``len(body)``."""
    depth, at = 0, start
    while at < len(body):
        char = body[at : at + 1]
        if char == b"\\":
            at += 2  # an escaped brace or backslash is text
            continue
        depth += {b"{": 1, b"}": -1}.get(char, 0)
        at += 1
        if depth == 0:
            return at
    return len(body)


def default_font_codec(body: bytes) -> str | None:
    """The codec of the default font's ``\\fcharset`` (:data:`CHARSETS`), or None (none of
    those, no font table, or an ``\\ansicpg`` that names the code page)."""
    header = body[: body.find(b"\\pard")] if b"\\pard" in body else body
    if _ANSICPG.search(header):
        return None
    deff = _DEFF.search(header)
    font = deff.group(1).decode("ascii") if deff else "0"
    entry = re.search(rb"\\f" + font.encode() + rb"(?!\d)[^{}]*?\\fcharset(\d{1,3})", header)
    return CHARSETS.get(int(entry.group(1))) if entry else None


def _as_unicode(escapes: bytes, codec: str) -> bytes:
    raw = bytes(int(h, 16) for h in re.findall(rb"\\'([0-9a-fA-F]{2})", escapes))
    text = raw.decode(codec, "replace").encode("utf-16-le")
    units = [int.from_bytes(text[i : i + 2], "little") for i in range(0, len(text), 2)]
    escaped = b"".join(b"\\u%d?" % (u - 0x10000 if u > 0x7FFF else u) for u in units)
    return b"{\\uc1 " + escaped + b"}"  # one fallback character each, whatever \\ucN says


def with_info_charset(body: bytes) -> bytes:
    """``body`` (an RTF document) with the ``\\'xx`` escapes of its ``{\\info}`` group as
    ``\\uN?`` by the default font's code page, when no ``\\ansicpg`` names one; else
    unchanged."""
    codec = default_font_codec(body)
    info = _INFO.search(body)
    if codec is None or info is None:
        return body
    end = _group_end(body, info.start())

    def decoded(match: re.Match[bytes]) -> bytes:
        found = match.group()
        return found if found == b"\\\\" else _as_unicode(found, codec)

    return body[: info.start()] + _ESCAPES.sub(decoded, body[info.start() : end]) + body[end:]
