"""Pure parts of the web interface: language choice, snippets, filters, hints, links."""

from __future__ import annotations

import pytest

from indexer.errors import QueryError
from indexer.solr.query import MAX_QUERY_CHARS
from indexer.web.formats import format_of, media_types
from indexer.web.hints import spelling_variants
from indexer.web.i18n import LABELS, choose_language
from indexer.web.query import (
    MAX_START,
    PAGE_SIZE,
    SearchRequest,
    filter_query,
    parse_request,
    solr_params,
)
from indexer.web.results import marked_snippet, parse_answer
from indexer.web.views import page_links, search_url


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "ja"),
        ("", "ja"),
        ("en-US,en;q=0.9", "en"),
        ("ja,en;q=0.8", "ja"),
        ("en;q=0.5,ja;q=0.9", "ja"),
        ("fr-FR,en;q=0.7", "en"),
        ("de,fr", "ja"),
        ("en;q=0", "ja"),
        ("en;q=bogus", "ja"),
        ("EN-gb", "en"),
    ],
)
def test_choose_language(header: str | None, lang: str) -> None:
    assert choose_language(header) == lang


def test_labels_have_the_same_keys() -> None:
    assert LABELS["ja"].keys() == LABELS["en"].keys()


def test_marked_snippet_keeps_only_marks() -> None:
    raw = (
        "&lt;script&gt;x&lt;&#x2F;script&gt;<em>有給</em><em>休暇</em> &lt;em&gt;偽&lt;&#x2F;em&gt;"
    )
    assert str(marked_snippet(raw)) == (
        "&lt;script&gt;x&lt;/script&gt;<mark>有給休暇</mark> &lt;em&gt;偽&lt;/em&gt;"
    )
    assert str(marked_snippet("<em>開いた\nまま")) == "<mark>開いた まま</mark>"
    assert str(marked_snippet("閉じ</em>ただけ")) == "閉じただけ"
    assert str(marked_snippet('" onmouseover=&quot;x')) == "&#34; onmouseover=&#34;x"


def test_filters_are_quoted_terms() -> None:
    req = SearchRequest("q", filters={"host": ('x" OR *:*',), "lang": ("ja",), "year": ("2024",)})
    assert filter_query(req, "format") == (
        '+host:"x\\" OR *:*" +lang:"ja" +modified:[2024-01-01T00:00:00Z TO 2025-01-01T00:00:00Z}'
    )
    typed = SearchRequest("q", filters={"type": ("html",)})
    assert filter_query(typed, "format") == (
        '+(format:"html" (+(content_type:"text/html" content_type:"application/xhtml+xml")'
        " -format:[* TO *]))"
    )
    assert filter_query(typed, "content_type") == (
        '+(content_type:"text/html" content_type:"application/xhtml+xml")'
    )
    assert filter_query(SearchRequest("q"), "format") is None
    both = SearchRequest("q", filters={"host": ("a", "b"), "year": ("2023", "2024")})
    assert filter_query(both, "format") == (
        '+((host:"a") (host:"b")) +((modified:[2023-01-01T00:00:00Z TO 2024-01-01T00:00:00Z})'
        " (modified:[2024-01-01T00:00:00Z TO 2025-01-01T00:00:00Z}))"
    )
    params = solr_params(SearchRequest("q", start=20, sort="modified"), "format")
    assert params["start"] == 20 and params["sort"] == "modified desc,score desc"
    assert params["hl.encoder"] == "html" and "fq" not in params


def test_parse_request_bounds() -> None:
    req = parse_request({"q": " 有給 ", "page": "3", "host": "h", "type": "", "sort": "modified"})
    assert (req.q, req.start, req.page, dict(req.filters)) == ("有給", 20, 3, {"host": ("h",)})
    assert parse_request({"q": "x", "start": "7", "rows": "100"}, api=True).rows == 100
    # a page link edited by hand falls back to the nearest page, a bad sort to relevance
    assert parse_request({"q": "x", "page": "0"}).page == 1
    assert parse_request({"q": "x", "page": "two"}).page == 1
    assert parse_request({"q": "x", "page": "-4"}).page == 1
    assert parse_request({"q": "x", "page": "999999"}).page == MAX_START // PAGE_SIZE  # the last
    with pytest.raises(QueryError):  # search.max_query_chars, as the CLI reads it
        parse_request({"q": "x" * 6}, max_chars=5)
    assert parse_request({"q": "x", "sort": "bogus"}).sort == "relevance"
    for params, name in [
        ({"q": "x" * (MAX_QUERY_CHARS + 1)}, "q"),
        ({"q": "x", "sort": "title"}, "sort"),
        ({"q": "x", "year": "99999"}, "year"),
    ]:
        with pytest.raises(QueryError) as err:
            parse_request(params, api=name == "sort")
        assert err.value.param == name


def test_formats_fall_back_to_media_types() -> None:
    assert format_of("text/html; charset=Shift_JIS") == "html"
    assert format_of("application/pdf") == "pdf"
    assert format_of("image/png") is None and format_of(None) is None
    assert media_types("docx")[0].endswith("wordprocessingml.document")
    assert media_types("image/png") == ("image/png",)
    answer = {
        "response": {"numFound": 1, "start": 0, "docs": [{"id": "a", "content_type": "text/html"}]},
        "facets": {
            "type": {"buckets": [{"val": "text/html", "count": 2}, {"val": "x/y", "count": 1}]}
        },
    }
    result = parse_answer(answer, "content_type")
    assert result.hits[0].format == "html" and result.hits[0].url == "a"
    assert result.hits[0].href is None  # "a" is no http(s) URL
    assert result.facets["type"] == [("html", 2), ("x/y", 1)]


def test_spelling_variants() -> None:
    assert spelling_variants("ﾊﾟｽﾜｰﾄﾞ")[0] == "パスワード"
    assert spelling_variants("PC") == []  # a full-width form of ASCII alone helps nobody
    assert "ＰＣ 設定" in spelling_variants("PC 設定")
    assert "pc" in spelling_variants("ｐｃ")
    assert "カイギ" in spelling_variants("かいぎ")
    assert "かいぎ" in spelling_variants("カイギ")
    assert spelling_variants("有給休暇") == []


def test_page_links_window() -> None:
    req = SearchRequest("q", start=90)  # page 10 of 30
    pages = page_links(req, 300)
    assert [p.text for p in pages] == [str(n) for n in range(6, 15)]
    assert [p.text for p in pages if p.current] == ["10"]
    assert [p.text for p in page_links(SearchRequest("q"), 25)] == ["1", "2", "3"]
    assert search_url(SearchRequest("a&b=c", filters={"host": ("h:1",)}), 2) == (
        "/search?q=a%26b%3Dc&host=h%3A1&page=2"
    )
