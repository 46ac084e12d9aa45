"""Outlinks: base URL, browser-style query encoding, filters, nofollow, cap."""

from __future__ import annotations

from html import escape

import pytest

from indexer.extract import extract
from indexer.extract.links import absolute_url

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
        ("cp932", "q=%93%FA%96{"),  # WHATWG leaves { unescaped in a query
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


def test_frame_and_iframe_sources_are_followed_in_document_order() -> None:
    body = '<a href="/a">a</a><iframe src="inner.html"></iframe><a href="/b">b</a>'
    assert _links(body) == [
        "http://intra.example/a",
        "http://intra.example/dir/inner.html",
        "http://intra.example/b",
    ]


def test_frameset_page_gives_its_frames_and_empty_text() -> None:
    html = (
        "<html><head><title>総務部</title></head>"
        '<frameset cols="180,*"><frame src="menu.html" name="menu">'
        '<frameset rows="60,*"><frame src="/top/head.html"><frame src="main.html"></frameset>'
        "<noframes><body><p>フレーム対応のブラウザでご覧ください。</p></body></noframes>"
        "</frameset></html>"
    )
    doc = extract(html, PAGE)
    assert doc.text == ""
    assert doc.title == "総務部"
    assert doc.outlinks == [
        "http://intra.example/dir/menu.html",
        "http://intra.example/top/head.html",
        "http://intra.example/dir/main.html",
    ]


@pytest.mark.parametrize(
    ("content", "target"),
    [
        ("0; url=../new/index.html", "http://intra.example/new/index.html"),
        ("5;URL='moved.html'", "http://intra.example/dir/moved.html"),
        (' 0 , url = "http://other.example/"', "http://other.example/"),
        ("0;/root.html", "http://intra.example/root.html"),
    ],
)
def test_meta_refresh_target_is_an_outlink(content: str, target: str) -> None:
    head = f'<meta http-equiv="Refresh" content="{escape(content)}">'
    assert _links('<a href="/x">x</a>', head=head) == [target, "http://intra.example/x"]


@pytest.mark.parametrize("content", ["30", "", "url=next.html", "soon; url=next.html"])
def test_meta_refresh_without_a_target_adds_nothing(content: str) -> None:
    head = f'<meta http-equiv="refresh" content="{content}">'
    assert _links("", head=head) == []


def test_meta_refresh_resolves_against_base_href() -> None:
    head = '<base href="http://intra.example/b/"><meta http-equiv=refresh content="0;url=n.html">'
    assert _links("", head=head) == ["http://intra.example/b/n.html"]
