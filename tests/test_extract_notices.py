"""Short boilerplate by kind (:mod:`indexer.extract.extras`): on made-up sites of several
markups, languages and positions, the notice, dateline, teaser, news column or sidebar
list is out of the text and the page's own text is in, in both profiles."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.profile import PROFILES

URL = "http://intra.example/section/page.html"

JA = (
    "社内の経費精算は月末の第三営業日までに申請してください。申請には領収書の写しと上長の承認が必要です。",
    "出張の旅費は出発の一週間前までに仮払いを申請できます。精算は帰着後十日以内に行ってください。",
    "不明な点は総務部の経理担当までお問い合わせください。内線番号は社内電話帳に載っています。",
)
EN = (
    "The new expense form halved the days an approval takes, and nobody carries paper "
    "from desk to desk any more.",
    "Travel advances can be asked for a week before departure; the claim is due ten days "
    "after the return.",
    "Questions go to the accounts desk of the general affairs office, whose number is in "
    "the phone book.",
)


def _paragraphs(lines: tuple[str, ...], tag: str = "p") -> str:
    return "".join(f"<{tag}>{line}</{tag}>" for line in lines)


def _texts(html: str) -> dict[str, str]:
    return {profile: extract(html, URL, profile=profile).text for profile in PROFILES}


def _check(html: str, own: tuple[str, ...], gone: str) -> None:
    for profile, text in _texts(html).items():
        assert gone not in text, (profile, text)
        for line in own:
            assert line in text, (profile, line, text)


# --- copyright and "no reproduction" notices ---------------------------------------------

COPYRIGHT_SITES = {
    # an old intranet page: layout table, the notice in a row of its own, in <font>
    "ja-table-row": (
        "<html><head><title>経費精算の手引き</title></head><body><table width=600>"
        "<tr><td><h1>経費精算の手引き</h1>{own}</td></tr>"
        "<tr><td align=center><font size=2>{notice}</font></td></tr></table></body></html>",
        JA,
        "Copyright (C) 2019 総務部 このページの内容の無断転載を禁じます。",
    ),
    # a blog entry: the notice closes the entry body, marked with ※
    "ja-entry-end": (
        "<html><head><title>出張の精算</title></head><body><div id='main'><div class='entry'>"
        "<h2>出張の精算</h2><div class='entry-body'>{own}<p>{notice}</p></div></div>"
        "</div><div id='side'><a href='/a'>月別</a></div></body></html>",
        JA,
        "※掲載記事・写真の無断転載、複製を固くお断りします。",
    ),
    # a CMS article: the notice in a post footer box (a content word: not furniture)
    "en-post-footer": (
        "<html><head><title>Expense form</title></head><body><article><h1>Expense form</h1>"
        "{own}<div class='post-footer'><p>{notice}</p></div></article></body></html>",
        EN,
        "© 2021 Facilities. No part of this page may be reproduced without permission.",
    ),
    # a news page: the copyright line right under the headline, before the text
    "en-under-title": (
        "<html><head><title>Travel advances</title></head><body><div class='story'>"
        "<h1>Travel advances</h1><p class='meta'>{notice}</p>{own}</div></body></html>",
        EN,
        "Copyright 2020 Example Inc. All rights reserved.",
    ),
}


# --- "for authorized employees only" and other access warnings -----------------------------

ACCESS_SITES = {
    "en-banner-top": (
        "<html><head><title>Payroll calendar</title></head><body><div class='content'>"
        "<h1>Payroll calendar</h1><div class='alert'>{notice}</div>{own}</div></body></html>",
        EN,
        "For authorized employees only. Unauthorized access is prohibited.",
    ),
    "ja-under-title": (
        "<html><head><title>経費精算</title></head><body><div><h1>経費精算</h1>"
        "<p>{notice}</p>{own}</div></body></html>",
        JA,
        "※このページは社員専用です。関係者以外の閲覧を禁じます。",
    ),
    "ja-caution-box-end": (
        "<html><head><title>旅費規程</title></head><body><table><tr><td>"
        "<h2>旅費規程</h2>{own}<div class='caution'>{notice}</div></td></tr></table>"
        "</body></html>",
        JA,
        "【社外秘】本資料の社外への持ち出しを禁止します。",
    ),
    "en-small-trailer": (
        "<html><head><title>Travel</title></head><body><main><h2>Travel</h2>{own}"
        "<p><small>{notice}</small></p></main></body></html>",
        EN,
        "Internal use only - do not distribute.",
    ),
}

# Every kind's sites: (kind, site) -> (page template, the page's own lines, the line that
# must be out); the template's {own} is the own lines as paragraphs, {notice} the line.
CASES = {
    **{("copyright", site): case for site, case in COPYRIGHT_SITES.items()},
    **{("access", site): case for site, case in ACCESS_SITES.items()},
}


@pytest.mark.parametrize(("kind", "site"), sorted(CASES))
def test_the_kind_is_out_and_the_text_in(kind: str, site: str) -> None:
    template, own, gone = CASES[kind, site]
    _check(template.format(own=_paragraphs(own), notice=gone), own, gone)


def test_a_sentence_about_copyright_inside_an_article_stays() -> None:
    middle = "記事の無断転載は著作権の侵害にあたります。"
    own = (JA[0], middle, JA[1], JA[2])
    html = (
        "<html><head><title>著作権の基礎</title></head><body><div><h1>著作権の基礎</h1>"
        f"{_paragraphs(own)}</div></body></html>"
    )
    _check(html, own, "nothing-dropped")


def test_a_page_that_is_its_notice_keeps_it() -> None:
    notice = "当サイトに掲載された記事・写真の無断転載を禁じます。"
    html = (
        "<html><head><title>サイトポリシー</title></head><body><div><h1>サイトポリシー</h1>"
        f"<p>{notice}</p></div></body></html>"
    )
    for text in _texts(html).values():
        assert notice in text
