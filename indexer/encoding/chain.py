"""The decoding chain: bytes (+ Content-Type) → :class:`~indexer.models.DecodedText`.

Sources are tried in this order; the first that settles the encoding is recorded in
``DecodedText.source``:

1. ``bom``: a UTF-8/UTF-16 byte order mark; certain, beats the header (WHATWG).
   A body with an image/archive signature or many C0 control bytes is ``binary``,
   whatever its header says.
2. ``header``: the Content-Type ``charset`` through the WHATWG label table.
3. ``xml`` / ``meta``: the XML declaration, then the WHATWG ``<meta>`` prescan (1024 bytes,
   then 64 KiB for late tags).
4. A declaration is trusted only if it strictly decodes the body and is not contradicted
   (see :func:`_contradicted`); a Latin-1-family header yields to a document declaration.
   Untrusted declarations are kept in ``hints`` as ``"<source>:<label>"``.
5. ``sniff``: BOM-less UTF-16, ISO-2022-JP escapes in 7-bit data, UTF-8 (``detected``
   for UTF-8 with a few stray bytes, see :func:`sniff.mostly_utf8`).
6. ``detected``: chardet checked by the Japanese plausibility score and the kanji prior;
   ``guess`` instead when the sample had fewer than
   :data:`detect.STRONG_EVIDENCE_BYTES` non-ASCII bytes (an unsure answer, shown as such).
7. ``default``: cp932 with replacement characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from indexer.encoding import detect, sniff, sparse, utf8misread
from indexer.encoding.decoders import decode_as, decodes_strictly, strict_text
from indexer.encoding.labels import LATIN1_FAMILY, lookup_label
from indexer.encoding.prescan import Declaration, prescan, xml_declaration
from indexer.models import DecodedText

DEFAULT_ENCODING = "cp932"
#: Valid UTF-8 with this many 3- or 4-byte sequences beats a Japanese declaration.
UTF8_LONG_SEQUENCES = 3
#: Valid UTF-8 beats a Japanese declaration whose reading has this share of half-width
#: katakana glued to full-width characters.
GLUED_HALFWIDTH_SHARE = 0.2
_JAPANESE = ("cp932", "euc_jp")
_LATIN = "windows-1252"  # how a Latin-1 family declaration reads (WHATWG)
_HEADER_CHARSET = re.compile(r"""[;\s]charset\s*=\s*["']?([^"';,\s]*)""", re.IGNORECASE)


def decode_body(body: bytes, content_type: str | None = None) -> DecodedText:
    """Decode an HTTP body into text, choosing the encoding the way browsers do.

    Args:
        body: the raw (decompressed) body bytes.
        content_type: the raw HTTP ``Content-Type`` header value, or None.

    Returns:
        The text (no BOM; "" for binary or empty bodies), our codec name (``cp932``,
        ``euc_jp``, ``iso2022_jp``, ``utf-8``, ``utf-16le``, ``utf-16be``,
        ``windows-1252``, …, or ``binary``), the deciding source, the number of U+FFFD the
        decode produced and the declarations that were not trusted. Never raises.
    """
    if not body:
        return DecodedText("", "utf-8", "default")
    declarations = list(_declarations(body, content_type))
    bom = sniff.sniff_bom(body)
    if bom is not None:
        return _decoded(body[bom[1] :], bom[0], "bom", _hints(declarations, None))
    if sniff.looks_binary(body):
        return DecodedText("", "binary", "sniff", 0, _hints(declarations, None))
    chosen = _trusted(body, declarations)
    if chosen is not None:
        return _decoded(body, chosen.encoding, chosen.where, _hints(declarations, chosen))
    encoding, source = _sniff_or_detect(body)
    return _decoded(body, encoding, source, _hints(declarations, None))


def _declarations(body: bytes, content_type: str | None) -> Iterator[Declaration]:
    """The header's charset, then the document's (XML declaration, else ``<meta>``)."""
    if content_type:
        match = _HEADER_CHARSET.search(" " + content_type)
        if match is not None and match.group(1):
            label = match.group(1).lower()
            encoding = lookup_label(label)
            yield Declaration(label, encoding or "", "header")
    in_document = xml_declaration(body) or prescan(body)
    if in_document is not None:
        yield in_document


def _trusted(body: bytes, declarations: list[Declaration]) -> Declaration | None:
    """The first declaration that decodes ``body`` strictly and is not contradicted."""
    ordered = sorted(declarations, key=lambda d: d.encoding in LATIN1_FAMILY)
    for declaration in ordered:
        encoding = declaration.encoding
        if not encoding or not decodes_strictly(body, encoding):
            continue
        if not _contradicted(body, encoding):
            return declaration
    return None


def _contradicted(body: bytes, encoding: str) -> bool:
    """True when the bytes say another encoding more surely than a declaration does.

    - UTF-16 declared (only a header can) but the body has no UTF-16 byte pattern, or
      the body has it and the declaration is something else;
    - 7-bit body with ISO-2022-JP escapes, declared anything else;
    - Latin-1 family declared (the usual server default) over non-ASCII UTF-8, or over
      bytes that read as Japanese (plausibility score ≥ :data:`detect.JAPANESE_MIN_SCORE`,
      or kanji-only text whose windows-1252 reading is implausible, see
      :func:`detect.japanese_over_single_byte`); on thin evidence, bytes whose Japanese
      reading is clearly more plausible than the Latin one (:mod:`.sparse`);
    - a Japanese encoding declared over UTF-8 it only happens to decode (see
      :func:`_utf8_read_as_japanese`), or where the other Japanese encoding reads as
      clearly more Japanese.
    """
    utf16 = sniff.sniff_utf16(body)
    if encoding in ("utf-16le", "utf-16be") or utf16 is not None:
        return utf16 != encoding
    if encoding != "iso2022_jp" and sniff.sniff_iso2022_jp(body):
        return True
    if encoding in LATIN1_FAMILY:
        if body.isascii():
            return False
        if sniff.is_utf8(body):
            return True
        sample = detect.evidence_sample(body)
        if detect.non_ascii_bytes(sample) < detect.STRONG_EVIDENCE_BYTES:  # weigh each one
            return sparse.weigh_sparse(sample, _LATIN) is not None
        readings = detect.japanese_readings(sample)
        if detect.prefer_japanese(readings, None) is not None:
            return True
        return detect.japanese_over_single_byte(sample, readings, encoding) is not None
    if encoding in _JAPANESE and not body.isascii():
        return _utf8_read_as_japanese(body, encoding) or _other_japanese_reads_better(
            body, encoding
        )
    return False


def _utf8_read_as_japanese(body: bytes, declared: str) -> bool:
    """The body is UTF-8 that the declared Japanese encoding only happens to decode.

    Valid UTF-8 with at least :data:`UTF8_LONG_SEQUENCES` 3- or 4-byte sequences (which
    legacy Japanese text does not form, see :func:`sniff.utf8_long_sequences`), or whose
    declared reading scatters half-width katakana between full-width characters (at least
    :data:`GLUED_HALFWIDTH_SHARE` of it, see :func:`detect.glued_halfwidth_share`) while
    the UTF-8 reading is at least as much kana, kanji and full-width forms.
    """
    sample = body[: detect.DETECT_BYTES]
    if not sniff.is_utf8(sample):
        return False
    if sniff.utf8_long_sequences(sample) >= UTF8_LONG_SEQUENCES:
        return True
    text = strict_text(sample, declared)
    if text is None or detect.glued_halfwidth_share(text) < GLUED_HALFWIDTH_SHARE:
        return False
    utf8 = sample.decode("utf-8", "ignore")  # valid: only a character cut at the end drops
    return detect.cjk_share(utf8) >= detect.cjk_share(text)


def _other_japanese_reads_better(body: bytes, declared: str) -> bool:
    """The other Japanese encoding also decodes strictly and reads as clearly more Japanese.

    Only scored when the other decode succeeds (it fails within a few bytes on real cp932
    text read as EUC-JP), so the usual case costs one failed decode.
    """
    sample = body[: detect.DETECT_BYTES]
    other = "euc_jp" if declared == "cp932" else "cp932"
    if not decodes_strictly(sample, other):
        return False
    return detect.prefer_japanese(detect.japanese_readings(sample), declared) is not None


def _sniff_or_detect(body: bytes) -> tuple[str, str]:
    """Steps 5–7 of the chain: ``(encoding, source)``."""
    utf16 = sniff.sniff_utf16(body)
    if utf16 is not None:
        return utf16, "sniff"
    if sniff.sniff_iso2022_jp(body):
        return "iso2022_jp", "sniff"
    sample = detect.evidence_sample(body)
    thin = detect.non_ascii_bytes(sample) < detect.STRONG_EVIDENCE_BYTES
    if sniff.is_utf8(body):
        japanese = utf8misread.utf8_misread(sample) if thin else None
        return ("utf-8", "sniff") if japanese is None else (japanese, "guess")
    if sniff.mostly_utf8(body):
        return "utf-8", "guess" if thin else "detected"
    detected = detect.detect(body)
    if detected is not None:
        return detected, "guess" if thin else "detected"
    return DEFAULT_ENCODING, "default"


def _decoded(data: bytes, encoding: str, source: str, hints: tuple[str, ...]) -> DecodedText:
    if encoding == "binary":
        return DecodedText("", "binary", source, 0, hints)
    try:
        text, replacements = decode_as(data, encoding)
    except LookupError:
        encoding, source = DEFAULT_ENCODING, "default"
        text, replacements = decode_as(data, encoding)
    return DecodedText(text, encoding, source, replacements, hints)


def _hints(declarations: list[Declaration], chosen: Declaration | None) -> tuple[str, ...]:
    return tuple(f"{d.where}:{d.label}" for d in declarations if d is not chosen)
