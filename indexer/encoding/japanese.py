"""Browser-style (WHATWG) decoders for Shift_JIS, EUC-JP and ISO-2022-JP.

Source: https://encoding.spec.whatwg.org/#legacy-multi-byte-japanese-encodings. All three
share WHATWG "index jis0208", which is Microsoft's cp932 table: NEC row 13 (①, ㎝, №),
the NEC-selected and IBM extension kanji (髙, 﨑) and 〜 → U+FF5E, − → U+FF0D.

Python's C codecs do the bulk of the work; a registered error handler fills in the codes
that Python's ``euc_jp`` rejects (rows 13 and 89–92) through the cp932 table, and a
translation fixes the six code points where ``euc_jp``/``iso2022_jp`` differ from it.
Every function returns ``(text, replacements)``, where replacements counts U+FFFD in
the text: these encodings cannot represent U+FFFD, so each one was produced by the decode.
With ``strict=True`` they raise :class:`UnicodeDecodeError` on the first byte sequence a
browser would replace.
"""

from __future__ import annotations

import codecs
import re

#: Python euc_jp / iso2022_jp code points → WHATWG index jis0208 (cp932) code points.
TO_WHATWG_JIS = str.maketrans(
    {0x301C: 0xFF5E, 0x2016: 0x2225, 0x2212: 0xFF0D, 0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2}
)
# Python cp932 maps the single bytes A0, FD, FE, FF to these PUA code points; WHATWG
# Shift_JIS treats them as errors.
_CP932_STRAYS = re.compile("[\uf8f0-\uf8f3]")
_EUC_HANDLER = "indexer-euc-jp"


def jis_pointer_to_sjis(pointer: int) -> bytes:
    """Shift_JIS bytes for a WHATWG jis0208 pointer (0 ≤ pointer < 11280)."""
    lead, trail = divmod(pointer, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def _euc_pair(lead: int, trail: int) -> str | None:
    """Decode one EUC-JP JIS X 0208 pair through the cp932 table, or None if unmapped."""
    sjis = jis_pointer_to_sjis((lead - 0xA1) * 94 + trail - 0xA1)
    try:
        return sjis.decode("cp932")
    except UnicodeDecodeError:
        return None


def _euc_error(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: resume a failed euc_jp decode the WHATWG EUC-JP way."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data, pos = exc.object, exc.start
    lead = data[pos]
    trail = data[pos + 1] if pos + 1 < len(data) else None
    if 0xA1 <= lead <= 0xFE and trail is not None and 0xA1 <= trail <= 0xFE:
        char = _euc_pair(lead, trail)
        return (char if char is not None else "\ufffd"), pos + 2
    if lead in (0x8E, 0x8F) or 0xA1 <= lead <= 0xFE:
        # A lead byte whose trail is ASCII or missing: the ASCII byte is read again.
        if trail is None or trail < 0x80:
            return "\ufffd", pos + 1
        if lead == 0x8F and pos + 2 < len(data) and data[pos + 2] >= 0x80:
            return "\ufffd", pos + 3
        return "\ufffd", pos + 2
    return "\ufffd", pos + 1


codecs.register_error(_EUC_HANDLER, _euc_error)


def _euc_strict_error(exc: UnicodeError) -> tuple[str, int]:
    """Like :func:`_euc_error` but raise where a browser would emit U+FFFD."""
    text, end = _euc_error(exc)
    if text == "\ufffd":
        raise exc
    return text, end


codecs.register_error(_EUC_HANDLER + "-strict", _euc_strict_error)


_PYTHON_ONLY_JIS = re.compile("[\u301c\u2016\u2212\xa2\xa3\xac]")


def _to_whatwg_jis(text: str) -> str:
    # str.translate walks every character in Python-level steps: replace only the matches.
    return _PYTHON_ONLY_JIS.sub(lambda m: chr(TO_WHATWG_JIS[ord(m.group())]), text)


def decode_euc_jp(data: bytes, strict: bool = False) -> tuple[str, int]:
    """Decode EUC-JP as browsers do (JIS X 0208 via the cp932 table, JIS X 0212, kana).

    Raises:
        UnicodeDecodeError: only with ``strict=True``, on an invalid or unmapped sequence.
    """
    handler = _EUC_HANDLER + "-strict" if strict else _EUC_HANDLER
    text = _to_whatwg_jis(data.decode("euc_jp", handler))
    return text, text.count("\ufffd")


def decode_cp932(data: bytes, strict: bool = False) -> tuple[str, int]:
    """Decode Shift_JIS as browsers do: cp932 (Windows-31J), user-defined rows → PUA.

    Raises:
        UnicodeDecodeError: only with ``strict=True``, on an invalid or unmapped sequence,
            including the single bytes A0 and FD–FF.
    """
    text = data.decode("cp932", "strict" if strict else "replace")
    match = _CP932_STRAYS.search(text)
    if match is not None:
        if strict:
            raise UnicodeDecodeError("cp932", data, 0, 1, "byte not in WHATWG Shift_JIS")
        text = _CP932_STRAYS.sub("\ufffd", text)
    return text, text.count("\ufffd")


_ISO2022_ESCAPE = re.compile(rb"\x1b(\(B|\(J|\(I|\$@|\$B)")
_TO_GR = bytes(b | 0x80 if 0x21 <= b <= 0x7E else 0xFF for b in range(256))
_ROMAN = str.maketrans({0x5C: 0xA5, 0x7E: 0x203E})
_ASCII_BAD = re.compile("[\x0e\x0f\x1b\x80-\uffff]")


def _iso2022_segment(mode: bytes, seg: bytes) -> str:
    """Decode the bytes that follow one ISO-2022-JP escape sequence (WHATWG states)."""
    if mode in (b"$@", b"$B"):
        # Lead byte state: LF switches back to ASCII; pairs go through the EUC-JP path.
        jis, newline, rest = seg.partition(b"\n")
        text = decode_euc_jp(jis.translate(_TO_GR))[0]
        return text + newline.decode() + (_iso2022_segment(b"(B", rest) if newline else "")
    if mode == b"(I":
        return "".join(chr(0xFF61 + b - 0x21) if 0x21 <= b <= 0x5F else "\ufffd" for b in seg)
    text = _ASCII_BAD.sub("\ufffd", seg.decode("latin-1"))
    return text.translate(_ROMAN) if mode == b"(J" else text


def decode_iso2022_jp(data: bytes, strict: bool = False) -> tuple[str, int]:
    """Decode ISO-2022-JP as browsers do: ESC ( B, ( J, ( I (half-width kana), $ @, $ B.

    JIS X 0208 goes through the cp932 table (so NEC row 13 decodes); two escape
    sequences in a row, unknown escapes and bytes ≥ 0x80 give U+FFFD.

    Raises:
        UnicodeDecodeError: only with ``strict=True``, when the decode produced U+FFFD
            that the input did not contain.
    """
    parts = _ISO2022_ESCAPE.split(data)
    out = [_iso2022_segment(b"(B", parts[0])]
    for i in range(1, len(parts), 2):
        if i > 1 and parts[i - 1] == b"":
            out.append("\ufffd")  # an escape right after an escape
        out.append(_iso2022_segment(parts[i], parts[i + 1]))
    text = "".join(out)
    count = text.count("\ufffd")
    if strict and count:
        raise UnicodeDecodeError("iso2022_jp", data, 0, len(data), "invalid ISO-2022-JP")
    return text, count
