"""Byte-pattern sniffing: BOM, BOM-less UTF-16, ISO-2022-JP escapes, UTF-8, binary.

Sources: WHATWG Encoding "BOM sniff" (https://encoding.spec.whatwg.org/#bom-sniff),
WHATWG MIME Sniffing "binary data byte" and signatures (https://mimesniff.spec.whatwg.org/),
RFC 1468 (ISO-2022-JP escape sequences), RFC 3629 (UTF-8).
"""

from __future__ import annotations

import codecs
import re

from indexer.encoding.decoders import MAY_BE_CUT_BYTES

#: Bytes looked at by the sample-based sniffers.
SAMPLE_BYTES = 4096

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)


def sniff_bom(data: bytes) -> tuple[str, int] | None:
    """Return ``(encoding, bom_length)`` when ``data`` starts with a UTF-8/UTF-16 BOM."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None


# In UTF-16 text the high byte of each code unit is mostly 0x00 (ASCII, Latin-1),
# 0x30 (kana, CJK punctuation) or 0xFF (full-width forms); the low byte varies.
_UTF16_HIGH = (0x00, 0x30, 0xFF)
_C0_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\ufffe\uffff]")


def _share(half: bytes) -> float:
    return sum(half.count(b) for b in _UTF16_HIGH) / max(1, len(half))


def _is_utf16_text(sample: bytes, codec: str) -> bool:
    """The sample decodes in ``codec`` (a cut last unit allowed) to text with ≤ 1 % C0 controls."""
    try:
        text = codecs.getincrementaldecoder(codec)("strict").decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return len(_C0_NOT_TEXT.findall(text)) <= len(text) // 100


def sniff_utf16(data: bytes) -> str | None:
    """Recognise BOM-less UTF-16 by where its 0x00/0x30/0xFF bytes fall.

    Returns:
        ``utf-16le``, ``utf-16be`` or None. Only text whose high bytes (the odd bytes for
        LE) are at least 25 % 0x00/0x30/0xFF while the other half is at most 10 % is
        considered, and it must decode strictly to text with few C0 controls.
    """
    sample = data[:SAMPLE_BYTES]
    even, odd = _share(sample[0::2]), _share(sample[1::2])
    if odd >= 0.25 and even <= 0.1 and _is_utf16_text(sample, "utf-16-le"):
        return "utf-16le"
    if even >= 0.25 and odd <= 0.1 and _is_utf16_text(sample, "utf-16-be"):
        return "utf-16be"
    return None


_ISO2022_JP_ESCAPE = re.compile(rb"\x1b(?:\$[@B]|\([BJI])")


def sniff_iso2022_jp(data: bytes) -> bool:
    """True for 7-bit data that contains an ISO-2022-JP escape sequence (RFC 1468)."""
    return b"\x1b" in data and data.isascii() and _ISO2022_JP_ESCAPE.search(data) is not None


def is_utf8(data: bytes) -> bool:
    """True when ``data`` is valid UTF-8; a character cut by the end of data still counts
    when ``data`` may be cut (:data:`MAY_BE_CUT_BYTES` long or more: ``Andr\\xe9`` ending
    a short windows-1252 body is no UTF-8)."""
    final = len(data) < MAY_BE_CUT_BYTES
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=final)
    except UnicodeDecodeError:
        return False
    return True


_UTF8_LONG_SEQUENCE = re.compile(rb"[\xe0-\xf4][\x80-\xbf]{2}")


def utf8_long_sequences(data: bytes) -> int:
    """The number of 3- and 4-byte sequences in ``data``, valid UTF-8 (RFC 3629).

    Legacy Japanese text is rarely valid UTF-8, and then as half-width katakana, whose
    bytes (A1–DF) only form 2-byte sequences; 3-byte ones need a level-2 kanji lead byte
    followed by two bytes in 80–BF, over and over.
    """
    return len(_UTF8_LONG_SEQUENCE.findall(data))


#: :func:`mostly_utf8`: at least this many 3- and 4-byte sequences …
MOSTLY_UTF8_SEQUENCES = 8
#: … and at least this many of them per undecodable byte. Legacy Japanese text read as UTF-8
#: gives at most one sequence per 8 undecodable bytes (0.125, EUC-JP, measured on the
#: charset corpus); a UTF-8 text with a pasted cp932 fragment gives 6–12 per byte.
MOSTLY_UTF8_RATIO = 2


def mostly_utf8(data: bytes) -> bool:
    """True for UTF-8 with a few stray bytes (a cp932 fragment pasted into a UTF-8 file):
    at least :data:`MOSTLY_UTF8_SEQUENCES` valid 3- or 4-byte sequences and at least
    :data:`MOSTLY_UTF8_RATIO` of them per undecodable byte. Legacy Japanese text forms
    such sequences only by chance, and then among far more invalid bytes."""
    sample = data[: SAMPLE_BYTES * 16]
    long = utf8_long_sequences(sample)
    if long < MOSTLY_UTF8_SEQUENCES:
        return False
    bad = sample.decode("utf-8", "replace").count("\ufffd")
    return bad * MOSTLY_UTF8_RATIO <= long


_SIGNATURES = re.compile(
    rb"\x89PNG\r\n\x1a\n|GIF8[79]a|\xff\xd8\xff|%PDF-|PK\x03\x04|PK\x05\x06|\x1f\x8b\x08"
    rb"|BZh[1-9]1AY&SY|7z\xbc\xaf\x27\x1c|\xfd7zXZ\x00|\x28\xb5\x2f\xfd|Rar!\x1a\x07"
    rb"|\x7fELF|\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1|\x00asm|\x00\x00\x01\x00|\xca\xfe\xba\xbe"
    rb"|II\x2a\x00|MM\x00\x2a|OggS\x00|ID3[\x02-\x04]|wOFF|wOF2|RIFF....(?:WEBP|WAVE|AVI )"
    rb"|....ftyp",
    re.S,
)
# WHATWG MIME Sniffing "binary data byte": C0 controls other than TAB LF FF CR ESC.
_NOT_BINARY_BYTES = bytes(
    b for b in range(256) if not (b <= 0x08 or b == 0x0B or 0x0E <= b <= 0x1A or 0x1C <= b <= 0x1F)
)


def has_binary_signature(data: bytes) -> bool:
    """True when ``data`` starts with an image, archive, PDF, font, media or program signature."""
    return _SIGNATURES.match(data) is not None


def looks_binary(data: bytes) -> bool:
    """True for a binary signature, or more than 1 % binary data bytes in the first 4 KiB
    (unless that sample is UTF-16 text, whose bytes often fall in that range)."""
    if has_binary_signature(data):
        return True
    sample = data[:SAMPLE_BYTES]
    controls = len(sample.translate(None, _NOT_BINARY_BYTES))
    if controls == 0 or controls * 100 <= len(sample):
        return False
    return not (_is_utf16_text(sample, "utf-16-le") or _is_utf16_text(sample, "utf-16-be"))
