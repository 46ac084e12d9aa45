"""What to suggest when a search finds nothing: the query in the other width or script
(full-width ↔ half-width, hiragana ↔ katakana), and each active filter to drop."""

from __future__ import annotations

import unicodedata

_HIRAGANA = range(0x3041, 0x3097)
_KATAKANA = range(0x30A1, 0x30F7)
_KANA_OFFSET = 0x60


def spelling_variants(query: str) -> list[str]:
    """Other spellings of ``query`` worth a try, without repeats or the query itself:
    NFKC (full-width Latin and digits to half-width, half-width katakana to full-width),
    half-width Latin to full-width only beside Japanese text (ＰＣ 設定 is how a Japanese
    page may write it; a full-width form of an ASCII-only query helps nobody), and
    hiragana ↔ katakana."""
    candidates = [
        unicodedata.normalize("NFKC", query),
        _to_fullwidth(query) if _has_japanese(query) else query,
        _shift_kana(query, _HIRAGANA, _KANA_OFFSET),
        _shift_kana(unicodedata.normalize("NFKC", query), _KATAKANA, -_KANA_OFFSET),
    ]
    out: list[str] = []
    for candidate in candidates:
        if candidate != query and candidate not in out:
            out.append(candidate)
    return out


def _has_japanese(text: str) -> bool:
    """Kana or a CJK ideograph anywhere in ``text`` (Unicode character names)."""
    names = (unicodedata.name(c, "") for c in text)
    return any(n.startswith(("HIRAGANA", "KATAKANA", "CJK UNIFIED")) for n in names)


def _to_fullwidth(text: str) -> str:
    """Printable ASCII but space to its full-width form (U+FF01..U+FF5E)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _shift_kana(text: str, source: range, offset: int) -> str:
    return "".join(chr(ord(c) + offset) if ord(c) in source else c for c in text)
