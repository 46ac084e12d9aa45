"""Decode bytes in a known encoding the way browsers do (WHATWG Encoding Standard).

The encoding names are ours (see :mod:`indexer.encoding.labels`); most are Python codecs,
a few are decoded differently from Python's codec of the same name:

- ``cp932``, ``euc_jp``, ``iso2022_jp``: :mod:`indexer.encoding.japanese`.
- ``windows-1252``: cp1252, but 0x81 0x8D 0x8F 0x90 0x9D become the C1 controls U+0081…
  (Python's cp1252 raises there; WHATWG index windows-1252 maps them).
- ``euc_kr``: decoded with ``cp949`` (WHATWG EUC-KR is Windows-949, a superset).
- ``big5``: decoded with ``big5hkscs`` (WHATWG Big5 includes the HKSCS extensions).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from indexer.encoding import japanese

#: Data at least this long may be cut from a longer body (a detection sample, a body at
#: its size cap): a character cut by its end is forgiven. Shorter data is a whole body.
MAY_BE_CUT_BYTES = 64 * 1024

_C1_HANDLER = "indexer-c1"


def _c1_controls(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: an undefined cp1252 byte decodes to the same-numbered C1 control."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return chr(exc.object[exc.start]), exc.start + 1


codecs.register_error(_C1_HANDLER, _c1_controls)


def _windows_1252(data: bytes, strict: bool = False) -> tuple[str, int]:
    del strict  # every byte has a mapping: this decode cannot fail
    return data.decode("cp1252", _C1_HANDLER), 0


_BROWSER_DECODERS: dict[str, Callable[[bytes, bool], tuple[str, int]]] = {
    "cp932": japanese.decode_cp932,
    "euc_jp": japanese.decode_euc_jp,
    "iso2022_jp": japanese.decode_iso2022_jp,
    "windows-1252": _windows_1252,
}

_PYTHON_CODEC = {
    "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
}

# How U+FFFD looks when the input itself contains it, per codec that can encode it.
_ENCODED_FFFD = {"utf-8": b"\xef\xbf\xbd", "utf-16-le": b"\xfd\xff", "utf-16-be": b"\xff\xfd"}


def decode_as(data: bytes, encoding: str, strict: bool = False) -> tuple[str, int]:
    """Decode ``data`` (no BOM) in ``encoding`` as browsers do.

    Args:
        data: the body bytes, BOM already removed.
        encoding: one of our codec names (``cp932``, ``euc_jp``, ``utf-8``, ``big5``, …).
        strict: raise instead of replacing undecodable bytes.

    Returns:
        ``(text, replacements)``: replacements is the number of U+FFFD the decode produced
        (for UTF-8 and UTF-16 those already encoded in the input are not counted; the count
        of encoded U+FFFD is a byte-pattern count, exact for valid input).

    Raises:
        UnicodeDecodeError: only with ``strict=True``.
        LookupError: ``encoding`` is not a known codec.
    """
    browser = _BROWSER_DECODERS.get(encoding)
    if browser is not None:
        return browser(data, strict)
    codec = _PYTHON_CODEC.get(encoding, encoding)
    text = data.decode(codec, "strict" if strict else "replace")
    produced = text.count("\ufffd")
    pattern = _ENCODED_FFFD.get(codec)
    if produced and pattern is not None:
        produced = max(0, produced - data.count(pattern))
    return text, produced


def strict_text(data: bytes, encoding: str) -> str | None:
    """The text of ``data`` when it decodes in ``encoding`` without any replacement, else None.

    A multi-byte character cut by the end of ``data`` (a body truncated at the size cap,
    a sample) does not count against it when ``data`` may be cut (``MAY_BE_CUT_BYTES``
    long or more): an error within the last 3 bytes is forgiven and the text stops before
    it. Shorter data is a whole body, whose last byte is what it is.
    """
    try:
        return decode_as(data, encoding, strict=True)[0]
    except LookupError:
        return None
    except UnicodeDecodeError as exc:
        if exc.start < len(data) - 3 or exc.start == 0 or len(data) < MAY_BE_CUT_BYTES:
            return None
        return strict_text(data[: exc.start], encoding)


def decodes_strictly(data: bytes, encoding: str) -> bool:
    """True when :func:`strict_text` decodes ``data`` in ``encoding``."""
    return strict_text(data, encoding) is not None
