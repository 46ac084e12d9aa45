"""``/search`` through the product's query path against the real Solr and configset:
operators, names with and without ・, fragments, precision, odd and long queries,
highlighting, synonyms after ``update-config``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from indexer.errors import QueryError
from indexer.settings import SolrSettings
from indexer.solr.search import search
from tests.conftest import CONFIGSET_DIR

pytestmark = pytest.mark.solr

Core = tuple[str, str]

PAGES = {
    "kyoto": "京都の寺を巡る旅。清水寺と金閣寺を歩きました。",
    "tocho": "東京都庁の展望室は無料です。",
    "jazz": "ノラ・ジョーンズが新しいアルバムを発表しました。",
    "grease": "サーマルグリスを塗り直すと冷却性能が上がります。",
    "log": "サーバのログを毎日確認します。",
    "osaka": "大阪の天気は晴れです。",
    "kensaku": "全文検索の仕組みを説明します。",
    "kensa": "健康診断と検査の日程です。",
    "manual": "操作方法を説明します。",
    "scatter": "作品の展示について。見る方は受付へどうぞ。",
}


def _index(core: Core, docs: list[dict[str, Any]]) -> None:
    base, name = core
    resp = requests.post(f"{base}/{name}/update", params={"commit": "true"}, json=docs, timeout=30)
    resp.raise_for_status()


@pytest.fixture
def pages(solr_core: Core) -> SolrSettings:
    docs: list[dict[str, Any]] = [{"id": k, "content": v} for k, v in PAGES.items()]
    docs.append({"id": "prog", "title": "プログラミング入門", "content": "入門書の紹介。"})
    _index(solr_core, docs)
    return SolrSettings(url=solr_core[0], core=solr_core[1])


def ids(cfg: SolrSettings, query: str) -> list[str]:
    return [hit["id"] for hit in search(cfg, query, rows=20)["hits"]]


def test_explicit_operators_do_what_they_say_and_words_default_to_all(
    pages: SolrSettings,
) -> None:
    assert set(ids(pages, "大阪 OR 検索")) == {"osaka", "kensaku"}
    assert ids(pages, "大阪 検索") == []
    assert ids(pages, "説明 NOT 検索") == ["manual"]
    assert ids(pages, "説明 -検索") == ["manual"]
    assert set(ids(pages, "(大阪 OR 京都) AND 寺")) == {"kyoto"}
    assert set(ids(pages, "(天気 OR 展示) (晴れ OR 受付)")) == {"osaka", "scatter"}


def test_names_match_with_and_without_middle_dot(pages: SolrSettings) -> None:
    for query in ("ノラジョーンズ", "ノラ・ジョーンズ", "ノラ･ジョーンズ", "ノラ＝ジョーンズ"):
        assert ids(pages, query) == ["jazz"], query
    assert ids(pages, "サーマル・グリス") == ["grease"]


def test_exact_words_rank_above_bigram_only_matches(pages: SolrSettings) -> None:
    assert ids(pages, "京都") == ["kyoto", "tocho"]
    assert ids(pages, "ログ")[0] == "log"  # not the page with プログラミング in its title


def test_fragment_tokens_must_be_close_not_scattered(pages: SolrSettings) -> None:
    assert ids(pages, "作方") == ["manual"]


def test_one_character_query_neither_floods_nor_misses(pages: SolrSettings) -> None:
    assert ids(pages, "の") == []  # a particle: Kuromoji drops it, no bigram flood
    assert "tocho" in ids(pages, "庁")  # 東京|都庁: found as a prefix of the bigram 庁の


def test_fuzzy_wildcard_and_field_syntax_are_plain_text(pages: SolrSettings) -> None:
    assert ids(pages, "検索~") == ["kensaku"]  # not 検査 by edit distance
    assert ids(pages, "?") == []
    assert len(ids(pages, "*")) == len(PAGES) + 1  # * alone: every document, said in a note
    assert ids(pages, "id:*") == []
    assert ids(pages, "url:*apache*") == []


def test_long_queries_give_results_or_a_clear_message(pages: SolrSettings) -> None:
    kana = ("あいうえおかきくけこ" * 100)[:1000]
    assert search(pages, kana)["numFound"] == 0
    assert search(pages, " ".join(["検索"] * 333))["numFound"] == 1
    assert search(pages, ("東京都庁の展望室 " * 120)[:1000])["numFound"] == 1
    with pytest.raises(QueryError, match="at most 1000"):
        search(pages, "あ" * 1001)
    # 333 different two-kanji words: past Lucene's 1,024-clause limit, a message, not a 500
    words = " ".join(chr(0x4E00 + 3 * i) + chr(0x4E01 + 3 * i) for i in range(333))
    with pytest.raises(QueryError, match="too complex"):
        search(pages, words)


def test_every_hit_containing_a_term_or_fragment_is_highlighted(pages: SolrSettings) -> None:
    for query in ("京都", "ノラジョーンズ", "作方", "検索", "サーマル・グリス", "ログ"):
        result = search(pages, query)
        for hit in result["hits"]:
            if PAGES.get(hit["id"]) is None:
                continue
            assert any("<em>" in s for s in hit["snippets"]), (query, hit)
    tocho = {h["id"]: h for h in search(pages, "京都")["hits"]}["tocho"]
    assert tocho["snippets"] == ["東<em>京都</em>庁の展望室は無料です。"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args], capture_output=True, text=True, timeout=300
    )


def test_synonym_finds_its_page_after_update_config(solr_core: Core, tmp_path: Path) -> None:
    base, core = solr_core
    _index(solr_core, [{"id": "vhost", "content": "バーチャルホストの設定方法。"}])
    cfg = SolrSettings(url=base, core=core)
    assert [h["id"] for h in search(cfg, "仮想ホスト")["hits"]] == ["vhost"]  # shipped entry
    assert search(cfg, "虚像サーバ")["numFound"] == 0
    edited = tmp_path / "conf"
    shutil.copytree(CONFIGSET_DIR, edited)
    with (edited / "synonyms_ja.txt").open("a", encoding="utf-8") as out:
        out.write("虚像サーバ,バーチャルホスト\n")
    try:
        proc = _cli("solr", "update-config", "--solr", base, "--core", core,
                    "--configset-dir", str(edited))  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "refresh needed: 1 of 1 documents" in proc.stdout  # no stamps on that doc
        assert [h["id"] for h in search(cfg, "虚像サーバ")["hits"]] == ["vhost"]
    finally:
        restore = _cli("solr", "update-config", "--solr", base, "--core", core,
                       "--configset-dir", str(CONFIGSET_DIR))  # fmt: skip
        assert restore.returncode == 0, restore.stderr
    assert search(cfg, "虚像サーバ")["numFound"] == 0


def test_cli_posts_long_queries_and_refuses_too_long_ones(pages: SolrSettings) -> None:
    common = ["search", "--solr", pages.url, "--core", pages.core]
    ok = _cli(*common, "検索 " + "あ" * 900)
    assert ok.returncode == 0, ok.stderr  # a GET of this length was refused with 414
    hits = _cli(*common, "京都")
    assert hits.returncode == 0 and "東【京都】庁" in hits.stdout
    too_long = _cli(*common, "あ" * 1001)
    assert too_long.returncode == 2
    assert "query too long: 1001 characters; at most 1000" in too_long.stderr
    assert "Traceback" not in too_long.stderr
