"""Issue #30: a page that starts answering 401 or 403 leaves search in the run that sees it
(``restricted``), its URL kept, and comes back when it opens again, although its content
and ``Last-Modified`` are unchanged (a conditional GET would answer 304); a page whose robots
meta tag or ``X-Robots-Tag`` says ``nosnippet`` is listed without a snippet, by ``indexer
search`` and by the web interface."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import requests

from tests.recrawl_site import cli, first_night, frontier_outcomes, write_page
from tests.web_fixtures import run_serve

pytestmark = pytest.mark.solr
WORD = "手続き"  # in every page of the listing


def _hits(solr: tuple[str, str], query: str) -> dict[str, list[str]]:
    """``{url: snippets}`` of ``indexer search --json`` (no commit of our own)."""
    proc = cli("search", "--solr", solr[0], "--core", solr[1], "--json", "--rows", "50", query)
    assert proc.returncode == 0, proc.stderr
    return {hit["url"]: hit["snippets"] for hit in json.loads(proc.stdout)["hits"]}


def test_a_restricted_page_leaves_search_at_once_and_comes_back(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    with first_night(solr_core, tmp_path, "/docs", 9) as night:  # 10 documents
        hidden = [night.paths[2], night.paths[5]]
        urls = [night.url + p for p in hidden]
        assert set(urls) <= set(_hits(solr_core, WORD))
        night.site.set(status={hidden[0]: 403, hidden[1]: 401})
        night.reindex()
        found = _hits(solr_core, WORD)
        assert not set(urls) & set(found), "a restricted page is still searchable"
        assert len(found) == 7  # 9 pages say it (not the listing), 2 restricted
        outcomes = frontier_outcomes(night.data)
        assert [outcomes[u] for u in urls] == ["restricted", "restricted"]

        night.site.set()  # open again, the same bytes and Last-Modified as before
        night.reindex()
        assert set(urls) <= set(_hits(solr_core, WORD)), "an opened page did not come back"
        outcomes = frontier_outcomes(night.data)
        assert [outcomes[u] for u in urls] == ["indexed", "indexed"]


def test_keep_restricted_keeps_the_document(solr_core: tuple[str, str], tmp_path: Path) -> None:
    config = tmp_path / "keep.toml"
    config.write_text("[reindex]\nkeep_restricted = true\n", "utf-8")
    with first_night(solr_core, tmp_path, "/docs", 4, "--config", str(config)) as night:
        night.site.set(status={night.paths[1]: 403})
        night.reindex()
        night.reindex()  # past the grace runs too
        assert night.url + night.paths[1] in _hits(solr_core, WORD)
        assert frontier_outcomes(night.data)[night.url + night.paths[1]] == "restricted"


def test_nosnippet_hits_are_listed_without_a_snippet(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    with first_night(solr_core, tmp_path, "/docs", 5) as night:
        meta, header, zero = night.paths[1], night.paths[2], night.paths[3]
        text = "社内規程の手続きを説明します。申請は総務課まで。"
        for path, robots in ((meta, "nosnippet"), (zero, "index, max-snippet: 0")):
            write_page(night.site.root, path, f"規程 {path}", text)
            page = night.site.root / path.lstrip("/")
            html = page.read_text("utf-8").replace(
                "<head>", f'<head><meta name="robots" content="{robots}">'
            )
            page.write_text(html, "utf-8")
        night.site.set(headers={header: {"X-Robots-Tag": "googlebot: nosnippet"}})
        os.utime(night.site.root / header.lstrip("/"))  # a server change: a new Last-Modified
        night.reindex()
        hits = _hits(solr_core, WORD)
        withheld = {night.url + p for p in (meta, header, zero)}
        assert withheld <= set(hits)
        assert all(hits[u] == [] for u in withheld), {u: hits[u] for u in withheld}
        shown = [u for u in hits if u not in withheld]
        assert shown and all(hits[u] for u in shown), "other hits lost their snippets"
        with run_serve(["--port", "0", "--solr", solr_core[0]]) as server:
            answer = requests.get(f"{server.url}api/search", params={"q": WORD}, timeout=30)
            page = requests.get(f"{server.url}search", params={"q": WORD}, timeout=30)
        api = {hit["url"]: hit["snippet"] for hit in answer.json()["hits"]}
        assert all(api[u] == "" for u in withheld) and all(api[u] for u in shown), api
        assert page.status_code == 200 and "申請は総務課まで" not in page.text
