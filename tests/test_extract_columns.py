"""Other pages' text beside this one's, by kind (:mod:`indexer.extract.columns`, and the
block scoring for sidebars): on made-up sites a teaser of another entry, a news column of
a table layout and a sidebar's comma-separated list of systems are out of the text, in
both profiles; the page's own text stays, and so do a news archive, a chronology inside an
article and a paragraph that links to more without being cut short."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.profile import PROFILES

URL = "http://intra.example/notice/42.html"

EN = (
    "The new timesheet system opens to every department on the first of next month, and "
    "team leads should attend one of the briefings before then.",
    "During the changeover the old system stays readable, but new requests are accepted "
    "only through the new one, so drafts should be finished this week.",
    "Questions go to the help desk, whose extension is listed in the staff directory; "
    "answers to common ones are collected on the project page.",
)
JA = (
    "新しい勤怠管理システムは来月一日から全社で利用を開始します。各部署の担当者は事前説明会に参加してください。",
    "移行期間中は旧システムも参照できますが、新たな申請は新システムからのみ受け付けます。作成中の申請は今週中に済ませてください。",
    "不明な点があればヘルプデスクまでお問い合わせください。内線番号は社内名簿に記載されています。",
)


def _own(lines: tuple[str, ...]) -> str:
    return "".join(f"<p>{line}</p>" for line in lines)


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def _texts(html: str) -> dict[str, str]:
    """``{profile: extracted text}`` of ``html`` in every profile."""
    return {profile: extract(html, URL, profile=profile).text for profile in PROFILES}


# name: (page with {own}, the page's own lines, lines that are not its text)
SITES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    # a blog: the next entry's start under the entry, "Read more »"
    "en-blog-next": (
        _page(
            "Timesheets",
            "<div id='content'><h1>Timesheet move</h1>{own}<div class='next'>"
            "<h3>Parking permits renewed</h3><p>All parking permits for the north lot were "
            "renewed this week, and the new stickers are... <a href='/p'>Read more »</a>"
            "</p></div></div>",
        ),
        EN,
        ("Parking permits renewed", "All parking permits for the north lot"),
    ),
    # a news site: a related story cut with an ellipsis character, "Continue reading"
    "en-news-related": (
        _page(
            "Timesheets",
            "<article><h1>Timesheet move</h1>{own}<section><h2>Canteen hours change</h2>"
            "<p>From Monday the canteen opens at seven and closes an hour later than "
            "before, which the works council asked for… "
            "<a href='/c'>Continue reading</a></p></section></article>",
        ),
        EN,
        ("Canteen hours change", "From Monday the canteen opens"),
    ),
    # a Japanese intranet blog: 続きを読む after the next entry's opening
    "ja-blog-next": (
        _page(
            "勤怠システム",
            "<div class='entry'><h1>勤怠システム移行</h1>{own}<div class='entry-next'>"
            "<h3>駐車場の利用許可を更新しました</h3><p>北側駐車場の利用許可証は今週すべて"
            "更新され、新しいステッカーは総務課で配布して…<a href='/p2'>続きを読む</a>"
            "</p></div></div>",
        ),
        JA,
        ("駐車場の利用許可を更新しました", "北側駐車場の利用許可証"),
    ),
    # a blog theme: the next entry's opening, then the more link in a paragraph of its own
    "ja-blog-more-own-p": (
        _page(
            "勤怠システム",
            "<div class='post'><h1>勤怠システム移行</h1>{own}<div class='next-post'>"
            "<h3>社員食堂のメニューが新しくなります</h3><p>来週から社員食堂では季節の定食が加わり、"
            "価格の見直しも行われる予定で…</p><p><a href='/p3'>もっと見る</a></p></div></div>",
        ),
        JA,
        ("社員食堂のメニューが新しくなります", "来週から社員食堂では", "もっと見る"),
    ),
    "en-news-continue": (
        _page(
            "Timesheets",
            "<article><h1>Timesheet move</h1>{own}<div class='related'>"
            "<h3>Lift maintenance on Friday</h3><p>Both lifts in building B will be out of "
            "service on Friday morning while the contractor replaces the cables and... "
            "<a href='/l'>Continue »</a></p></div></article>",
        ),
        EN,
        ("Lift maintenance on Friday", "Both lifts in building B"),
    ),
    "ja-notice-shosai": (
        _page(
            "勤怠システム",
            "<div id='main'><h1>勤怠システム移行</h1>{own}<div class='pickup'>"
            "<h4>健康診断の予約受付を開始しました</h4><p>今年度の定期健康診断は六月から実施し、"
            "予約は社内ポータルから受け付けて…<a href='/k'>詳しくはこちら</a></p></div></div>",
        ),
        JA,
        ("健康診断の予約受付を開始しました", "今年度の定期健康診断"),
    ),
    "en-blog-read-on-own-p": (
        _page(
            "Timesheets",
            "<div class='entry'><h1>Timesheet move</h1>{own}<div class='entry'>"
            "<h2>Printer fleet replaced</h2><p>Every floor gets two new printers next week, "
            "and the old ones will be collected by facilities over the…</p>"
            "<p><a href='/pr'>Read on</a></p></div></div>",
        ),
        EN,
        ("Printer fleet replaced", "Every floor gets two new printers", "Read on"),
    ),
    # a table layout: a right-hand column of dated headlines under 新着情報
    "ja-table-news": (
        _page(
            "勤怠システム",
            "<table><tr><td width='70%'><h1>勤怠システム移行</h1>{own}</td>"
            "<td width='30%'><b>新着情報</b><br>2024.05.01 社内報5月号を掲載しました<br>"
            "2024.04.20 健康診断の日程を更新<br>2024.04.10 食堂メニュー変更のお知らせ<br>"
            "2024.04.01 新入社員紹介ページ公開</td></tr></table>",
        ),
        JA,
        ("社内報5月号を掲載しました", "食堂メニュー変更のお知らせ", "新着情報"),
    ),
    # a table layout: the news column as a list of links, dates in brackets
    "ja-table-news-list": (
        _page(
            "勤怠システム",
            "<table><tr><td><h3>お知らせ</h3><ul>"
            "<li>[2024/05/07] <a href='/n1'>システム停止のお知らせ</a></li>"
            "<li>[2024/04/25] <a href='/n2'>連休中の窓口について</a></li>"
            "<li>[2024/04/12] <a href='/n3'>名刺発注方法の変更</a></li>"
            "<li>[2024/04/02] <a href='/n4'>新年度の組織図を掲載</a></li>"
            "</ul></td><td><h1>勤怠システム移行</h1>{own}</td></tr></table>",
        ),
        JA,
        ("システム停止のお知らせ", "連休中の窓口について"),
    ),
    # an old public-office layout: the news column dated in the Japanese era (R6.5.8)
    "ja-table-news-era": (
        _page(
            "勤怠システム",
            "<table><tr><td><h1>勤怠システム移行</h1>{own}</td><td><font size='2'>"
            "<b>更新履歴</b><br>R6.5.8 窓口受付時間の変更<br>R6.4.2 申請様式を更新しました"
            "<br>R6.4.1 組織改編のお知らせ<br>H31.4.1 ホームページを開設</font></td>"
            "</tr></table>",
        ),
        JA,
        ("窓口受付時間の変更", "組織改編のお知らせ", "ホームページを開設"),
    ),
    "ja-table-news-era-kanji": (
        _page(
            "勤怠システム",
            "<table><tr><td><h1>勤怠システム移行</h1>{own}</td><td><b>新着情報</b><br>"
            "令和6年5月8日 夏季休業のお知らせを掲載<br>令和6年4月15日 防災訓練の日程を更新<br>"
            "令和6年4月1日 新年度の組織図を掲載しました<br>令和6年3月1日 食堂メニュー変更のお知らせ"
            "</td></tr></table>",
        ),
        JA,
        ("夏季休業のお知らせを掲載", "防災訓練の日程を更新", "新着情報"),
    ),
    # an English intranet: a "What's new" column beside the article
    "en-table-news": (
        _page(
            "Timesheets",
            "<table><tr><td><h1>Timesheet move</h1>{own}</td><td><p>What's new</p>"
            "<p>May 2, 2024 - Staff newsletter for May</p>"
            "<p>Apr 18, 2024 - Health checks rescheduled</p>"
            "<p>Apr 9, 2024 - New canteen menu</p></td></tr></table>",
        ),
        EN,
        ("Staff newsletter for May", "Health checks rescheduled"),
    ),
    # a product help page: the supported systems in a sidebar cell
    "ja-os-sidebar": (
        _page(
            "勤怠システム",
            "<table><tr><td class='side'><h3>対応環境</h3><p>Windows 10, Windows 11, "
            "macOS 13, macOS 14, iOS 17, Android 14</p><p>Chrome, Edge, Firefox, Safari</p>"
            "</td><td><h1>勤怠システム移行</h1>{own}</td></tr></table>",
        ),
        JA,
        ("Windows 10, Windows 11", "Chrome, Edge"),
    ),
    "en-os-aside": (
        _page(
            "Timesheets",
            "<main><h1>Timesheet move</h1>{own}</main><aside><h4>Supported</h4><p>Windows "
            "10, Windows 11, macOS 14, Ubuntu 22.04, Ubuntu 24.04</p></aside>",
        ),
        EN,
        ("Windows 10, Windows 11", "Ubuntu 22.04"),
    ),
}


@pytest.mark.parametrize("site", sorted(SITES))
def test_other_pages_text_is_out(site: str) -> None:
    page, own, gone = SITES[site]
    html = page.format(own=_own(own))
    for profile, text in _texts(html).items():
        for line in gone:
            assert line not in text, (profile, line, text)
        for line in own:
            assert line in text, (profile, line)


def test_a_news_archive_keeps_its_headlines() -> None:
    """A page that is the list of news keeps it: the list is its content."""
    items = [
        ("2024.05.01", "社内報5月号を掲載しました"),
        ("2024.04.20", "健康診断の日程を更新しました"),
        ("2024.04.10", "食堂メニュー変更のお知らせ"),
        ("2024.04.01", "新入社員紹介ページを公開しました"),
        ("2024.03.15", "年度末の経費精算の締め切りについて"),
    ]
    rows = "".join(f"<li>{d} <a href='/n{i}'>{t}</a></li>" for i, (d, t) in enumerate(items))
    html = _page("お知らせ一覧", f"<main><h1>お知らせ一覧</h1><ul>{rows}</ul></main>")
    for profile, text in _texts(html).items():
        assert all(title in text for _, title in items), (profile, text)


def test_a_chronology_inside_an_article_stays() -> None:
    """Dated lines between the article's paragraphs are the article's (its history)."""
    history = "2001年4月 本社を移転\n2008年10月 大阪支社を開設\n2015年7月 品質認証を取得"
    html = _page(
        "沿革",
        f"<article><h1>会社の歩み</h1>{_own(JA[:2])}<p>{history.replace(chr(10), '<br>')}"
        f"</p>{_own(JA[2:])}</article>",
    )
    for profile, text in _texts(html).items():
        assert "大阪支社を開設" in text, (profile, text)


def test_a_paragraph_linking_to_more_without_being_cut_stays() -> None:
    """A whole sentence followed by a more link is the page's own paragraph."""
    line = "The briefing slides and the recording are on the project page. Read more"
    html = _page(
        "Timesheets",
        f"<article><h1>Timesheet move</h1>{_own(EN)}"
        "<p>The briefing slides and the recording are on the project page. "
        "<a href='/more'>Read more</a></p></article>",
    )
    for profile, text in _texts(html).items():
        assert line in text, profile


OWN_TEXT = {
    # a paragraph folded behind 続きを読む (a script link) is the article's
    "folded-paragraph": _page(
        "経費精算",
        f"<article><h1>経費精算ルール</h1>{_own(JA[:2])}<p>特に注意していただきたいのは、"
        "タクシー利用の扱いです。深夜の帰宅など、やむを得ない場合に限り…"
        "<a href='#'>続きを読む</a></p></article>",
    ),
    # the article's own last section, cut with a link to its full version
    "own-last-section": _page(
        "賞与",
        f"<article><h1>人事からのお知らせ</h1>{_own(JA)}<h2>賞与について</h2>"
        "<p>今年度の賞与は業績に応じて決定され、支給は六月の予定です…"
        "<a href='/hr/bonus'>続きを読む</a></p></article>",
    ),
    # a schedule under the article's prose
    "schedule": _page(
        "Training",
        f"<main><h1>Spring training</h1>{_own(EN[:2])}<h2>Schedule</h2>"
        "<p>May 7 Company history<br>May 14 Work rules<br>May 21 Information security</p>"
        "</main>",
    ),
    # release notes: an intro, then the dated entries
    "changelog": _page(
        "Release notes",
        f"<main><h1>Release notes</h1>{_own(EN[:1])}<ul>"
        "<li>2024-05-08: v2.3 sort search results</li><li>2024-04-20: v2.2 new login</li>"
        "<li>2024-03-11: v2.1 bigger attachments</li></ul></main>",
    ),
}
KEPT = {
    "folded-paragraph": "タクシー利用の扱いです",
    "own-last-section": "支給は六月の予定です",
    "schedule": "May 14 Work rules",
    "changelog": "v2.2 new login",
}


@pytest.mark.parametrize("name", sorted(OWN_TEXT))
def test_the_pages_own_dated_or_folded_text_stays(name: str) -> None:
    """Found by an attack: dated lines and folded paragraphs that are the page's own."""
    for profile, text in _texts(OWN_TEXT[name]).items():
        assert KEPT[name] in text, (profile, text)


# --- a box of related entries, named by its heading's class --------------------------------

_EXCERPT_EN = (
    "<div class='card'><h4><a href='/e/1'>{title}</a></h4><p>The facilities team explains "
    "in this entry how the {title} works, who to ask about it and what changes for visitors "
    "and staff this year, with the dates of every step.</p></div>"
)
_EXCERPT_JA = (
    "<div class='card'><h4><a href='/e/2'>{title}</a></h4><p>この記事では{title}の仕組みと"
    "問い合わせ先、今年度から変わる点について、各段階の日程とあわせて総務部がくわしく説明します。</p></div>"
)
RELATED = {
    "en-wp-related-article": (
        "<article class='post'><h1>Timesheet move</h1>{own}</article><article class='post'>"
        "<h3 class='relatedpoststitle'>You may also like...</h3>{cards}</article>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service", "badge renewal"),
    ),
    "ja-blog-related-div": (
        "<div id='main'><div class='entry'><h1>勤怠システム移行</h1>{own}</div>"
        "<div class='yarpp-related'><h2 class='yarpp-title'>関連記事</h2>{cards}</div></div>",
        JA,
        _EXCERPT_JA,
        ("駐車場の許可証", "食堂の当番表", "入館証の更新"),
    ),
    "en-recommend-section": (
        "<main><h1>Timesheet move</h1>{own}<section><h2 class='recommended-title'>Recommended "
        "for you</h2>{cards}</section></main>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service"),
    ),
    # named by the box's class, its heading plain
    "en-read-next-section": (
        "<main><article><h1>Timesheet move</h1>{own}</article><section class='read-next'>"
        "<h2>Read next</h2>{cards}</section></main>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service", "badge renewal"),
    ),
    "en-popular-posts-widget": (
        "<div id='content'><div class='entry'><h1>Timesheet move</h1>{own}</div>"
        "<div class='widget popular-posts'><h3>Most read</h3>{cards}</div></div>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service"),
    ),
    "en-more-news-after-main": (
        "<div id='page'><main><article><h1>Timesheet move</h1>{own}</article></main>"
        "<div class='more-news'><h2 class='widget-title'>More in Facilities</h2>{cards}</div>"
        "</div>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service"),
    ),
    # named only by the heading's wording
    "en-plain-related-posts": (
        "<div id='content'><div class='entry'><h1>Timesheet move</h1>{own}</div><div>"
        "<h3>Related posts:</h3>{cards}</div></div>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service"),
    ),
    "en-plain-you-might-also-like": (
        "<div class='wrap'><div class='post'><h1>Timesheet move</h1>{own}</div>"
        "<div class='box'><h4>You might also like</h4>{cards}</div></div>",
        EN,
        _EXCERPT_EN,
        ("parking permit", "canteen rota", "lift service"),
    ),
    "ja-plain-osusume": (
        "<div id='main'><div class='entry'><h1>勤怠システム移行</h1>{own}</div><div>"
        "<h2>こちらの記事もおすすめ</h2>{cards}</div></div>",
        JA,
        _EXCERPT_JA,
        ("駐車場の許可証", "食堂の当番表", "入館証の更新"),
    ),
    "ja-plain-awasete": (
        "<div id='main'><article><h1>勤怠システム移行</h1>{own}</article><section>"
        "<h3>あわせて読みたい</h3>{cards}</section></div>",
        JA,
        _EXCERPT_JA,
        ("駐車場の許可証", "食堂の当番表", "入館証の更新"),
    ),
    # a title that is not a heading element
    "ja-div-title": (
        "<div id='main'><div class='entry'><h1>勤怠システム移行</h1>{own}</div>"
        "<div class='related-entry'><div class='related-entry-title'>関連記事</div>{cards}"
        "</div></div>",
        JA,
        _EXCERPT_JA,
        ("駐車場の許可証", "食堂の当番表", "入館証の更新"),
    ),
}


@pytest.mark.parametrize("site", sorted(RELATED))
def test_a_box_of_related_entries_is_out(site: str) -> None:
    template, own, card, titles = RELATED[site]
    cards = "".join(card.format(title=title) for title in titles)
    html = _page("t", template.format(own=_own(own), cards=cards))
    for profile, text in _texts(html).items():
        for line in own:
            assert line in text, (profile, line, text)
        for title in titles:
            assert title not in text, (profile, title, text)


_SECTION = (
    "Earlier studies of timesheet systems measured the time spent on approvals, and "
    "this move follows their advice on briefings before the change."
)


@pytest.mark.parametrize(
    "body",
    [
        # classed related, ending the article's own container
        f"<article><h1>Timesheet move</h1>{_own(EN)}<h2 class='related-work'>Related work"
        f"</h2><p>{_SECTION}</p></article>",
        # worded as a box, but a section of its own with one paragraph (documentation
        # sites wrap each section in its own container)
        f"<div class='body'><h1>Timesheet move</h1><div class='section'>{_own(EN)}</div>"
        f"<div class='section'><h2>Related reading</h2><p>{_SECTION}</p></div></div>",
        f"<div class='body'><h1>Timesheet move</h1><div class='section'>{_own(EN)}</div>"
        f"<div class='section'><h2>More on approvals</h2><p>{_SECTION}</p>"
        f"<p>{_SECTION.replace('Earlier', 'Later')}</p></div></div>",
        # found by an attack: worded like a box, two paragraphs or citations, no links
        f"<main><h1>Travel policy</h1>{_own(EN)}<section><h2>Related</h2><p>{_SECTION}</p>"
        f"<p>{_SECTION.replace('Earlier', 'Later')}</p></section></main>",
        f"<main><h1>Records</h1>{_own(EN)}<section><h2>Recommended reading</h2><ul>"
        f"<li>{_SECTION}</li><li>ISO 15489-1:2016 Records management</li></ul></section></main>",
        # a Sphinx section whose id is its heading's slug
        f"<main><h1>Backup</h1>{_own(EN)}<section id='recommended'><h2>Recommended</h2>"
        f"<p>{_SECTION}</p></section></main>",
        f"<main><h1>Backup</h1>{_own(EN)}<section id='related'><h2>Related</h2><p>{_SECTION}"
        "</p></section><section id='faq'><h2>FAQ</h2><p>Ask the help desk.</p></section></main>",
    ],
)
def test_an_articles_own_related_section_stays(body: str) -> None:
    """A section of the article's own, named or worded like a box of other entries."""
    html = _page("t", body)
    for profile, text in _texts(html).items():
        assert _SECTION in text, profile


_SLUGGED = "<div class='sect1'>{heading}<div class='sectionbody'><p>{{section}}</p></div></div>"
_CLASSED = "<div class='{name}'><h2>Next steps</h2><p>{{section}}</p></div>"


@pytest.mark.parametrize(
    "part",
    [
        *(
            _SLUGGED.format(heading=heading)
            for heading in (
                "<h2 id='_related_work'>Related work</h2>",
                "<h2 id='things-you-may-need'>Things you may need</h2>",
                "<h3 id='q-recommended-browser'>Which browser is recommended?</h3>",
                "<h2 id='investor-relations'>Investor relations</h2>",
                "<h2 id='HRPolicy-Work-relatedinjuries'>Work-related injuries</h2>",
                "<h2 class='pickup'>Store pickup</h2>",
            )
        ),
        # a section's own class naming its subject, not a box of other entries
        *(
            _CLASSED.format(name=name)
            for name in (
                "recommendations",
                "audit-recommendations",
                "public-relations",
                "relationship-managers",
                "related-topics",
                "recommended-actions",
            )
        ),
    ],
)
def test_a_section_named_for_its_subject_stays(part: str) -> None:
    """Found by attacks: ids made from the heading's text, and class or id words that
    contain "related", "relation" or "recommend" (audit recommendations, public
    relations), name the page's own section, not a box of other entries."""
    section = (
        "Report any such case to the office within three days, with the form and the "
        "name of a witness; the office answers within a week."
    )
    html = _page(
        "t",
        f"<div id='content'><h1>Timesheet move</h1>{_own(EN)}{part.format(section=section)}</div>",
    )
    for profile, text in _texts(html).items():
        assert section in text, profile


@pytest.mark.parametrize(
    ("cut", "link"),
    [
        (
            "対象：経費精算、勤怠管理、会議室予約、文書管理…",
            "<a href='/files/list.pdf'>詳細はこちら</a>",
        ),
        (
            "We reached the lake just as the storm arrived, and the tents were still packed. "
            "And then…",
            "<a href='/trip-part-2'>Continue</a>",
        ),
    ],
)
def test_a_last_paragraph_linking_to_a_file_or_a_bare_continue_stays(cut: str, link: str) -> None:
    own = (*EN, cut)
    html = _page(
        "t",
        f"<div class='entry'><h1>Timesheet move</h1>{_own(EN)}<div class='wp-block-group'>"
        f"<p>{cut}</p><p>{link}</p></div></div>",
    )
    for profile, text in _texts(html).items():
        assert all(line in text for line in own), (profile, text)
