"""``indexer serve`` in a real browser: Debian's Chromium driven by Playwright, on loopback
only, over the generated Japanese sites crawled into the real Solr.

Screenshots of the results at 1280 and 390 pixels wide go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web_fixtures import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Server, indexed_server
from tests.web_site import HOSTILE_QUERY, HOSTILE_TITLE, QUERY

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.solr,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium"),
]


@pytest.fixture(scope="module")
def server(solr_base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with indexed_server(solr_base_url, tmp_path_factory.mktemp("web-sites")) as running:
        yield running


class Browser:
    """One Chromium with a fresh profile; records every request and dialog it sees."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.requested: list[str] = []
        self.blocked: list[str] = []
        self.dialogs: list[str] = []
        context.route("**/*", self._guard)
        context.on("request", lambda r: self.requested.append(r.url))

    def _guard(self, route: Any) -> None:
        """Anything not addressed to 127.0.0.1 is recorded and aborted before it leaves."""
        url = route.request.url
        if urlsplit(url).hostname == "127.0.0.1" or url.startswith("data:"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def page(self) -> Any:
        page = self.context.new_page()
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        return page


@pytest.fixture
def browser(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Browser]:
    """Chromium in a fresh profile, Japanese unless parametrized with another locale."""
    locale = getattr(request, "param", "ja-JP")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
            locale=locale,  # sets Accept-Language
            ignore_https_errors=True,  # the HTTPS tests' self-signed 127.0.0.1 certificate
        )
        recorder = Browser(context)
        try:
            yield recorder
        finally:
            context.close()
    off_loopback = [u for u in recorder.requested if urlsplit(u).hostname != "127.0.0.1"]
    assert recorder.blocked == [] and off_loopback == [], (recorder.blocked, off_loopback)


def _hit_count(page: Any) -> int:
    return int(page.locator(".hit-count").inner_text().replace(",", ""))


def _query_of(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def _assert_layout(page: Any, width: int) -> None:
    """No horizontal scrolling, and no two hits, facets or header boxes overlap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = [
        page.locator(sel).nth(i).bounding_box()
        for sel in (".top", ".hit", "nav.facets")
        for i in range(page.locator(sel).count())
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            assert overlap_x <= 0.5 or overlap_y <= 0.5, (a, b)


def _fonts_of(page: Any, selector: str) -> set[str]:
    """The platform fonts Chromium drew ``selector``'s text with (DevTools protocol,
    ``CSS.getPlatformFontsForNode``)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return {font["familyName"] for font in fonts}


def test_search_facet_paging_sort(server: Server, browser: Browser) -> None:
    page = browser.page()
    page.goto(server.url)
    page.wait_for_function("document.activeElement.name === 'q'", timeout=5000)  # autofocus
    page.keyboard.type(QUERY)
    assert page.locator("input[name=q]").input_value() == QUERY
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?"))
    total = _hit_count(page)
    assert total > 10
    assert page.locator("article.hit").count() == 10
    marks = page.locator("article.hit .hit-snippet mark").all_inner_texts()
    assert marks and all(m in QUERY or QUERY in m for m in marks), marks
    assert any("Noto Sans CJK" in f for f in _fonts_of(page, "article.hit .hit-snippet"))
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        _assert_layout(page, width)
        page.screenshot(path=str(ARTIFACTS / f"web-results-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    first_page = page.locator("a.hit-title").all_inner_texts()
    page.locator("nav.pagination a.next").click()
    page.wait_for_url(re.compile(r"page=2"))
    assert page.locator(".range").inner_text() == "11–20 件目"
    assert not set(page.locator("a.hit-title").all_inner_texts()) & set(first_page)

    page.locator("a.sort-2").click()  # 新しい順
    page.wait_for_url(re.compile(r"sort=modified"))
    dates = page.locator("article.hit time").evaluate_all("ts => ts.map(t => t.dateTime)")
    assert len(dates) >= 9 and dates == sorted(dates, reverse=True), dates
    assert _query_of(page).get("page") is None  # a new order starts at page 1

    host_link = page.locator('nav.facets [data-facet="host"] li a').nth(1)
    host, count = (
        host_link.inner_text(),
        int(page.locator('nav.facets [data-facet="host"] li .count').first.inner_text()),
    )
    host_link.click()
    page.wait_for_url(re.compile(r"host="))
    assert _query_of(page)["host"] == [host]
    assert _hit_count(page) == count < total
    urls = page.locator(".hit-url").all_inner_texts()
    assert urls and all(u.startswith(f"http://{host}/") for u in urls), urls
    assert _query_of(page)["sort"] == ["modified"]  # the facet keeps the order
    assert browser.dialogs == []


def test_hostile_pages_show_as_text(server: Server, browser: Browser) -> None:
    page = browser.page()
    page.goto(server.url)
    page.locator("input[name=q]").fill(HOSTILE_QUERY)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?"))
    titles = page.locator("a.hit-title").all_inner_texts()
    assert HOSTILE_TITLE in titles
    urls = page.locator(".hit-url").all_inner_texts()
    assert any('"><img src=x onerror=alert(2)>' in u for u in urls), urls
    assert any('"><img src=x onerror=alert(4)>' in u for u in urls), urls
    assert page.locator("script, img, iframe, object").count() == 0
    snippets = " ".join(page.locator(".hit-snippet").all_inner_texts())
    assert "<img src=x onerror=alert(3)>" in snippets and "<em>偽の強調</em>" in snippets
    assert page.locator(".hit-snippet *:not(mark)").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-hostile-1280.png"), full_page=True)
    script_hit = page.locator("article.hit", has_text="javascript:alert(6)")
    assert script_hit.locator("a.hit-title").get_attribute("href") is None

    hostile_host = page.locator('nav.facets [data-facet="host"] a', has_text="<script>")
    assert hostile_host.inner_text() == '"><script>alert(5)</script>'
    hostile_host.click()
    page.wait_for_url(re.compile(r"host="))
    assert _hit_count(page) == 1
    assert browser.dialogs == []


@pytest.mark.parametrize("browser", ["en-US"], indirect=True)
def test_english_when_the_browser_prefers_it(server: Server, browser: Browser) -> None:
    page = browser.page()
    page.goto(f"{server.url}search?q={QUERY}&lang=xx")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("button[type=submit]").inner_text() == "Search"
    assert "No pages match" in page.locator(".no-results").inner_text()
    page.locator(".no-results a", has_text="xx").click()  # drop the filter that found nothing
    page.wait_for_url(re.compile(r"^[^&]*$"))
    assert _hit_count(page) > 10


def test_the_guard_catches_other_addresses(browser: Browser) -> None:
    page = browser.page()
    page.set_content('<img src="http://intranet.invalid/logo.png">')
    page.wait_for_timeout(200)
    assert browser.blocked == ["http://intranet.invalid/logo.png"]
    browser.blocked.clear()  # seen: the fixture's own check must not fail on it
    browser.requested.clear()
