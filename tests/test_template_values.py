"""Template blocks with a variable: a block whose pages differ only in numbers is the
layout's ("Page 3 of 12", a notice series) unless its numbers are the page's data (a
catalogue's spec lines and cells); a data table keeps its header row; the fallback's
output loses the template too."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.extract import extract_page
from indexer.extract.parse import body_of, parse_html
from indexer.extract.segment import segment
from indexer.extract.template import (
    MemoryTemplateStore,
    SiteTemplate,
    TemplateLearner,
)
from indexer.extract.values import carries_data
from tests.faultserver import FaultServer, Reply, crawl
from tests.template_sites import (
    COLUMNS,
    FOOTER,
    QUESTIONS,
    Site,
    catalogue,
    faq,
    ledger,
    news,
    numbered,
)

URL = "http://127.0.0.1/"


def _learnt(site: Site) -> SiteTemplate:
    learner = TemplateLearner(MemoryTemplateStore())
    for html in site.pages.values():
        learner.observe("h", extract_page(html, URL, learn=True).keys)
    return learner.template("h")


def _texts(site: Site, profile: str = "search") -> dict[str, str]:
    template = _learnt(site)
    assert template.known
    pages = site.pages
    return {
        path: extract_page(pages[path], URL + path, template=template, profile=profile).doc.text
        for path in site.own
    }


@pytest.mark.parametrize(
    ("html", "value"),
    [
        ("<p>価格：260円</p>", True),
        ("<li>型番: ST-1037</li>", True),
        ("<li>重量 1.2kg</li>", True),
        ("<table><tr><td>2024/3/5</td><td>415件</td></tr></table>", True),
        ("<p>詳しい説明は第3章にあります。不明な点は内線2003へ。</p>", True),  # a sentence
        ("<p>Page 3 of 12</p>", False),  # a short line: the layout's, the number a variable
        ("<p>2024年3月1日 10:00</p>", False),  # a date line
        ("<h2>第3章 設定の手順と注意点について。</h2>", False),  # a heading names a section
        ('<p>価格：<a href="/p">260円</a></p>', False),  # a link names another page
        ("<p>価格：お問い合わせください</p>", False),  # no number
    ],
)
def test_numbers_are_data_in_value_lines_cells_and_sentences(html: str, value: bool) -> None:
    blocks = segment(body_of(parse_html(f"<html><body>{html}</body></html>"))).blocks
    assert blocks and carries_data(blocks[-1]) is value


@pytest.mark.parametrize("terms", [False, True])
@pytest.mark.parametrize("profile", ["search", "precision"])
def test_a_catalogue_keeps_the_spec_lines_that_differ_only_in_digits(
    profile: str, terms: bool
) -> None:
    site = catalogue(terms=terms)
    for path, text in _texts(site, profile).items():
        lines = text.split("\n")
        for own in site.own[path]:
            assert own in lines, (path, own)
        assert FOOTER not in text and "新着" not in text
        assert "Page" not in text, path  # "Page 3 of 12": the layout's, its number aside


@pytest.mark.parametrize(
    ("numbers_only", "footer", "linked"),
    [(False, "p", False), (True, "p", False), (False, "center", False), (True, "center", False),
     (False, "p", True)],
)  # fmt: skip
def test_a_data_table_page_keeps_its_rows_and_header_and_loses_the_footer(
    numbers_only: bool, footer: str, linked: bool
) -> None:
    site = ledger(numbers_only=numbers_only, footer=footer, linked=linked)
    header = " ".join(COLUMNS)
    for path, text in _texts(site).items():
        lines = text.split("\n")
        assert all(row in lines for row in site.own[path]), path
        assert lines[0] == header, path  # the column names, before the rows
        assert "Copyright" not in text and "無断転載" not in text, path


def test_pages_differing_in_one_number_keep_their_text_not_the_footer() -> None:
    site = numbered()
    for path, text in _texts(site).items():
        assert site.own[path][0] in text, path
        assert "Copyright" not in text, path


async def test_a_crawl_keeps_spec_lines_and_table_headers(tmp_path: Path) -> None:
    sites = {"catalogue": catalogue(seed=7), "ledger": ledger(seed=8, numbers_only=True)}
    for name, site in sites.items():
        with FaultServer() as srv:
            for path, html in site.pages.items():
                srv.route(path, Reply(body=html, headers={"Content-Type": "text/html"}))
            run = await crawl([srv.url("/")], tmp_path / name, fetch__per_host=1)
            texts = {str(doc["url"]): str(doc["text"]) for doc in run.docs}  # last sent
            for path, own in site.own.items():
                text = texts[srv.url(path)]
                assert all(line in text for line in own), (name, path)
                assert "Copyright" not in text, (name, path)
            if name == "ledger":
                assert all(" ".join(COLUMNS) in texts[srv.url(p)] for p in site.own)


def test_the_chain_alone_takes_a_data_table_page_s_table() -> None:
    for numbers_only in (False, True):
        site = ledger(seed=3, numbers_only=numbers_only)
        for path, own in site.own.items():
            text = extract_page(site.pages[path], URL + path).doc.text
            assert all(row in text for row in own), path  # was: the footer alone


def test_a_calendar_s_day_numbers_stay_out_of_an_article() -> None:
    weeks = "".join(
        "<tr>" + "".join(f"<td>{d}</td>" for d in range(w * 7 + 1, w * 7 + 8)) + "</tr>"
        for w in range(4)
    )
    article = "".join(
        f"<p>本日は第{n}回の勉強会について報告します。参加者は熱心に議論しました。</p>"
        for n in range(4)
    )
    html = (
        f"<html><body><div id='main'><h1>勉強会の報告</h1>{article}</div>"
        f"<div id='cal'><table><tr><th>日</th><th>月</th></tr>{weeks}</table></div></body></html>"
    )
    text = extract_page(html, URL).doc.text
    assert "勉強会について報告します" in text and "8 9 10" not in text


def test_a_kept_header_row_is_explained() -> None:
    site = ledger()
    path = next(iter(site.own))
    page = extract_page(site.pages[path], URL, template=_learnt(site), explain=True)
    heads = [d for d in page.decisions if d.text == " ".join(COLUMNS)]
    assert [(d.action, d.reason) for d in heads] == [("kept", "label")]


@pytest.mark.parametrize("profile", ["search", "precision"])
def test_related_article_cards_that_vary_per_page_are_not_the_article(profile: str) -> None:
    site = news()
    for path, text in _texts(site, profile).items():
        assert all(own in text for own in site.own[path]), path
        assert "記者が詳しく伝えます" not in text and "あわせて読みたい" not in text, path


@pytest.mark.parametrize("linked", [True, False])
def test_a_faq_page_keeps_its_answer_not_the_question_list(linked: bool) -> None:
    site = faq(linked=linked)
    for path, text in _texts(site).items():
        assert all(own in text.split("\n") for own in site.own[path]), path
        others = [q for q in QUESTIONS if q not in site.own[path][0]]
        assert not any(f"{q}？" in text for q in others), path


def test_statistics_stored_before_exact_keys_are_learnt_again() -> None:
    from indexer.extract.template import HostStats

    old = '{"pages": 40, "counts": {"menu": 40}}'  # no exact keys: a footer's form unknown
    assert HostStats.from_json(old).pages == 0
    stats = HostStats(40.0, {"menu": 40.0})
    assert HostStats.from_json(stats.to_json()).counts == {"menu": 40.0}
