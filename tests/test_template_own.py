"""A page's own heading, data table and listing survive template learning: headings
that differ from their siblings' only in a number, a spec table's rows shared with some
other pages, an index page whose entries are links to the host's pages."""

from __future__ import annotations

import random

import pytest

from indexer.extract import extract_page
from indexer.extract.template import MemoryTemplateStore, SiteTemplate, TemplateLearner
from tests.template_sites import Site

URL = "http://127.0.0.1/"
FOOT = "お問い合わせは総務課まで。このサイトの内容の無断転載を禁じます。"
MENU = ("ホーム", "組織案内", "事業紹介", "採用情報", "アクセス", "お知らせ一覧")


def _frame(title: str, main: str, site: str = "北町資料館") -> str:
    menu = "".join(f'<li><a href="/m{k}.html">{m}</a></li>' for k, m in enumerate(MENU))
    return (
        f'<html><head><meta charset="utf-8"><title>{title} - {site}</title></head><body>'
        f'<div id="head"><a href="/">{site}</a></div><div id="nav"><ul>{menu}</ul></div>'
        f'<div id="main">{main}</div><div id="foot"><p>{FOOT}</p></div></body></html>'
    )


def _learnt(site: Site, runs: int = 1) -> SiteTemplate:
    learner = TemplateLearner(MemoryTemplateStore())
    for html in [*site.pages.values()] * runs:  # a reindex job counts every page again
        learner.observe("h", extract_page(html, URL, learn=True).keys)
    template = learner.template("h")
    assert template.known
    return template


def _texts(site: Site, profile: str = "search", runs: int = 1) -> dict[str, list[str]]:
    template = _learnt(site, runs)
    return {
        path: extract_page(
            site.pages[path], URL + path, template=template, profile=profile
        ).doc.text.split("\n")
        for path in site.own
    }


def numbered_headings(tag: str, count: int, word: str, seed: int = 5) -> Site:
    """Pages whose heading is one word and the page's number ("第7条規程"), with a
    paragraph of their own."""
    rnd, site = random.Random(seed), Site()
    subjects = ("備品", "会計", "文書", "施設", "人事", "安全", "広報", "情報")
    for n in range(1, count + 1):
        heading = word.format(n=n)
        first, second = rnd.sample(subjects, 2)
        para = f"{first}の取り扱いは、担当係が{second}と調整して決めます。"
        main = f"<{tag}>{heading}</{tag}><p>{para}</p>"
        path = f"/p{n}.html"
        # A heading tag under a title of the site's section; a plain block repeating the
        # page's <title>.
        site.pages[path] = _frame(heading if tag == "div" else "規程集", main)
        site.own[path] = [heading, para]
    return site


@pytest.mark.parametrize(
    ("tag", "count", "word"),
    [("h1", 12, "第{n}条規程"), ("h2", 14, "Week {n} bulletin"), ("h3", 9, "{n}号 会報"),
     ("div", 12, "第{n}回 定例報告")],  # div: the block that repeats the <title>
)  # fmt: skip
@pytest.mark.parametrize(("profile", "runs"), [("search", 1), ("precision", 1), ("search", 3)])
def test_a_heading_differing_only_in_its_number_is_the_page_s_own(
    tag: str, count: int, word: str, profile: str, runs: int
) -> None:
    site = numbered_headings(tag, count, word)
    for path, lines in _texts(site, profile, runs).items():
        assert site.own[path][0] in lines, path
        assert site.own[path][1] in lines, path
        assert FOOT not in lines and MENU[2] not in lines, path


COLOURS = ("黒", "白", "青")
PAPERS = ("A4・はがき", "B5・A4", "はがき・封筒")
GOODS = (
    "インクジェット複合機", "レーザープリンター", "フォトプリンター", "ラベルプリンター",
    "モバイルプリンター", "大判プリンター", "ドットインパクトプリンター", "カードプリンター",
    "感熱プリンター", "コピー機", "スキャナー", "ファクス",
)  # fmt: skip


def spec_tables(seed: int = 9, *, head: bool = True) -> Site:
    """Product pages with a spec table: an optional header row on every page, rows shared
    with many other products (a colour, a paper size: each value on a third to a half of
    the pages), one in the middle, and rows of the product's own after them."""
    rnd, site = random.Random(seed), Site()
    for i, name in enumerate(GOODS):
        rows = [
            ("型番", f"PX-{rnd.randint(100, 999)}{chr(65 + i)}"),
            ("カラー", COLOURS[i % 3]),
            ("対応用紙", PAPERS[i % 2]),
            ("本体寸法", f"幅{rnd.randint(200, 600)}×奥行{rnd.randint(200, 500)}mm"),
            ("特長", f"{name}は{rnd.choice(('静音', '省電力', '高速'))}設計の{i + 3}年保証品"),
        ]
        cells = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        top = "<tr><th>項目</th><th>仕様</th></tr>" if head else ""
        desc = f"{name}の仕様を下の表にまとめました。"
        main = f"<h1>{name}</h1><p>{desc}</p><table class='spec'>{top}{cells}</table>"
        path = f"/g{i}.html"
        site.pages[path] = _frame(name, main)
        site.own[path] = [*(["項目 仕様"] if head else []), *(f"{k} {v}" for k, v in rows)]
    return site


@pytest.mark.parametrize("head", [True, False])
@pytest.mark.parametrize("profile", ["search", "precision"])
def test_a_spec_table_keeps_its_rows_shared_with_other_pages_in_order(
    head: bool, profile: str
) -> None:
    site = spec_tables(head=head)
    for path, lines in _texts(site, profile).items():
        rows = [line for line in lines if line in site.own[path]]
        assert rows == site.own[path], path  # every row, in the table's order
        assert FOOT not in lines and MENU[2] not in lines, path


def portal(count: int = 36, *, main: str = "main", seed: int = 11) -> Site:
    """Article pages (a heading naming the page, paragraphs of their own) and a portal
    page whose ``<main>`` is a list of links to every article, by their headings; the
    site's menu links other pages."""
    rnd, site = random.Random(seed), Site()
    places = ("東公園", "北図書館", "市民会館", "旧駅舎", "中央市場", "西の丘", "港の倉庫")
    acts = ("改修工事", "利用案内", "歴史", "催し物", "見学会")
    names = [f"{places[k % 7]}の{acts[k % 5]}（{k // 35 + 1}）" for k in range(count)]
    for k, name in enumerate(names):
        paras = [
            f"{name}について、担当の{rnd.choice(('山本', '中村', '小林'))}さんに話を聞きました。",
            f"今年は{rnd.randint(2, 40)}件の問い合わせがあり、対応を進めています。",
        ]
        body = f"<h1>{name}</h1>" + "".join(f"<p>{p}</p>" for p in paras)
        site.pages[f"/a{k}.html"] = _frame(name, body)
    links = "".join(f'<li><a href="/a{k}.html">{n}</a></li>' for k, n in enumerate(names))
    frame = _frame("記事の一覧", f"<h1>記事の一覧</h1><ul>{links}</ul>")
    site.pages["/index.html"] = frame.replace('<div id="main">', f"<{main}>", 1).replace(
        "</ul></div><div id='foot'>".replace("'", '"'), f'</ul></{main}><div id="foot">', 1
    )
    site.own["/index.html"] = names
    return site


@pytest.mark.parametrize("main", ["main", "div"])
@pytest.mark.parametrize("profile", ["search", "precision"])
def test_a_portal_page_keeps_its_links_to_the_host_s_pages(main: str, profile: str) -> None:
    site = portal(main=main)
    path = "/index.html"
    alone = extract_page(site.pages[path], URL + path, profile=profile).doc.text.split("\n")
    lines = _texts(site, profile)[path]
    kept = [name for name in site.own[path] if name in alone]
    assert len(kept) >= len(site.own[path]) * 0.9  # the chain alone keeps the entries
    assert [name for name in site.own[path] if name in lines] == kept
    assert FOOT not in lines and MENU[2] not in lines
