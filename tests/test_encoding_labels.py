"""WHATWG label table (indexer.encoding.labels)."""

from __future__ import annotations

import pytest

from indexer.encoding import decode_as, lookup_label
from indexer.encoding.labels import LABELS


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Shift_JIS", "cp932"),
        ("x-sjis", "cp932"),
        ("windows-31j", "cp932"),
        ("MS_Kanji", "cp932"),
        ("csshiftjis", "cp932"),
        ("shift-jis", "cp932"),
        ("sjis", "cp932"),
        ("x-euc-jp", "euc_jp"),
        ("cseucpkdfmtjapanese", "euc_jp"),
        ("csISO2022JP", "iso2022_jp"),
        ("unicode", "utf-16le"),
        ("ucs-2", "utf-16le"),
        ("utf-16", "utf-16le"),
        ("unicodeFFFE", "utf-16be"),
        ("unicode20utf8", "utf-8"),
        ("iso-8859-1", "windows-1252"),
        ("US-ASCII", "windows-1252"),
        ("latin1", "windows-1252"),
        ("gb2312", "gb18030"),
        ("ks_c_5601-1987", "euc_kr"),
        (" \tEUC-JP\n", "euc_jp"),
    ],
)
def test_known_labels(label: str, expected: str) -> None:
    assert lookup_label(label) == expected


@pytest.mark.parametrize("label", ["", "shiftjis", "euc_jp", "x-mac-japanese", "\u212aoi8-r"])
def test_unknown_labels(label: str) -> None:
    assert lookup_label(label) is None


def test_every_encoding_in_the_table_decodes() -> None:
    for encoding in set(LABELS.values()) - {"utf-16le", "utf-16be"}:
        assert decode_as(b"plain ascii", encoding) == ("plain ascii", 0), encoding
    assert decode_as("ok".encode("utf-16-le"), "utf-16le") == ("ok", 0)
    assert decode_as("ok".encode("utf-16-be"), "utf-16be") == ("ok", 0)
