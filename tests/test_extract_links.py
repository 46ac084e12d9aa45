"""Outlinks: base URL, browser-style query encoding, filters, nofollow, cap."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.links import absolute_url, output_encoding

PAGE = "http://intra.example/dir/page.html"


def _links(body: str, head: str = "", **kwargs: object) -> list[str]:
    html = f"<html><head>{head}</head><body>{body}<p>本文です。</p></body></html>"
    return extract(html, PAGE, **kwargs).outlinks  # type: ignore[arg-type]


def test_links_are_absolute_without_fragment_and_deduplicated() -> None:
    links = _links('<a href="a.html#x">1</a><a href="a.html#y">2</a><a href="/b">3</a>')
    assert links == ["http://intra.example/dir/a.html", "http://intra.example/b"]


def test_base_href_is_used_for_resolving() -> None:
    links = _links('<a href="c.html">c</a>', head='<base href="http://other.example/x/">')
    assert links == ["http://other.example/x/c.html"]


def test_non_http_schemes_and_nofollow_links_are_dropped() -> None:
    body = (
        '<a href="javascript:void(0)">j</a><a href="mailto:a@b.c">m</a>'
        '<a href="data:text/html,hi">d</a><a href="#top">t</a>'
        '<a rel="external NoFollow" href="/skip">n</a><a href="/keep">k</a>'
    )
    assert _links(body) == ["http://intra.example/keep"]


def test_meta_robots_nofollow_empties_outlinks() -> None:
    doc = extract(
        '<html><head><meta name="robots" content="NOINDEX,NoFollow"></head>'
        '<body><a href="/x">x</a><p>本文です。</p></body></html>',
        PAGE,
    )
    assert doc.robots == frozenset({"noindex", "nofollow"})
    assert doc.outlinks == []


def test_outlinks_are_capped() -> None:
    body = "".join(f'<a href="/p{i}">{i}</a>' for i in range(50))
    assert len(_links(body, max_links=7)) == 7


@pytest.mark.parametrize(
    ("encoding", "query"),
    [
        ("cp932", "q=%93%FA%96%7B"),
        ("euc_jp", "q=%C6%FC%CB%DC"),
        ("utf-8", "q=%E6%97%A5%E6%9C%AC"),
    ],
)
def test_query_is_percent_encoded_in_the_page_encoding(encoding: str, query: str) -> None:
    url = absolute_url("/検索?q=日本", PAGE, encoding)
    assert url == f"http://intra.example/%E6%A4%9C%E7%B4%A2?{query}"


def test_unencodable_query_characters_become_character_references() -> None:
    # WHATWG URL: the encoder's "html" error mode writes &#N; and percent-encodes it.
    url = absolute_url("/s?q=\u2603", PAGE, "euc_jp")
    assert url == "http://intra.example/s?q=%26%239731%3B"


def test_utf16_pages_encode_queries_as_utf8() -> None:
    assert output_encoding("utf-16le") == "utf-8"
    assert output_encoding("no-such-codec") == "utf-8"
