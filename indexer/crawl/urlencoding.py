"""Percent-encode a link's query in its page's encoding, as browsers do.

Source: WHATWG URL Standard, "query state" (https://url.spec.whatwg.org/#query-state): the
query is encoded with the document's encoding (UTF-8 for UTF-16 pages), characters it
cannot encode become ``&#N;``, and bytes in the (special-)query percent-encode set are
percent-encoded; the path and fragment are always UTF-8. w3lib's ``safe_url_string`` does
the rest of the URL (IDNA host, path, fragment) but raises on unencodable query characters
and knows neither our ``euc_jp`` extensions (NEC row 13, IBM kanji) nor WHATWG's
Shift_JIS/EUC-JP encoder rules, so the query is encoded here.
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
_PYTHON_ENCODER = {"euc_kr": "cp949", "big5": "big5hkscs", "windows-1252": "cp1252"}
_UTF8_ENCODINGS = frozenset({"utf-8", "utf-16le", "utf-16be", "binary"})


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
    """WHATWG Shift_JIS encoder, unencodable characters as ``&#N;``."""
    table = _first_pointers(skip_nec_selected=True)
    out = bytearray()
    for char in text:
        code = ord(char)
        if code < 0x80 or 0xFF61 <= code <= 0xFF9F:
            out += char.encode("cp932")
        elif char in table:
            out += jis_pointer_to_sjis(table[char])
        else:
            out += b"&#%d;" % code
    return bytes(out)


def _euc_jp_encode_error(exc: UnicodeError) -> tuple[bytes, int]:
    """Encoder error handler: what Python's euc_jp lacks, via the cp932 table, else ``&#N;``."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    table = _first_pointers(skip_nec_selected=False)
    out = bytearray()
    for char in exc.object[exc.start : exc.end]:
        pointer = table.get(char)
        if pointer is None or pointer >= 94 * 94:
            out += b"&#%d;" % ord(char)
        else:
            out += bytes((0xA1 + pointer // 94, 0xA1 + pointer % 94))
    return bytes(out), exc.end


codecs.register_error(_EUC_JP_HANDLER, _euc_jp_encode_error)


def encode_query(query: str, encoding: str) -> bytes:
    """Encode a URL query string in a page encoding (our codec names), WHATWG-style.

    Unencodable characters become ``&#N;``; UTF-16 and unknown encodings give UTF-8.
    """
    if encoding in ("cp932", "euc_jp", "iso2022_jp"):
        query = query.translate(_JIS_ENCODER_PREP)
    if encoding == "euc_jp":
        return query.encode("euc_jp", _EUC_JP_HANDLER)
    if encoding == "cp932":
        return _encode_shift_jis(query)
    codec = "utf-8" if encoding in _UTF8_ENCODINGS else _PYTHON_ENCODER.get(encoding, encoding)
    try:
        return query.encode(codec, "xmlcharrefreplace")
    except LookupError:
        return query.encode("utf-8")


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
