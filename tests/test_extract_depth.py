"""Deeply nested pages: libxml2's nesting limit must not drop text, nor the walks overflow."""

from __future__ import annotations

from lxml import etree

from indexer.extract import extract
from indexer.extract.depth import bound_depth
from indexer.extract.parse import parse_html

URL = "http://intra.example/old/page.html"


def _max_depth(root: etree._Element) -> int:
    return max(sum(1 for _ in element.iterancestors()) for element in root.iter())


def test_unclosed_font_per_line_keeps_every_line() -> None:
    lines = 300
    html = "<html><body>" + "".join(
        f"<font color=red>{i}行目の文章です。<br>" for i in range(lines)
    )
    text = extract(html, URL).text
    assert text.splitlines() == [f"{i}行目の文章です。" for i in range(lines)]


def test_thousands_of_nested_divs_keep_the_text_and_what_follows() -> None:
    depth = 5000
    html = (
        "<html><body>" + "<div>" * depth + "<p>奥深くにある本文です。</p>" + "</div>" * depth
    ) + "<p>入れ子の後に続く段落です。</p></body></html>"
    root = parse_html(html)
    text = etree.tostring(root, encoding="unicode", method="text")
    assert "奥深くにある本文です。" in text
    assert "入れ子の後に続く段落です。" in text
    assert _max_depth(root) <= 256
    assert "奥深くにある本文です。" in extract(html, URL).text


def test_hundred_thousand_levels_neither_crash_nor_lose_the_text() -> None:
    depth = 100_000
    html = "<div><blockquote>" * depth + "The innermost sentence survives." + "</div>" * depth
    assert "The innermost sentence survives." in extract(html, URL).text


def test_shallow_pages_are_parsed_as_they_are() -> None:
    html = "<html><body>" + "<div>" * 200 + "<p>text</p>" + "</div>" * 200 + "</body></html>"
    assert _max_depth(parse_html(html)) >= 200


def test_bound_depth_drops_inline_tags_and_cuts_deep_nesting() -> None:
    html = '<div class="a"><font color=red>x</font><div><div><p>deep</p></div></div></div>'
    out = bound_depth(html, 2)
    assert "<font" not in out and "</font>" not in out
    assert out.startswith('<div class="a">x<div>')
    assert out.count("<div") == 2  # the third level is cut …
    assert "deep" in out and "<br>" in out  # … its text kept, on its own line


def test_bound_depth_leaves_script_and_attributes_alone() -> None:
    html = "<div><script>if (a<b && c>d) {}</script><a href=\"x?a>b\" title='<i>'>l</a></div>"
    assert bound_depth(html, 2) == html
    assert bound_depth(html, 0) == "<br><script>if (a<b && c>d) {}</script>l<br>"


def test_bound_depth_closes_same_name_paragraphs_and_items() -> None:
    html = "<ul>" + "<li>item" * 50 + "</ul>" + "<p>para" * 50
    assert bound_depth(html, 3) == html


def test_a_page_of_many_inline_tags_keeps_all_its_text() -> None:
    """100,000 <span>s: unwrapping them would make lxml's text reads quadratic."""
    spans = "".join(f"<span>語{i}</span>" for i in range(100_000))
    doc = extract(f"<html><head><title>t</title></head><body>{spans}</body></html>", URL)
    assert doc.text.startswith("語0語1") and doc.text.endswith("語99999")
