"""Datelines by kind (:mod:`indexer.extract.datelines`): the dateline of a notice is out
of the text, in Western and Japanese-era dates, also as the one dated entry of a list of
the entry's metadata; a short chronology (沿革, a release history) is the page's own text
in both profiles, however few its entries."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.profile import PROFILES

URL = "http://intra.example/about/history.html"
INTRO = (
    "当社は地域の物流を支える会社として創業し、倉庫の管理から配送までを一貫して担ってきました。"
    "これまでの主な歩みを以下にまとめます。"
)
EN_INTRO = (
    "The records office keeps every archived contract of the company and answers requests "
    "from all departments; its main steps so far are listed below."
)


def _texts(body: str, title: str = "会社概要") -> dict[str, str]:
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return {profile: extract(html, URL, profile=profile).text for profile in PROFILES}


CHRONOLOGIES = {
    "ja-ul": (
        INTRO,
        ("2015年4月 本社倉庫を開設", "2018年10月 配送センター稼働", "2021年6月 冷蔵倉庫を増設"),
        "ul",
    ),
    "ja-era-ul": (
        INTRO,
        (
            "平成27年4月 本社倉庫を開設",
            "平成30年10月 配送センター稼働",
            "令和3年6月 冷蔵倉庫を増設",
        ),
        "ul",
    ),
    "en-ol": (
        EN_INTRO,
        ("March 2016 Archive opened", "May 2019 Scanning began", "June 2022 Portal launched"),
        "ol",
    ),
    "ja-two": (INTRO, ("2015年4月 本社倉庫を開設", "2021年6月 冷蔵倉庫を増設"), "ul"),
    # a definition list: the date in <dt>, the event in <dd> (found by an attack)
    "ja-dl": (
        INTRO,
        ("1985年6月|会社を設立", "1992年10月|第一倉庫を開設", "2015年4月|本社倉庫を開設"),
        "dl",
    ),
    "en-dl": (EN_INTRO, ("March 2016|Archive opened", "June 2019|Store extended"), "dl"),
}


def _entries(entries: tuple[str, ...], tag: str) -> str:
    """The list's markup; a ``dl`` entry is written ``date|event``."""
    if tag == "dl":
        return "".join("<dt>{}</dt><dd>{}</dd>".format(*e.split("|")) for e in entries)
    return "".join(f"<li>{entry}</li>" for entry in entries)


@pytest.mark.parametrize("heading", ["", "<h2>History</h2>"])
@pytest.mark.parametrize("site", sorted(CHRONOLOGIES))
def test_a_short_chronology_after_one_paragraph_stays(site: str, heading: str) -> None:
    """In both profiles: the precision profile's edge trimming kept the paragraph and
    dropped the list after it (found by an attack)."""
    intro, entries, tag = CHRONOLOGIES[site]
    items = _entries(entries, tag)
    body = f"<div id='main'><h1>沿革</h1><p>{intro}</p>{heading}<{tag}>{items}</{tag}></div>"
    for profile, text in _texts(body).items():
        for part in (part for entry in entries for part in entry.split("|")):
            assert part in text, (profile, part, text)


@pytest.mark.parametrize(
    "dateline",
    ["掲載日：令和6年5月8日", "更新日：令和6.5.8", "公開日：2024年5月8日", "Posted May 8, 2024"],
)
def test_a_notices_dateline_is_out(dateline: str) -> None:
    body = f"<article><h1>倉庫の点検</h1><p>{dateline}</p><p>{INTRO}</p></article>"
    for profile, text in _texts(body).items():
        assert dateline not in text and INTRO in text, (profile, text)


def test_the_date_of_a_metadata_list_is_out_and_the_text_stays() -> None:
    meta = "<ul class='meta'><li>2024年5月8日</li><li>総務部</li><li>お知らせ</li></ul>"
    body = f"<article><h1>倉庫の点検</h1>{meta}<p>{INTRO}</p></article>"
    for profile, text in _texts(body).items():
        assert "2024年5月8日" not in text and INTRO in text, (profile, text)


def test_a_metadata_list_with_published_and_updated_dates_is_out() -> None:
    meta = (
        "<ul class='meta'><li>Nov 20 2019, 11:06am IST</li>"
        "<li>Updated: Nov 20 2019, 3:24pm IST</li></ul>"
    )
    body = f"<article><h1>Records office</h1>{meta}<p>{EN_INTRO}</p></article>"
    for profile, text in _texts(body, "Records office").items():
        assert "Nov 20" not in text and EN_INTRO in text, (profile, text)


@pytest.mark.parametrize("line", ["<h2>R2.1.3</h2>", "<p>R2.1.3 Released</p>"])
def test_a_version_line_is_not_a_dateline(line: str) -> None:
    """R2.1.3 reads as a Reiwa date and as a version: only the written-out eras are
    dates here (found by an attack)."""
    body = f"<article><h1>Release notes</h1>{line}<p>{EN_INTRO}</p></article>"
    for profile, text in _texts(body, "Release notes").items():
        assert "R2.1.3" in text, (profile, text)


@pytest.mark.parametrize(
    "chronology",
    [
        "<p>平成元年4月 会社設立</p><p>平成15年10月 大阪支店開設</p><p>令和2年4月 本社移転</p>",
        "<p>平成元年4月 会社設立<br>平成15年10月 大阪支店開設<br>令和2年4月 本社移転</p>",
    ],
)
def test_a_chronology_of_paragraphs_or_lines_stays(chronology: str) -> None:
    """Found by an attack: entries written as paragraphs or ``<br>`` lines, not a list."""
    body = f"<div id='main'><h1>沿革</h1><h2>沿革</h2>{chronology}<p>{INTRO}</p></div>"
    text = _texts(body)["search"]
    for event in ("会社設立", "大阪支店開設", "本社移転"):
        assert event in text, text
