"""Extraction profiles: ``search`` keeps what a search needs, ``precision`` the article."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli import main
from indexer.errors import ConfigError
from indexer.extract import extract, extract_page
from indexer.extract.profile import Profile
from indexer.extract.template import MemoryTemplateStore, TemplateLearner, TemplateParams
from indexer.settings import load_settings

URL = "http://127.0.0.1/docs/page.html"
MENU = (
    '<div id="menu"><ul><li><a href="/">トップ</a></li><li><a href="/a">製品</a></li>'
    '<li><a href="/b">サポート</a></li></ul></div>'
)
NOTICE = (
    '<div class="note"><p>ご注意: このページへのご意見は、改善の提案としてお寄せください。'
    "質問への回答はいたしません。回答が必要な場合は窓口へどうぞ。</p></div>"
)


def _sitemap() -> str:
    sections = "".join(
        f"<h2>第{n}章 設定の手引き</h2><ul>"
        + "".join(
            f'<li><a href="/docs/{n}-{i}.html">設定項目{n}の{i}番目の説明</a></li>'
            for i in range(8)
        )
        + "</ul>"
        for n in range(4)
    )
    return (
        "<html><head><title>サイトマップ - 製品マニュアル</title></head><body>"
        f'{MENU}<div id="content"><h1>サイトマップ</h1><p>文書の一覧です</p>{sections}</div>'
        f"{NOTICE}</body></html>"
    )


def test_unknown_profile_is_refused_with_the_setting_named() -> None:
    with pytest.raises(ConfigError, match=r"extract\.profile"):
        extract("<p>本文</p>", URL, profile="recall")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"extract\.profile"):
        load_settings(None, {"extract.profile": "recall"}, environ={})
    assert load_settings(None, {}, environ={}).settings.extract.profile == "search"


@pytest.mark.parametrize("profile", ["search", "precision"])
def test_link_list_page_keeps_its_anchor_texts(profile: Profile) -> None:
    text = extract(_sitemap(), URL, profile=profile).text
    for n in range(4):
        assert f"第{n}章 設定の手引き" in text
        assert all(f"設定項目{n}の{i}番目の説明" in text for i in range(8))
    assert "製品" not in text.splitlines()  # the menu is not the page's list
    assert "トップ" not in text


def _article(tail: str) -> str:
    prose = "".join(
        f"<p>第{n}段落です。申請書の電子化によって、承認までの日数が半分になりました。"
        "紙の書類を回覧する手間もなくなり、担当者の負担が大きく減っています。</p>"
        for n in range(5)
    )
    return (
        "<html><head><title>業務改善の報告</title></head><body>"
        f'{MENU}<div id="main"><h1>業務改善の報告</h1>{prose}{tail}</div></body></html>'
    )


def test_data_table_with_links_and_code_are_kept_in_the_search_profile() -> None:
    rows = "".join(
        f'<tr><td><a href="/f/{n}">様式{n}号</a></td><td><a href="/f/{n}.pdf">PDF</a></td></tr>'
        for n in range(6)
    )
    tail = (
        f"<table><tr><th>様式</th><th>ファイル</th></tr>{rows}</table>"
        "<pre>$ submit --form 3\nsubmitted: 3</pre>"
        "<dl><dt>承認者</dt><dd>課長</dd></dl>"
    )
    search = extract(_article(tail), URL, profile="search").text
    assert "様式 ファイル" in search  # header cells in reading order, one row a line
    assert all(f"様式{n}号 PDF" in search for n in range(6))
    assert "$ submit --form 3" in search and "承認者" in search and "課長" in search
    assert "第4段落です" in search


def test_related_links_after_an_article_stay_out_in_both_profiles() -> None:
    related = "".join(
        f'<li><a href="/news/{n}">別の記事の見出しその{n}について</a></li>' for n in range(8)
    )
    page = _article(f"<h3>関連記事</h3><ul>{related}</ul>")
    for profile in ("search", "precision"):
        text = extract(page, URL, profile=profile).text  # type: ignore[arg-type]
        assert "第0段落です" in text and "第4段落です" in text
        assert "別の記事の見出しその3について" not in text


def test_repeated_sibling_paragraphs_stay_and_gallery_captions_go() -> None:
    para = "<p>同じ注意書きを繰り返します。作業の前には必ず電源を切り、安全を確かめてください。" * 1
    body = "".join(
        f"{para}</p><p>第{n}の手順を説明します。部品を外し、清掃してから戻します。</p>"
        for n in range(3)
    )
    slides = "".join(
        '<div class="slide"><div class="cap">写真: 工場の新しい組立ラインを上から写したところ、'
        "作業者が部品を並べ、検査係が出来上がった製品を一つずつ確かめている午前中の様子です。"
        "奥には出荷を待つ箱が積まれています。</div></div>"
        for _ in range(3)
    )
    page = f"<html><body><article><h1>手順</h1>{body}{slides}</article></body></html>"
    text = extract(page, URL, profile="precision").text
    assert text.count("同じ注意書きを繰り返します") == 3
    assert text.count("工場の新しい組立ライン") == 1


def _learnt(titles: list[str]) -> TemplateLearner:
    learner = TemplateLearner(MemoryTemplateStore(), TemplateParams(min_pages=3))
    for n, title in enumerate(titles):
        head = f"<html><head><title>{title}</title></head>"
        page = f"{head}<body>{MENU}<p>本文{n}です。</p></body></html>"
        learner.observe("h", extract_page(page, URL, learn=True).keys)
    return learner


def test_title_loses_the_site_part_the_host_repeats_and_title_full_keeps_it() -> None:
    titles = [f"文書{n}の題 - さくら製作所 社内ポータル" for n in range(6)]
    template = _learnt(titles).template("h")
    assert template.known
    page = f"<html><head><title>{titles[2]}</title></head><body><p>本文です。</p></body></html>"
    doc = extract_page(page, URL, template=template).doc
    assert doc.title == "文書2の題"
    assert doc.title_full == titles[2]
    alone = extract(page, URL)  # one page cannot tell which part is the site's
    assert alone.title == alone.title_full == titles[2]


def test_pre_keeps_its_line_breaks() -> None:
    tail = "<pre>$ ./configure\n$ make\n$ make install</pre>"
    text = extract(_article(tail), URL, profile="search").text
    assert "$ ./configure\n$ make\n$ make install" in text


def test_extract_command_takes_the_profile_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(_article("<figure><figcaption>図1 申請の流れ</figcaption></figure>"))
    texts = {}
    for profile in ("search", "precision"):
        assert main(["extract", "--profile", profile, str(page)]) == 0
        texts[profile] = json.loads(capsys.readouterr().out)["text"]
    assert "図1 申請の流れ" in texts["search"] and texts["search"].startswith("業務改善の報告")
    assert "図1 申請の流れ" not in texts["precision"]  # the article: no caption, no title
    assert texts["precision"].startswith("第0段落です")
    with pytest.raises(SystemExit):
        main(["extract", "--profile", "recall", str(page)])


def test_a_section_whose_id_is_its_headings_slug_is_not_furniture() -> None:
    ids = ["getting-started-with-the-team", "sharing-work-with-the-team", "sharing-it-all-again"]
    sections = "".join(
        f'<div class="section" id="{id_}"><h2>Part {n}</h2>'
        f"<p>Section {n} explains how a team shares its work, step by step, with examples."
        " Each step is described in full sentences here.</p></div>"
        for n, id_ in enumerate(ids)
    )
    page = f"<html><head><title>Team work</title></head><body><div>{sections}</div></body></html>"
    text = extract(page, URL, profile="precision").text
    assert all(f"Section {n} explains" in text for n in range(3))


@pytest.mark.parametrize("heading", ["索引", "目次", "用語集"])
@pytest.mark.parametrize("wrapper", ["main", "div"])
def test_a_short_japanese_heading_anchors_its_link_index(heading: str, wrapper: str) -> None:
    """An index page whose heading is two or three kanji (a whole Japanese heading) keeps
    its entries in both profiles, inside <main> or not."""
    items = "".join(f'<li><a href="/t{i}.html">項目{i}の説明ページ</a></li>' for i in range(30))
    html = (
        f"<html><head><title>{heading} - 社内手順書</title></head><body>"
        '<nav><a href="/">ホーム</a> <a href="/about">概要</a></nav>'
        f"<{wrapper}><h1>{heading}</h1><ul>{items}</ul></{wrapper}></body></html>"
    )
    for profile in ("search", "precision"):
        text = extract(html, "http://127.0.0.1/index.html", profile=profile).text
        assert "項目0の説明ページ" in text and "項目29の説明ページ" in text, (profile, text)
