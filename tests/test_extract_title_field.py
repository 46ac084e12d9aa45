"""``title_full``: the whole ``<title>`` reaches Solr, stored and searched with a low weight."""

from __future__ import annotations

import pytest
import requests

from indexer.index.document import build_document
from indexer.models import DecodedText, ExtractedDoc, FetchResult

pytestmark = pytest.mark.solr

SITE = "さくら製作所 社内ポータル"


def _document(n: int, title: str, title_full: str, text: str) -> dict[str, object]:
    fetched = FetchResult(
        url=f"http://127.0.0.1/{n}.html",
        final_url=f"http://127.0.0.1/{n}.html",
        status=200,
        headers={"content-type": "text/html"},
        body=b"",
        fetched_at="2026-12-01T12:00:00Z",
    )
    doc = ExtractedDoc(title=title, text=text, title_full=title_full)
    return build_document(fetched, DecodedText("", "utf-8", "header"), doc, run=1, digest="d")


def test_title_full_is_stored_and_found_below_title_and_content(
    solr_core: tuple[str, str],
) -> None:
    base, core = solr_core
    docs = [
        _document(1, "休暇の申請方法", f"休暇の申請方法 - {SITE}", "休暇は上長に申請します。"),
        _document(
            2, "製作所の沿革", f"製作所の沿革 - {SITE}", "さくら製作所は創業以来、部品を作る。"
        ),
    ]
    assert docs[0]["title_full"] == f"休暇の申請方法 - {SITE}"
    resp = requests.post(f"{base}/{core}/update", params={"commit": "true"}, json=docs, timeout=30)
    resp.raise_for_status()
    answer = requests.get(
        f"{base}/{core}/search", params={"q": "さくら製作所", "fl": "id,title_full"}, timeout=30
    ).json()["response"]
    ids = [doc["id"] for doc in answer["docs"]]
    assert ids == ["http://127.0.0.1/2.html", "http://127.0.0.1/1.html"]  # content first
    assert answer["docs"][1]["title_full"] == f"休暇の申請方法 - {SITE}"
