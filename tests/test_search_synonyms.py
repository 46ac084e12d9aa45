"""Query-time synonyms of the bundled list on both field kinds, and wildcard characters
as a user types them (issue #32), through the product's query path and the real Solr."""

from __future__ import annotations

from typing import Any

import pytest

from indexer.errors import QueryError
from indexer.settings import SolrSettings
from indexer.solr.search import search
from tests.test_search_handler import _index

pytestmark = pytest.mark.solr

Core = tuple[str, str]

PAGES = {
    "yukyu": "有給休暇の申請は前日までに上長へ届け出てください。",
    "nenji": "年次有給休暇は入社から半年後に十日付与されます。",
    "nenkyu": "年休の取得状況は勤怠システムで確認できます。",
    "shutoku": "有給休暇取得促進のお知らせ。計画的な取得をお願いします。",
    "shinsei": "有給休暇申請書は人事部のページから入手してください。",
    "pc": "パソコンの貸し出しは情報システム部が受け付けます。",
    "other": "会議室の予約は総務部の受付で行います。",
    "question": "よくある質問？ 会議室は何時から使えますか？",
    "star": "評価は★で表します。",
    "server": "The server rotates its logs every night.",
}


@pytest.fixture
def pages(solr_core: Core) -> SolrSettings:
    docs: list[dict[str, Any]] = [{"id": k, "content": v} for k, v in PAGES.items()]
    docs.append({"id": "title-only", "title": "有給休暇の手引き", "content": "手引きです。"})
    _index(solr_core, docs)
    return SolrSettings(url=solr_core[0], core=solr_core[1])


def ids(cfg: SolrSettings, query: str) -> set[str]:
    return {hit["id"] for hit in search(cfg, query, rows=20)["hits"]}


@pytest.mark.parametrize("query", ["年休", "有給休暇", "年次有給休暇"])
def test_a_bundled_synonym_group_finds_every_spelling(pages: SolrSettings, query: str) -> None:
    found = ids(pages, query)
    expected = {"yukyu", "nenji", "nenkyu", "title-only", "shutoku", "shinsei"}
    assert expected <= found, expected - found
    assert "other" not in found


def test_a_synonym_inside_a_longer_query_still_narrows(pages: SolrSettings) -> None:
    assert ids(pages, "年休 申請") == {"yukyu", "shinsei"}


def test_pc_finds_pasokon(pages: SolrSettings) -> None:
    assert ids(pages, "PC") == {"pc"}


@pytest.mark.parametrize(
    "query", ["?", "？", "??", "? ?", "?*", "-?", "+?", "(?)", "?:?", "title:?", '"?"']
)
def test_wildcards_alone_find_nothing_or_are_refused(pages: SolrSettings, query: str) -> None:
    try:
        found = ids(pages, query)
    except QueryError as exc:
        assert str(exc)  # refused with a message
        return
    assert found == set(), found


def test_a_question_mark_after_a_word_is_punctuation(pages: SolrSettings) -> None:
    assert ids(pages, "会議室?") == ids(pages, "会議室") == {"other", "question"}
    assert ids(pages, "会議室？") == ids(pages, "会議室")  # full width: never syntax


def test_a_field_keeps_a_trailing_wildcard_as_a_prefix(pages: SolrSettings) -> None:
    assert ids(pages, "serv*") == set()  # a plain word: * is a character
    assert ids(pages, "content:serv*") == {"server"}  # a field of uf: a prefix
    assert ids(pages, "content:*rver") == set()  # a leading one never expands
