"""Percent-encode a link's query in its page's encoding, as browsers do.

Source: WHATWG URL Standard, "query state" (https://url.spec.whatwg.org/#query-state) and
"percent-encode after encoding": the query is encoded with the document's output encoding
(UTF-8 for UTF-16 pages) by the Encoding Standard's encoders ("encode or fail"); a
character the encoding lacks becomes ``%26%23N%3B`` (``&#N;`` percent-encoded), and bytes
in the (special-)query percent-encode set are percent-encoded; the path and fragment are
always UTF-8. Checked against Chromium: 髙 is ``%FB%FC`` in Shift_JIS and ``%FC%E2`` in
EUC-JP, ① is ``%87@`` and ``%AD%A1``, € is ``%26%238364%3B`` in both.

w3lib's ``safe_url_string`` does the rest of the URL (IDNA host, path, fragment) but
raises on unencodable query characters and knows neither our ``euc_jp`` extensions (NEC
row 13, IBM kanji) nor WHATWG's Shift_JIS/EUC-JP encoder rules, so the query is encoded
here.
"""

from __future__ import annotations

import codecs
from functools import cache
from urllib.parse import urlsplit, urlunsplit

from w3lib.url import safe_url_string

from indexer.encoding.japanese import jis_pointer_to_sjis

_SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "file"})
# WHATWG "query percent-encode set": C0, space, " # < > and bytes above 0x7E; the special
# set adds the apostrophe.
_QUERY_SAFE = frozenset(range(0x21, 0x7F)) - {0x22, 0x23, 0x3C, 0x3E}
_SPECIAL_QUERY_SAFE = _QUERY_SAFE - {0x27}
# WHATWG Shift_JIS / EUC-JP encoders: ¥ → 0x5C, ‾ → 0x7E, − → the pointer of －.
_JIS_ENCODER_PREP = str.maketrans({0xA5: 0x5C, 0x203E: 0x7E, 0x2212: 0xFF0D})
_EUC_JP_HANDLER = "indexer-euc-jp-encode"
_REFERENCE_HANDLER = "indexer-url-reference"
_PYTHON_ENCODER = {"euc_kr": "cp949", "big5": "big5hkscs"}


def output_encoding(encoding: str) -> str:
    """The URL standard's "get an output encoding": UTF-16 and unknown codecs become UTF-8.

    Returns Python's canonical codec name (``cp932``, ``euc_jp``, ``cp1252``, ``utf-8``).
    """
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return "utf-8"
    return "utf-8" if name.startswith("utf-16") or name.startswith("utf-32") else name


def _reference(char: str) -> bytes:
    """An unencodable character as the URL standard writes it: ``%26%23N%3B``."""
    return b"%%26%%23%d%%3B" % ord(char)


def _reference_error(exc: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return b"".join(_reference(c) for c in exc.object[exc.start : exc.end]), exc.end


@cache
def _first_pointers(skip_nec_selected: bool) -> dict[str, int]:
    """Character → its first pointer in WHATWG index jis0208 (the cp932 table).

    With ``skip_nec_selected`` pointers 8272–8835 (the NEC-selected copies of the IBM
    kanji at ED40–EEFC) are skipped: that is WHATWG's "index Shift_JIS pointer", so 髙
    encodes as FBFC in Shift_JIS (Python's cp932 gives EEE0) but as FCE2 in EUC-JP.
    Private-use characters (user-defined rows) are left out.
    """
    table: dict[str, int] = {}
    for pointer in range(11280):
        if skip_nec_selected and 8272 <= pointer <= 8835:
            continue
        try:
            char = jis_pointer_to_sjis(pointer).decode("cp932")
        except UnicodeDecodeError:
            continue
        if not "\ue000" <= char <= "\uf8ff":
            table.setdefault(char, pointer)
    return table


def _encode_shift_jis(text: str) -> bytes:
    """WHATWG Shift_JIS encoder, unencodable characters as ``%26%23N%3B``."""
    table = _first_pointers(skip_nec_selected=True)
    out = bytearray()
    for char in text:
        code = ord(char)
        if code < 0x80 or 0xFF61 <= code <= 0xFF9F:
            out += char.encode("cp932")
        elif char in table:
            out += jis_pointer_to_sjis(table[char])
        else:
            out += _reference(char)
    return bytes(out)


def _euc_jp_encode_error(exc: UnicodeError) -> tuple[bytes, int]:
    """Encoder error handler: what Python's euc_jp lacks, via the cp932 table, else a
    ``%26%23N%3B`` reference."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    table = _first_pointers(skip_nec_selected=False)
    out = bytearray()
    for char in exc.object[exc.start : exc.end]:
        pointer = table.get(char)
        if pointer is None or pointer >= 94 * 94:
            out += _reference(char)
        else:
            out += bytes((0xA1 + pointer // 94, 0xA1 + pointer % 94))
    return bytes(out), exc.end


codecs.register_error(_EUC_JP_HANDLER, _euc_jp_encode_error)
codecs.register_error(_REFERENCE_HANDLER, _reference_error)


def encode_query(query: str, encoding: str) -> bytes:
    """Encode a URL query string in a page encoding (a Python codec name), WHATWG-style.

    Unencodable characters become ``%26%23N%3B``; UTF-16 and unknown encodings give
    UTF-8 (:func:`output_encoding`). Example: ``encode_query("髙", "cp932") == b"\\xfb\\xfc"``.
    """
    encoding = output_encoding(encoding)
    if encoding in ("cp932", "shift_jis", "euc_jp", "iso2022_jp"):
        query = query.translate(_JIS_ENCODER_PREP)
    if encoding == "euc_jp":
        return query.encode("euc_jp", _EUC_JP_HANDLER)
    if encoding in ("cp932", "shift_jis"):
        return _encode_shift_jis(query)
    return query.encode(_PYTHON_ENCODER.get(encoding, encoding), _REFERENCE_HANDLER)


def encode_for_url(url: str, encoding: str) -> str:
    """Make ``url`` (as found in a page) ASCII-safe, its query in the page's ``encoding``.

    Args:
        url: an absolute URL, possibly with non-ASCII characters.
        encoding: the page's codec name from :func:`indexer.encoding.decode_body`
            (``cp932``, ``euc_jp``, ``utf-8``, …).

    Returns:
        The URL with an IDNA host, UTF-8 percent-encoded path and fragment, and the query
        percent-encoded in ``encoding`` (e.g. ``?q=%83e`` for テ in cp932).
    """
    parts = urlsplit(url)
    if not parts.query or parts.query.isascii():
        return safe_url_string(url)
    safe = _SPECIAL_QUERY_SAFE if parts.scheme.lower() in _SPECIAL_SCHEMES else _QUERY_SAFE
    query = "".join(
        chr(b) if b in safe else f"%{b:02X}" for b in encode_query(parts.query, encoding)
    )
    rest = urlsplit(safe_url_string(urlunsplit(parts._replace(query=""))))
    return urlunsplit(rest._replace(query=query))
