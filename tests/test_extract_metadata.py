"""Metadata: title without site name, dates, language, canonical, keywords, robots."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.metadata import iso_date
from indexer.extract.titles import affix_keys, clean_title

PAGE = "http://intra.example/news/1.html"


def test_metadata_fields_are_read() -> None:
    html = """<html lang="ja"><head><title>記事の題 | サイト名</title>
    <meta name="description" content="説明文">
    <meta name="keywords" content="検索, 全文検索、Solr">
    <meta name="author" content="山田太郎">
    <meta property="article:published_time" content="2024-05-01T09:00:00+09:00">
    <script type="application/ld+json">{"@type": "Article", "dateModified": "2024-05-02"}</script>
    <link rel="canonical" href="/news/1">
    </head><body><h1>記事の題</h1><p>本文です。</p></body></html>"""
    doc = extract(html, PAGE)
    # One page cannot tell which part is the site's: the title stays whole
    # (indexer.extract.titles; the host's template or og:site_name decide).
    assert doc.title == doc.title_full == "記事の題 | サイト名"
    assert doc.description == "説明文"
    assert doc.keywords == ["検索", "全文検索", "Solr"]
    assert doc.author == "山田太郎"
    assert doc.published == "2024-05-01T09:00:00+09:00"
    assert doc.modified == "2024-05-02"
    assert doc.lang == "ja"
    assert doc.canonical_url == "http://intra.example/news/1"
    assert doc.robots == frozenset()


def test_og_title_wins_and_site_name_is_removed() -> None:
    html = """<html><head><title>x</title>
    <meta property="og:title" content="社内ポータル - 休暇の申請方法">
    <meta property="og:site_name" content="社内ポータル"></head>
    <body><p>本文です。</p></body></html>"""
    assert extract(html, PAGE).title == "休暇の申請方法"


@pytest.mark.parametrize(
    ("raw", "site", "expected"),
    [
        ("休暇の申請方法｜社内ポータル", "社内ポータル", "休暇の申請方法"),
        ("社内ポータル :: 休暇の申請方法", "社内ポータル", "休暇の申請方法"),
        ("Python || Numbers", None, "Python || Numbers"),
        ("Site :: A much longer page title", None, "Site :: A much longer page title"),
        ("Just a title", "Just a title", "Just a title"),
        ("- dashes -", None, "- dashes -"),
    ],
)
def test_clean_title_drops_only_the_site_name(raw: str, site: str | None, expected: str) -> None:
    assert clean_title(raw, site) == expected


def test_clean_title_drops_the_parts_the_host_repeats() -> None:
    titles = ["休暇の申請方法 - さくら 社内ポータル", "社員食堂 - さくら 社内ポータル"]
    keys = {key for title in titles for key in affix_keys(title)}
    repeated = set(affix_keys(titles[0])) & set(affix_keys(titles[1]))
    assert len(keys) == 3 and len(repeated) == 1
    assert clean_title(titles[0], None, repeated) == "休暇の申請方法"
    assert clean_title("さくら 社内ポータル - 休暇", None, repeated) == "さくら 社内ポータル - 休暇"


@pytest.mark.parametrize(("open_", "close"), [("【", "】"), ("（", "）"), ("[", "]"), ("《", "》")])
def test_a_bracketed_site_name_is_a_part_of_its_own(open_: str, close: str) -> None:
    """``規程集【総務ポータル】``: the bracketed group at either end is dropped as the
    site's when the host repeats it or it is og:site_name; a bracket that is the whole
    title, or one the host does not repeat, stays."""
    site = f"{open_}総務ポータル{close}"
    titles = [f"休暇の申請方法{site}", f"社員食堂 {site}", f"{site}規程集"]
    last = set(affix_keys(titles[0])) & set(affix_keys(titles[1]))
    assert len(last) == 1
    assert clean_title(titles[0], None, last) == "休暇の申請方法"
    assert clean_title(titles[1], None, last) == "社員食堂"
    assert clean_title(titles[2], "総務ポータル") == "規程集"
    assert (
        clean_title(f"会議室予約{open_}2024年度{close}", None, last)
        == f"会議室予約{open_}2024年度{close}"
    )
    assert clean_title(site, None, last) == site


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-05-01", "2024-05-01"),
        ("2024-05-01T00:00:00Z", "2024-05-01T00:00:00+00:00"),
        ("2024年5月1日", "2024-05-01"),
        ("2024/05/01 10:00", "2024-05-01"),
        ("yesterday", None),
        ("2024-13-45", None),
    ],
)
def test_iso_date(value: str, expected: str | None) -> None:
    assert iso_date(value) == expected


def test_robots_none_means_noindex_nofollow() -> None:
    doc = extract(
        '<html><head><meta name="ROBOTS" content="none"></head><body>x</body></html>', PAGE
    )
    assert {"noindex", "nofollow"} <= doc.robots
