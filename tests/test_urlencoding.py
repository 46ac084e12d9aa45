"""Link queries percent-encoded in the page's encoding (indexer.extract.urlencoding)."""

from __future__ import annotations

import pytest

from indexer.extract.links import absolute_url
from indexer.extract.urlencoding import encode_for_url, encode_query, output_encoding


@pytest.mark.parametrize(
    ("encoding", "query"),
    [
        ("cp932", "q=%83e%83X%83g"),
        ("euc_jp", "q=%A5%C6%A5%B9%A5%C8"),
        ("utf-8", "q=%E3%83%86%E3%82%B9%E3%83%88"),
        ("utf-16le", "q=%E3%83%86%E3%82%B9%E3%83%88"),
    ],
)
def test_query_in_page_encoding_path_in_utf8(encoding: str, query: str) -> None:
    url = encode_for_url("http://例え.jp/検索?q=テスト#上", encoding)
    assert url == f"http://xn--r8jz45g.jp/%E6%A4%9C%E7%B4%A2?{query}#%E4%B8%8A"


def test_browser_rules_for_japanese_encoders() -> None:
    assert encode_query("～①髙", "cp932") == b"\x81\x60\x87\x40\xfb\xfc"
    assert encode_query("～①髙", "euc_jp") == b"\xa1\xc1\xad\xa1\xfc\xe2"
    assert encode_query("€", "cp932") == b"%26%238364%3B"


def test_unencodable_characters_become_numeric_references() -> None:
    url = encode_for_url("http://ex.jp/?a=€ b&c=d", "euc_jp")
    assert url == "http://ex.jp/?a=%26%238364%3B%20b&c=d"


def test_ascii_urls_are_left_to_w3lib() -> None:
    assert encode_for_url("http://ex.jp/a b?x=1", "cp932") == "http://ex.jp/a%20b?x=1"


# What Debian's Chromium sends for a link ``?q=<char>`` on a Shift_JIS / EUC-JP page
# (a.href read on a loopback page), which is what the WHATWG encoders give.
CHROMIUM = {
    "cp932": ["%81`", "%87@", "%FB%FC", "%26%238364%3B", "%83e", "\\", "~", "%81|"],
    "euc_jp": ["%A1%C1", "%AD%A1", "%FC%E2", "%26%238364%3B", "%A5%C6", "\\", "~", "%A1%DD"],
}


@pytest.mark.parametrize("encoding", sorted(CHROMIUM))
def test_links_are_encoded_as_chromium_encodes_them(encoding: str) -> None:
    for char, query in zip("～①髙€テ¥‾−", CHROMIUM[encoding], strict=True):
        expected = f"http://127.0.0.1/p?q={query}"
        assert absolute_url(f"/p?q={char}", "http://127.0.0.1/", encoding) == expected, char


def test_utf16_and_unknown_pages_encode_queries_as_utf8() -> None:
    assert output_encoding("utf-16le") == "utf-8"
    assert output_encoding("no-such-codec") == "utf-8"
    assert encode_query("日", "utf-16be") == "日".encode()
