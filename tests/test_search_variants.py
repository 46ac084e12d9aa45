"""Katakana spelling variants in the bigram fields (f-row ファ/フォ as ハ/ホ, an e-/o-row long
vowel as イ/ウ): real Solr, the bundled configset, and the change reaching an existing core
through ``indexer solr update-config``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.index.versions import stamps
from indexer.settings import SolrSettings
from indexer.solr.search import search
from tests.conftest import CONFIGSET_DIR
from tests.test_schema_analysis import analyze
from tests.test_search_handler import _index
from tests.test_search_handler import ids as _ids

pytestmark = pytest.mark.solr

Core = tuple[str, str]
PAGES = {
    "uniform": "新しいユニフォームを発表しました。",
    "interface": "ネットワークインターフェイスを二つ備えます。",
    "face": "フェイスブックの投稿を集めました。",
    "show": "トーキョーショーの案内です。",
    "anime": "アニメイベントの会場はこちら。",
    "life": "ライフイベントごとの手続きと富士フイルムの写真展。",
    "form": "入力フォームに名前を書きます。",
    "home": "駅のホームで待ち合わせます。",
}


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("インターフェース", "インターフェイス"),
        ("インタフェース", "インターフェイス"),
        ("ユニホーム", "ユニフォーム"),
        ("フィルム", "フイルム"),
        ("トウキョウ", "トーキョー"),
        ("メール", "メイル"),
        ("ヴァイオリン", "バイオリン"),
    ],
)
def test_variant_spellings_analyze_alike_in_the_bigram_field(
    solr_core: Core, one: str, other: str
) -> None:
    assert analyze(solr_core, "content_bigram", one) == analyze(solr_core, "content_bigram", other)
    assert analyze(solr_core, "content_bigram", one, query=True) == analyze(
        solr_core, "content_bigram", other
    )


def test_the_fold_moves_no_word_boundary_and_keeps_exact_words_first(solr_core: Core) -> None:
    _index(solr_core, [{"id": k, "content": v} for k, v in PAGES.items()])
    cfg = SolrSettings(url=solr_core[0], core=solr_core[1])
    assert _ids(cfg, "ユニホーム") == ["uniform"]
    assert _ids(cfg, "インターフェース") == ["interface"]
    assert _ids(cfg, "トウキョウショウ") == ["show"]
    # イ after an e-row kana is not taken for a long vowel: イベント stays findable
    assert set(_ids(cfg, "イベント")) == {"anime", "life"}  # ライフイベント: Kuromoji's words
    assert _ids(cfg, "フィルム") == ["life"]
    # フォーム and ホーム merge in the bigram field only: the exact word ranks first
    assert _ids(cfg, "フォーム")[0] == "form"
    assert _ids(cfg, "ホーム")[0] == "home"
    hit = search(cfg, "ユニホーム")["hits"][0]
    assert hit["snippets"] == ["新しい<em>ユニフォーム</em>を発表しました。"]


def _without_kana_fold(target: Path) -> Path:
    """A copy of the configset as it was before the fold (schema_version 2)."""
    shutil.copytree(CONFIGSET_DIR, target)
    schema = target / "schema.xml"
    text = schema.read_text(encoding="utf-8")
    text = text.replace('<charFilter name="mapping" mapping="mapping-kana-bigram.txt"/>', "")
    long_vowels = '<charFilter name="mapping" mapping="mapping-kana-long.txt"/>'
    assert text.count(long_vowels) == 2
    text = text.replace(
        long_vowels, '<charFilter name="patternReplace" pattern="ー+" replacement=""/>'
    )
    assert (
        'mapping="mapping-kana-long.txt"' not in text
        and 'mapping="mapping-kana-bigram.txt"' not in text
    )
    schema.write_text(text, encoding="utf-8")
    return target


def _update_config(base: str, core: str, configset: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "solr", "update-config", "--solr", base,
         "--core", core, "--configset-dir", str(configset)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_update_config_brings_the_fold_to_an_existing_core(solr_core: Core, tmp_path: Path) -> None:
    base, core = solr_core
    cfg = SolrSettings(url=base, core=core)
    doc = {"id": "uniform", "content": PAGES["uniform"], "schema_version": 2}
    doc["extractor_version"] = stamps()["extractor_version"]
    try:
        _update_config(base, core, _without_kana_fold(tmp_path / "old"))
        _index(solr_core, [doc])
        assert _ids(cfg, "ユニホーム") == []
        out = _update_config(base, core, CONFIGSET_DIR)
        assert "refresh needed: 1 of 1 documents" in out
        assert _ids(cfg, "ユニホーム") == []  # the old document keeps its old terms
        _index(solr_core, [{**doc, **stamps()}])  # what `reindex --refresh` sends
        assert _ids(cfg, "ユニホーム") == ["uniform"]
    finally:
        _update_config(base, core, CONFIGSET_DIR)
