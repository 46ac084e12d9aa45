"""Media furniture by kind (:mod:`indexer.extract.media`): on made-up sites, a slideshow's
captions, a photo credit and a media box's controls are out of the text, in both profiles;
the article's own text, and prose that merely names an agency, stay."""

from __future__ import annotations

import pytest

from indexer.extract import extract
from indexer.extract.profile import PROFILES

URL = "http://news.example/2024/05/harbour.html"

EN = (
    "The harbour authority opened the rebuilt east pier on Monday after two years of work, "
    "and the first ferries docked there the same afternoon.",
    "Engineers replaced the timber piles with concrete ones, which the authority says "
    "will last sixty years with little upkeep.",
    "Fishing boats keep their berths on the west side, where the old sheds are to become "
    "a market hall next spring.",
)
JA = (
    "市の港湾局は二年にわたる工事を終え、月曜日に東桟橋の供用を再開しました。当日の午後には最初のフェリーが着岸しました。",
    "木製の杭はコンクリート製に取り替えられ、港湾局によれば維持管理をほとんど要さずに六十年はもつということです。",
    "漁船の係留場所は西側に残り、古い倉庫は来春に市場として生まれ変わる予定です。",
)


def _own(lines: tuple[str, ...]) -> str:
    return "".join(f"<p>{line}</p>" for line in lines)


SITES = {
    # a news site: a gallery box after the story repeats each slide's caption and credit
    "en-gallery-after": (
        "<html><head><title>East pier reopens</title></head><body><article>"
        "<h1>East pier reopens</h1>{own}<div class='photo-gallery'><ul>"
        "<li><img src='1.jpg'><span class='caption'>{gone}</span></li>"
        "<li><img src='2.jpg'><span class='caption'>Ferries at the east pier.</span></li>"
        "</ul></div></article></body></html>",
        EN,
        "A crane lifts the last concrete pile into place at dawn.",
    ),
    # a magazine: the credit line inside the figure under the lead picture
    "en-figure-credit": (
        "<html><head><title>East pier reopens</title></head><body><main>"
        "<h1>East pier reopens</h1><figure><img src='p.jpg'>"
        "<figcaption><span class='credit'>{gone}</span></figcaption></figure>{own}"
        "</main></body></html>",
        EN,
        "Photo: Jane Rowe / Harbour Press",
    ),
    # an agency credit in a picture box, no class naming a credit
    "en-agency": (
        "<html><head><title>East pier reopens</title></head><body><div id='content'>"
        "<h1>East pier reopens</h1><div class='image-box'><img src='p.jpg'><p>{gone}</p>"
        "</div>{own}</div></body></html>",
        EN,
        "(Getty Images)",
    ),
    # the controls of a media box: "Image 2 of 7"
    "en-controls": (
        "<html><head><title>East pier reopens</title></head><body><article>"
        "<h1>East pier reopens</h1><div class='media-player'><img src='p.jpg'>"
        "<div>{gone}</div></div>{own}</article></body></html>",
        EN,
        "Image 2 of 7",
    ),
    # a Japanese city page: 写真：… under the picture
    "ja-photo-credit": (
        "<html><head><title>東桟橋が再開</title></head><body><div class='main'>"
        "<h1>東桟橋が再開</h1><div class='photo'><img src='p.jpg'><p>{gone}</p></div>{own}"
        "</div></body></html>",
        JA,
        "写真：港湾局提供",
    ),
    # a Japanese blog: a slider of other pictures inside the entry
    "ja-slider": (
        "<html><head><title>東桟橋が再開</title></head><body><div class='entry'>"
        "<h2>東桟橋が再開</h2>{own}<div class='slider'><div class='slide'><img src='a.jpg'>"
        "<p>{gone}</p></div></div></div></body></html>",
        JA,
        "夜明けの桟橋でクレーンが最後の杭を吊り上げる様子。",
    ),
}


@pytest.mark.parametrize("site", sorted(SITES))
def test_media_furniture_is_out(site: str) -> None:
    page, own, gone = SITES[site]
    html = page.format(own=_own(own), gone=gone)
    for profile in PROFILES:
        text = extract(html, URL, profile=profile).text
        assert gone not in text, (profile, text)
        for line in own:
            assert line in text, (profile, line)


def test_prose_naming_an_agency_stays() -> None:
    """A paragraph of the article that names a picture agency is prose, not a credit."""
    line = (
        "Reuters reported on Tuesday that the authority will also rebuild the west pier, "
        "though no date has been set for the work to begin."
    )
    html = (
        "<html><head><title>East pier reopens</title></head><body><article>"
        f"<h1>East pier reopens</h1>{_own(EN)}<p>{line}</p></article></body></html>"
    )
    for profile in PROFILES:
        assert line in extract(html, URL, profile=profile).text


def test_an_articles_own_caption_stays_in_search() -> None:
    """A caption describing what the article shows is the article's (``search`` keeps it)."""
    caption = "The rebuilt east pier seen from the lighthouse, with two ferries at berth."
    html = (
        "<html><head><title>East pier reopens</title></head><body><article>"
        "<h1>East pier reopens</h1><figure><img src='p.jpg'>"
        f"<figcaption>{caption}</figcaption></figure>{_own(EN)}</article></body></html>"
    )
    assert caption in extract(html, URL, profile="search").text
