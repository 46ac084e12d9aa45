"""Browser-style Japanese decoders (indexer.encoding.japanese) against the cp932 table."""

from __future__ import annotations

import pytest

from indexer.encoding.japanese import (
    decode_cp932,
    decode_euc_jp,
    decode_iso2022_jp,
    jis_pointer_to_sjis,
)


def _cp932_or_none(sjis: bytes) -> str | None:
    try:
        return sjis.decode("cp932")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("rows", [range(12, 13), range(88, 92)], ids=["nec-row-13", "ibm-kanji"])
def test_euc_jp_nec_and_ibm_rows_match_cp932(rows: range) -> None:
    checked = 0
    for row in rows:
        for cell in range(94):
            expected = _cp932_or_none(jis_pointer_to_sjis(row * 94 + cell))
            text, replaced = decode_euc_jp(bytes((0xA1 + row, 0xA1 + cell)))
            assert text == (expected if expected is not None else "\ufffd"), (row, cell)
            checked += expected is not None
            assert replaced == (expected is None)
    assert checked > 80


def test_euc_jp_nec_and_ibm_examples() -> None:
    assert decode_euc_jp(b"\xad\xa1\xad\xd1")[0] == "①㎝"
    assert decode_euc_jp(b"\xfc\xe2")[0] == "髙"
    assert decode_euc_jp(b"\xa1\xc1\xa1\xdd\xa1\xf1")[0] == "～－￠"


def test_euc_jp_halfwidth_kana_and_jis_x_0212() -> None:
    assert decode_euc_jp(b"\x8e\xb6\x8e\xc0")[0] == "ｶﾀ"
    assert decode_euc_jp(b"\x8f\xb0\xa1")[0] == "丂"


def test_euc_jp_errors_keep_the_ascii_byte() -> None:
    assert decode_euc_jp(b"\xa4a\xa4") == ("\ufffda\ufffd", 2)
    with pytest.raises(UnicodeDecodeError):
        decode_euc_jp(b"\xa4a", strict=True)


def test_cp932_stray_bytes_are_errors() -> None:
    assert decode_cp932(b"\xa0x\xfd") == ("\ufffdx\ufffd", 2)
    with pytest.raises(UnicodeDecodeError):
        decode_cp932(b"\xff", strict=True)


def test_iso2022_jp_katakana_roman_and_nec_row_13() -> None:
    body = b'\x1b$B-!$"\x1b(I6@\x1b(J\\~\x1b(Babc'
    assert decode_iso2022_jp(body) == ("①あｶﾀ¥‾abc", 0)


def test_iso2022_jp_errors() -> None:
    assert decode_iso2022_jp(b"\x1b$B\x1b(Bx")[0] == "\ufffdx"  # escape right after escape
    assert decode_iso2022_jp(b"a\xa4b")[0] == "a\ufffdb"
    with pytest.raises(UnicodeDecodeError):
        decode_iso2022_jp(b"\x1b(I\x7f", strict=True)
