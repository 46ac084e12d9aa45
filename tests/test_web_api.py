"""``indexer serve`` over HTTP against the real Solr: the JSON API's shape and bounds, filters
that never pass Solr syntax, escaping, headers, the no-results hint."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import lxml.html
import pytest
import requests

from indexer.settings import SolrSettings
from indexer.solr.query import MAX_QUERY_CHARS
from indexer.web.app import _type_field
from tests.conftest import CONFIGSET_DIR
from tests.web_fixtures import RAW_HOSTILE_DOCS, Server, indexed_server
from tests.web_site import HOSTILE_QUERY, QUERY

pytestmark = pytest.mark.solr


@pytest.fixture(scope="module")
def server(solr_base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with indexed_server(solr_base_url, tmp_path_factory.mktemp("web-api")) as running:
        yield running


def api(server: Server, **params: Any) -> requests.Response:
    return requests.get(f"{server.url}api/search", params=params, timeout=30)


def page(server: Server, path: str = "search", **params: Any) -> requests.Response:
    return requests.get(f"{server.url}{path}", params=params, timeout=30)


def test_api_shape(server: Server) -> None:
    body = api(server, q=QUERY).json()
    assert set(body) == {"numFound", "start", "hits", "facets", "notes"}
    assert body["notes"] == []
    assert body["numFound"] > 10 and body["start"] == 0 and len(body["hits"]) == 10
    keys = {"id", "url", "title", "snippet", "host", "format", "content_type", "modified"}
    for hit in body["hits"]:
        assert set(hit) == keys
        assert hit["format"] == "html" and hit["content_type"] == "text/html"
        datetime.fromisoformat(hit["modified"].replace("Z", "+00:00"))
        fragment = lxml.html.fragment_fromstring(hit["snippet"], create_parent="div")
        assert {el.tag for el in fragment.iterdescendants()} == {"mark"}
    facets = body["facets"]
    assert set(facets) == {"host", "type", "lang", "year"}
    assert len(facets["host"]) == 3 and sum(c for _, c in facets["host"]) == body["numFound"]
    assert facets["type"] == [["html", body["numFound"]]]
    assert {v for v, _ in facets["lang"]} == {"ja", "en"}
    years = [v for v, _ in facets["year"]]
    assert years == sorted(years, reverse=True) and years[-1] == "2019"


def test_api_paging_bounds(server: Server) -> None:
    first = api(server, q=QUERY, rows=5).json()
    second = api(server, q=QUERY, rows=5, start=5).json()
    assert second["start"] == 5 and len(second["hits"]) == 5
    assert not {h["id"] for h in first["hits"]} & {h["id"] for h in second["hits"]}
    assert len(api(server, q=QUERY, rows=100).json()["hits"]) == first["numFound"]
    for bad in ({"rows": 101}, {"rows": 0}, {"start": -1}, {"start": "x"}, {"sort": "title"}):
        resp = api(server, q=QUERY, **bad)
        assert resp.status_code == 400 and resp.json()["param"] == next(iter(bad)), bad
    resp = api(server, q="あ" * (MAX_QUERY_CHARS + 1))
    assert resp.status_code == 400 and resp.json()["param"] == "q"


def test_filters_are_values_not_syntax(server: Server) -> None:
    total = api(server, q=QUERY).json()["numFound"]
    assert api(server, q=QUERY, type="html").json()["numFound"] == total
    assert api(server, q=QUERY, type="pdf").json()["numFound"] == 0
    english = api(server, q=QUERY, lang="en").json()
    assert english["numFound"] == 3 and english["facets"]["lang"] == [["en", 3]]
    hits = api(server, q=QUERY, year="2019", rows=100).json()["hits"]
    assert hits and all(h["modified"].startswith("2019-") for h in hits)
    for injected in ("*", '127.0.0.1" OR host:*', "* OR *:*", "\\"):
        assert api(server, q=QUERY, host=injected).json()["numFound"] == 0, injected
    hostile = api(server, q=HOSTILE_QUERY, host=RAW_HOSTILE_DOCS[0]["host"]).json()
    assert [h["id"] for h in hostile["hits"]] == ["raw-hostile-url"]
    assert api(server, q=QUERY, year="twenty").status_code == 400


def test_sort_by_modified(server: Server) -> None:
    hits = api(server, q=QUERY, sort="modified", rows=30).json()["hits"]
    dated = [h["modified"] for h in hits if h["modified"]]
    assert len(dated) >= 16 and dated == sorted(dated, reverse=True)
    assert hits[: len(dated)] == [h for h in hits if h["modified"]]  # undated pages last


def test_page_escapes_crawled_values(server: Server) -> None:
    html = page(server, q=HOSTILE_QUERY).text
    assert "<script" not in html and "<img" not in html and "onerror=alert" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    doc = lxml.html.fromstring(html)
    assert not doc.xpath("//@*[starts-with(name(), 'on')]")
    hrefs = doc.xpath("//a/@href")
    assert hrefs and not [h for h in hrefs if h.lower().startswith("javascript:")]


def test_form_and_labels(server: Server) -> None:
    doc = lxml.html.fromstring(page(server, "").text)
    (form,) = doc.xpath('//form[@role="search"][@action="/search"]')
    (box,) = form.xpath('.//input[@name="q"]')
    assert box.get("autofocus") is not None
    assert doc.get("lang") == "ja"
    english = requests.get(server.url, headers={"Accept-Language": "en"}, timeout=30)
    assert lxml.html.fromstring(english.text).get("lang") == "en"
    assert english.headers["Vary"] == "Accept-Language"


def test_over_long_query_gets_a_message(server: Server) -> None:
    resp = page(server, q="有" * (MAX_QUERY_CHARS + 1))
    assert resp.status_code == 200
    assert f"{MAX_QUERY_CHARS} 文字まで" in resp.text
    assert not lxml.html.fromstring(resp.text).xpath('//article[@class="hit"]')


def test_no_results_hint(server: Server) -> None:
    host = api(server, q=QUERY).json()["facets"]["host"][0][0]
    doc = lxml.html.fromstring(page(server, q="ｚｚｑｘ", host=host).text)
    assert doc.xpath('//span[@class="hit-count"]')[0].text == "0"
    links = doc.xpath('//div[@class="no-results"]//a')
    targets = {a.text_content(): a.get("href") for a in links}
    assert "zzqx" in targets  # the other width
    assert targets[f"{host} ×"] == "/search?q=%EF%BD%9A%EF%BD%9A%EF%BD%91%EF%BD%98"


@pytest.mark.parametrize("path", ["", "search?q=x", "api/search?q=x", "nope", "static/style.css"])
def test_security_headers_everywhere(server: Server, path: str) -> None:
    resp = requests.get(f"{server.url}{path}", timeout=30)
    csp = resp.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "script-src 'self'" in csp
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_type_facet_field_follows_the_schema(solr_base_url: str) -> None:
    schema = (CONFIGSET_DIR / "schema.xml").read_text(encoding="utf-8")
    field = re.search(r'<field name="format"[^>]*>', schema)
    # schema 1.7: docValues on by default for string fields
    facetable = field is not None and 'docValues="false"' not in field.group(0)
    expected = "format" if facetable else "content_type"
    assert _type_field(SolrSettings(url=solr_base_url)) == expected
