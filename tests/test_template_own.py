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


def _learnt(site: Site) -> SiteTemplate:
    learner = TemplateLearner(MemoryTemplateStore())
    for html in site.pages.values():
        learner.observe("h", extract_page(html, URL, learn=True).keys)
    template = learner.template("h")
    assert template.known
    return template


def _texts(site: Site, profile: str = "search") -> dict[str, list[str]]:
    template = _learnt(site)
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
@pytest.mark.parametrize("profile", ["search", "precision"])
def test_a_heading_differing_only_in_its_number_is_the_page_s_own(
    tag: str, count: int, word: str, profile: str
) -> None:
    site = numbered_headings(tag, count, word)
    for path, lines in _texts(site, profile).items():
        assert site.own[path][0] in lines, path
        assert site.own[path][1] in lines, path
        assert FOOT not in lines and MENU[2] not in lines, path
