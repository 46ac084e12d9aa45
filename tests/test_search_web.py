"""What users type into the web page and the JSON API, against the real Solr and ``indexer
serve``: field groups, marks on fragment and title hits, notes on what was searched
otherwise than typed, repeated filters, and the page's handling of odd crawled text."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import lxml.html
import pytest
import requests

from indexer.web.results import TITLE_CHARS
from tests.web_fixtures import Server, run_serve

pytestmark = pytest.mark.solr

LONG_TITLE = "長い題名" * 150  # 600 characters
BIDI = "\u202e"
DOCS: list[dict[str, Any]] = [
    {"id": "http://a.test/keihi", "url": "http://a.test/keihi", "host": "a", "lang": "ja",
     "title": "経費精算の手引き", "content": "出張の経費精算は月末までに申請します。"},
    {"id": "http://a.test/kyuka", "url": "http://a.test/kyuka", "host": "a", "lang": "ja",
     "title": "休暇", "content": "年次有給休暇は二十日です。"},
    {"id": "http://b.test/kyuka", "url": "http://b.test/kyuka", "host": "b", "lang": "ja",
     "title": "休暇の申請", "content": "有給休暇の申請は五日前までに。"},
    {"id": "http://c.test/kyuka", "url": "http://c.test/kyuka", "host": "c", "lang": "en",
     "title": LONG_TITLE, "content": f"有給休暇 (paid leave) {BIDI}txt.exe{BIDI} guide."},
]  # fmt: skip


@pytest.fixture(scope="module")
def server(solr_base_url: str) -> Iterator[Server]:
    update = f"{solr_base_url}/pages/update"
    requests.post(update, params={"commit": "true"}, json={"delete": {"query": "*:*"}},
                  timeout=30).raise_for_status()  # fmt: skip
    requests.post(update, params={"commit": "true"}, json=DOCS, timeout=30).raise_for_status()
    with run_serve(["--port", "0", "--solr", solr_base_url]) as running:
        yield running


def api(server: Server, params: Any) -> dict[str, Any]:
    resp = requests.get(f"{server.url}api/search", params=params, timeout=30)
    assert resp.status_code == 200, resp.text
    body: dict[str, Any] = resp.json()
    return body


def page(server: Server, params: Any, path: str = "search") -> tuple[int, lxml.html.HtmlElement]:
    resp = requests.get(f"{server.url}{path}", params=params, timeout=30)
    return resp.status_code, lxml.html.fromstring(resp.text)


def _ids(body: dict[str, Any]) -> set[str]:
    return {hit["id"] for hit in body["hits"]}


def test_field_group_finds_what_the_field_finds_and_title_hits_are_marked(server: Server) -> None:
    plain = api(server, {"q": "title:経費"})
    assert _ids(plain) == {"http://a.test/keihi"}
    for q in ("title:(経費)", 'title:"経費精算"'):
        assert _ids(api(server, {"q": q})) == _ids(plain), q
    for q in ("title:経費", "title:(経費)", "給休"):
        for hit in api(server, {"q": q, "rows": 100})["hits"]:
            assert "<mark>" in hit["snippet"], (q, hit)


def test_match_all_and_unknown_fields_say_what_was_done(server: Server) -> None:
    every = api(server, {"q": "*"})
    assert every["numFound"] == len(DOCS)
    assert [n["kind"] for n in every["notes"]] == ["all"]
    odd = api(server, {"q": "url:*x*"})
    assert [(n["kind"], n["value"]) for n in odd["notes"]] == [
        ("field", "url"),
        ("wildcard", "url:*x*"),
    ]
    _, doc = page(server, {"q": "url:*x*"}, "search")
    notes = [n.text_content() for n in doc.cssselect("p.note")]
    assert notes and "url:" in notes[0] and "文字として検索" in notes[0]


def test_a_repeated_filter_keeps_every_value(server: Server) -> None:
    both = [("q", "有給休暇"), ("host", "a"), ("host", "b")]
    assert _ids(api(server, both)) == {"http://a.test/kyuka", "http://b.test/kyuka"}
    assert _ids(api(server, [*both, ("lang", "en")])) == set()  # filters together all apply
    _, doc = page(server, both)
    assert doc.cssselect(".hit-count")[0].text_content() == "2"
    current = doc.cssselect('.facet[data-facet="host"] a[aria-current="true"]')
    assert sorted(a.text_content() for a in current) == ["a", "b"]


def test_long_titles_bidi_controls_and_nul_are_neutralised(server: Server) -> None:
    status, doc = page(server, {"q": "paid"})
    assert status == 200
    link = doc.cssselect("a.hit-title")[0]
    assert len(link.text_content()) == TITLE_CHARS and link.text_content().endswith("…")
    assert link.get("title") == LONG_TITLE
    assert BIDI not in lxml.html.tostring(doc, encoding="unicode")
    assert "txt.exe" in doc.cssselect(".hit-snippet")[0].text_content()
    resp = requests.get(f"{server.url}search", params={"q": "経費\x00精算"}, timeout=30)
    assert "\x00" not in resp.text and "&#0;" not in resp.text
    assert lxml.html.fromstring(resp.text).cssselect("input[name=q]")[0].get("value") == (
        "経費 精算"
    )


def test_english_summary_says_results_once(server: Server) -> None:
    resp = requests.get(f"{server.url}search", params={"q": "有給休暇"},
                        headers={"Accept-Language": "en"}, timeout=30)  # fmt: skip
    summary = lxml.html.fromstring(resp.text).cssselect(".summary p")[0].text_content()
    assert " ".join(summary.split()) == "3 results (showing 1–3)"


def test_static_directory_and_hints(server: Server) -> None:
    status, doc = page(server, {}, "static/")
    assert status == 403 and doc.cssselect("form[role=search]")  # our page, not aiohttp's
    _, doc = page(server, {"q": "zzqx"})
    assert not doc.cssselect(".no-results a")  # no full-width form of an ASCII query
    _, doc = page(server, {"q": "ｚｚｑｘ"})
    assert [a.text_content() for a in doc.cssselect(".no-results a")] == ["zzqx"]


def test_cli_leaves_bidi_controls_out_and_prints_notes(server: Server, solr_base_url: str) -> None:
    def cli(q: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "indexer", "search", "--solr", solr_base_url, q]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)

    hits = cli("paid")
    assert hits.returncode == 0 and "txt.exe" in hits.stdout and BIDI not in hits.stdout
    odd = cli("url:*x*")
    assert odd.returncode == 0
    assert "note: url: is not a searchable field; searched as text" in odd.stderr
