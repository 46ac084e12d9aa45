"""The extraction chain on hand-written fixtures: each page shape it must get right."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from indexer.errors import ExtractError
from indexer.extract import SiteRule, extract

FIXTURES = Path(__file__).parent / "fixtures" / "extract"
URL = "http://intra.example/dept/page.html"


def _doc(name: str, **kwargs: object):  # type: ignore[no-untyped-def]
    html = (FIXTURES / name).read_text(encoding="utf-8")
    return extract(html, URL, **kwargs)  # type: ignore[arg-type]


def test_sidebar_with_more_text_than_the_article_is_left_out() -> None:
    doc = _doc("sidebar_long.html")
    assert "会議室の予約はすべて新しい予約システム" in doc.text
    assert "内線1234" in doc.text
    assert "山岳部" not in doc.text
    assert "総務部ポータル" not in doc.text


def test_comment_thread_longer_than_the_article_is_left_out() -> None:
    doc = _doc("comment_thread.html")
    assert "replaced with a new colour model" in doc.text
    assert "double-sided" not in doc.text
    assert "Archive" not in doc.text


def test_divider_inside_the_article_does_not_cut_it() -> None:
    doc = _doc("divider_in_article.html")
    assert "ファイルサーバを新しい機器へ移行します" in doc.text
    assert "古いバックアップは三月末で削除されます" in doc.text
    assert "ご協力をお願いいたします" in doc.text
    assert "個人情報保護方針" not in doc.text
    assert "ページの先頭へ" not in doc.text


def test_table_layout_article_cell_is_found() -> None:
    doc = _doc("table_layout.html")
    assert "卒業研究発表会は二月十五日に開催されます" in doc.text
    assert "来年度の計画について議論します" in doc.text
    assert "掲示板" not in doc.text
    assert "Copyright" not in doc.text
    # <br> inside the cell keeps the paragraph breaks.
    assert "五分です。\n発表資料は" in doc.text


def test_entry_page_gives_full_text_not_the_excerpts() -> None:
    doc = _doc("entry_with_excerpts.html")
    assert "四月二十日から五月十日までの平日" in doc.text
    assert "結果の写しを提出してください" in doc.text
    assert "続きを読む" not in doc.text
    assert "社員食堂" not in doc.text


def test_diary_keeps_every_entry() -> None:
    doc = _doc("diary.html")
    for snippet in (
        "社内のサーバをようやく止めた",
        "EUC-JPで保存されていて",
        "資料の整理を一日かけて",
    ):
        assert snippet in doc.text
    assert "前の月" not in doc.text
    assert "追記" not in doc.text


def test_short_article_does_not_come_back_as_menus() -> None:
    doc = _doc("short_article.html")
    assert "6月3日（月）は臨時休業いたします" in doc.text
    for menu in ("蔵書検索", "こどものページ", "2023年のお知らせ", "サイトマップ"):
        assert menu not in doc.text
    assert len(doc.text) < 250


def test_title_heading_leads_the_text_and_headings_are_listed() -> None:
    doc = _doc("divider_in_article.html")
    assert doc.text.splitlines()[0] == "サーバ移行のお知らせ"
    assert doc.headings == ["サーバ移行のお知らせ"]
    assert doc.extractor in {"semantic", "blocks", "dom"}


def test_site_rule_include_and_exclude() -> None:
    rule = SiteRule(
        url_pattern=r"^http://intra\.example/dept/", include=("div.recent",), exclude=("h2",)
    )
    doc = _doc("entry_with_excerpts.html", rules=[rule])
    assert doc.extractor == "rules"
    assert "社員食堂の新メニュー" in doc.text
    assert "最近の記事" not in doc.text
    assert "健康診断" not in doc.text


def test_site_rule_for_another_site_is_ignored() -> None:
    rule = SiteRule(url_pattern=r"^http://other\.example/", include=("div.recent",))
    doc = _doc("entry_with_excerpts.html", rules=[rule])
    assert doc.extractor != "rules"
    assert "健康診断" in doc.text


def test_page_without_markup_falls_back_to_body_text() -> None:
    doc = extract("<html><body><nav><a href='/'>Home</a></nav>Just a line</body></html>", URL)
    assert doc.text == "Just a line"


@pytest.mark.parametrize("html", ["", "   \n  "])
def test_unparseable_page_raises_extract_error(html: str) -> None:
    with pytest.raises(ExtractError):
        extract(html, URL)


def test_xml_declaration_with_encoding_is_accepted() -> None:
    html = (
        '<?xml version="1.0" encoding="euc-jp"?><html><body><p>日本語の本文です。</p></body></html>'
    )
    assert extract(html, URL).text == "日本語の本文です。"


def test_extract_is_picklable_for_a_process_pool() -> None:
    assert pickle.loads(pickle.dumps(extract)) is extract
    doc = _doc("short_article.html")
    assert pickle.loads(pickle.dumps(doc)) == doc


def test_short_notice_keeps_its_unpunctuated_lines() -> None:
    doc = _doc("short_notice.html")
    lines = doc.text.splitlines()
    notice = ["お知らせ", "本日は休業です", "急ぎの用件は代表番号へ"]
    notice += ["内線番号：1234", "担当：山田"]
    assert all(line in lines for line in notice)
    for furniture in ("規程集", "会議室予約", "サイトポリシー", "Copyright"):
        assert furniture not in doc.text


@pytest.mark.parametrize(
    "main",
    [
        "<h1>お知らせ</h1><p>本日は休業です</p>",
        "<h1>連絡先</h1><p>内線番号：1234</p><p>担当：山田</p>",
        '<div class="ttl"><h1>お知らせ</h1></div><div class="txt"><p>本日は休業です</p></div>',
    ],
)
def test_short_main_paragraphs_between_menu_and_footer_are_kept(main: str) -> None:
    menu = "".join(f'<li><a href="/m{i}">メニュー項目{i}</a></li>' for i in range(8))
    page = (
        f'<html><body><ul id="menu">{menu}</ul><div id="main">{main}</div>'
        '<div id="footer"><a href="/policy">サイトポリシー</a> Copyright 2005</div>'
        '<p class="pagetop"><a href="#top">ページの先頭へ</a></p></body></html>'
    )
    text = extract(page, URL).text
    expected = [line for line in re.split(r"<[^>]+>", main) if line]
    assert text.splitlines() == expected


def test_long_article_does_not_take_in_short_lines_around_it() -> None:
    body = "".join(
        f"<p>第{i}段落では新しい勤怠管理システムへの移行手順を詳しく説明しています。</p>"
        for i in range(6)
    )
    page = (
        "<html><body><div>お気に入りに追加</div>"
        f'<div id="main"><h1>勤怠管理システムの移行</h1>{body}</div>'
        "<div>このページを印刷する</div></body></html>"
    )
    text = extract(page, URL).text
    assert "第5段落" in text
    assert "お気に入りに追加" not in text
    assert "このページを印刷する" not in text


def _main_lines(name: str) -> list[str]:
    """The fixture's ``div#main`` text, one line per heading, paragraph or list item."""
    page = lxml_html.fromstring((FIXTURES / name).read_bytes())
    main = next(page.iterfind(".//div[@id='main']"))
    blocks = main.iter("h1", "p", "li")
    return [
        " ".join(etree.tostring(b, method="text", encoding="unicode", with_tail=False).split())
        for b in blocks
    ]


@pytest.mark.parametrize(
    "name", ["short_list_page.html", "staff_list_en.html", "heading_and_paragraph.html"]
)
def test_short_page_keeps_heading_short_list_items_and_every_paragraph(name: str) -> None:
    expected = _main_lines(name)
    assert len(expected) >= 2
    lines = _doc(name).text.splitlines()
    assert [" ".join(line.split()) for line in lines] == expected
