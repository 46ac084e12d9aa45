"""Placement of non-ASCII characters in single-byte readings (indexer.encoding.singlebyte)."""

from __future__ import annotations

import pytest

from indexer.encoding.decoders import decode_as
from indexer.encoding.singlebyte import implausible, placement_counts

# Real text in single-byte code pages: accented letters inside words, typographic
# punctuation next to spaces, words of one script.
REAL_TEXT = [
    ("The café’s “special” costs €5 — naïve résumé, déjà vu… © 2004, 25 °C, 3 m².", "cp1252"),
    ("„Grünes“ Gesch\xe4ftsmodell – Verfügbarkeit prüfen; Größe: 12½ cm.", "cp1252"),
    ("Durch\xadschnitts\xadwert außer\xadgewöhnlich hoch.", "cp1252"),
    ("Poblacht na hÍoslainne agus an tSúdáin; ¿Dónde está? ¡Olé!", "cp1252"),
    ("Республика Беларусь — государство в Восточной Европе.", "cp1251"),
    ("Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης.", "iso8859-7"),
    ("اللغة العربية هي أكثر اللغات السامية تحدثاً.", "cp1256"),
]

# Japanese double-byte text read one byte at a time.
JAPANESE_TEXT = [
    ("<td>山田太郎</td><td>佐藤花子</td><td>鈴木一郎</td>", "cp932", "windows-1252"),
    ("<td>山田太郎</td><td>佐藤花子</td><td>鈴木一郎</td>", "euc_jp", "iso8859-15"),
    ("<title>休業日</title><p>本日休業</p>", "cp932", "windows-1252"),
    ("Q3 sales report 売上報告", "euc_jp", "cp1256"),
]


@pytest.mark.parametrize(("text", "codec"), REAL_TEXT)
def test_real_single_byte_text_is_plausible(text: str, codec: str) -> None:
    reading = decode_as(text.encode(codec), codec)[0]
    assert reading == text
    judged, plausible = placement_counts(reading)
    assert judged == sum(not c.isascii() for c in text)
    assert plausible >= judged - 1
    assert not implausible(reading)


@pytest.mark.parametrize(("text", "codec", "single_byte"), JAPANESE_TEXT)
def test_japanese_read_as_single_bytes_is_implausible(
    text: str, codec: str, single_byte: str
) -> None:
    reading = decode_as(text.encode(codec), single_byte)[0]
    judged, plausible = placement_counts(reading)
    assert judged >= 6
    assert plausible * 2 < judged
    assert implausible(reading)


def test_a_few_odd_characters_are_not_enough() -> None:
    # A transliteration mark glued inside a name is misplaced, but one proves nothing.
    assert placement_counts("Ma‘an, Mbale, Mbeya") == (1, 0)
    assert not implausible("Ma‘an, Mbale, Mbeya")
    assert placement_counts("plain ASCII") == (0, 0)
    assert not implausible("plain ASCII")
