"""The ``precision`` profile's article rules (captions named in camelCase, headings of
left-out boxes) and the speed-only rewrites of the segmenter and link resolver."""

from __future__ import annotations

import random

from indexer.extract import extract
from indexer.extract.links import absolute_url
from indexer.extract.parse import body_of, parse_html
from indexer.extract.segment import punctuation, segment
from indexer.extract.text import collapse, drop_wide_breaks, join_lines, visible_chars

URL = "http://127.0.0.1/news/item.html"


def _article(inside: str, after: str = "") -> str:
    prose = "".join(
        f"<p>Paragraph {n} of the report. The new form halved the days an approval takes, "
        "and nobody has to carry paper from desk to desk any more.</p>"
        for n in range(5)
    )
    return (
        "<html><head><title>Office report</title></head><body><article><h1>Office report</h1>"
        f"{prose[:300]}{inside}{prose[300:]}</article>{after}</body></html>"
    )


def test_camel_case_caption_is_left_out_of_precision_and_kept_by_search() -> None:
    figure = (
        '<div class="InlineImage-wrapper"><img src="/p.jpg" alt="">'
        '<div class="InlineImage-imageEmbedCaption">The minister, centre, walks past the '
        "new aircraft at the show.</div></div>"
    )
    page = _article(figure)
    precision = extract(page, URL, profile="precision").text
    search = extract(page, URL, profile="search").text
    assert "walks past the new aircraft" not in precision
    assert "Paragraph 4 of the report" in precision
    assert "walks past the new aircraft" in search


def test_heading_of_a_left_out_link_box_goes_in_precision() -> None:
    links = "".join(f'<li><a href="/n/{n}">Another story headline {n}</a></li>' for n in range(6))
    box = f'<div class="box"><header><h3>Related articles</h3></header><ul>{links}</ul></div>'
    section = "<h2>Costs</h2><p>The costs fell by a third, as the table below shows.</p>"
    page = _article(box + section)
    text = extract(page, URL, profile="precision").text
    assert "Related articles" not in text
    assert "Another story headline 2" not in text
    assert "Costs" in text  # a heading over kept text stays
    assert "Paragraph 0 of the report" in text and "Paragraph 4 of the report" in text


def test_white_space_collapsed_once_per_block_as_per_piece() -> None:
    rng = random.Random(7)
    alphabet = ["a", "語", "本", " ", "\n", "\t", "\u00a0", "\u200b", "\u3000", "x", "\r"]
    for _ in range(2000):
        pieces = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in "abc"]
        assert join_lines(map(drop_wide_breaks, pieces)) == join_lines(map(collapse, pieces))
        for piece in pieces:  # link characters are counted after the wide breaks go
            folded = collapse(piece)
            assert visible_chars(drop_wide_breaks(piece)) == len(folded) - folded.count(" ")


def test_punctuation_counts_latin_marks_only_before_space_or_end() -> None:
    assert punctuation("終わり。次、そして！") == 3
    assert punctuation("See v1.2 at example.org, then stop.") == 2
    assert punctuation("a.b:c;d") == 0


def test_semantic_elements_are_found_by_the_walk_in_document_order() -> None:
    html = (
        "<html><body><nav><main><p>menu text</p></main></nav>"
        '<div role="main"><p>first text</p></div><article><p>second text</p></article>'
        '<div itemprop="articleBody"><p>third text</p></div><main></main></body></html>'
    )
    seg = segment(body_of(parse_html(html)))
    found = [
        (element.tag, element.get("role"), element.get("itemprop")) for element in seg.semantic
    ]
    assert found == [
        ("div", "main", None),
        ("article", None, None),
        ("div", None, "articleBody"),
        ("main", None, None),
    ]
    assert seg.semantic[-1] not in seg.spans  # empty: found, but no candidate


def test_links_clean_or_not_resolve_as_before() -> None:
    base = "http://127.0.0.1/dir/page.html"
    assert absolute_url("/a/b?q=1", base, "utf-8") == "http://127.0.0.1/a/b?q=1"
    assert absolute_url("x%41y", base, "utf-8") == "http://127.0.0.1/dir/x%41y"
    assert absolute_url("x%4y", base, "utf-8") == "http://127.0.0.1/dir/x%4y"  # WHATWG: kept
    assert absolute_url("/a b", base, "utf-8") == "http://127.0.0.1/a%20b"
    assert absolute_url("検索?q=日本", base, "shift_jis") == (
        "http://127.0.0.1/dir/%E6%A4%9C%E7%B4%A2?q=%93%FA%96{"  # 本 is 0x96 0x7B in Shift_JIS
    )
    assert absolute_url("mailto:a@b", base, "utf-8") is None
