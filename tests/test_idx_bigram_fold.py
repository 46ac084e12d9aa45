"""The bigram fields' long-vowel folds as one mapping pass (issue #16: Solr's cost): the
tokens, positions and offsets of ``text_bigram`` equal those of the three patternReplace
char filters it replaced, on every line of the extract-ja gold texts holding ー or ・ and
on the edge cases of the rule, as Solr's field analysis reports them. So documents indexed
before the change hold the same terms: no schema_version bump, no refresh.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from indexer.solr.admin import local_config_dir
from indexer.solr.connection import SolrConnection
from tests.solr_fixtures import CONFIGSET_DIR

pytestmark = [pytest.mark.solr]
GOLD = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "extract-ja" / "gold"
CORE = "foldcheck"
#: The folds as they were (schema_version 4), frozen here to compare against.
PATTERNS = """
      <charFilter name="patternReplace" pattern="(?&lt;=[エケセテネヘメレゲゼデベペェ])ー"
                  replacement="イ"/>
      <charFilter name="patternReplace" pattern="(?&lt;=[オコソトノホモヨロゴゾドボポォョ])ー"
                  replacement="ウ"/>
      <charFilter name="patternReplace" pattern="ー+" replacement=""/>
"""
EDGES = [
    "エーー", "ーエー", "ーー", "ー", "Aー", "あー", "ぇー", "ヲー", "ヱー", "ァー", "ョー",
    "ェーェ", "フェース", "フェーズ", "ショー", "ショーー", "インターフェース", "コーヒー",
    "ｺｰﾋｰ", "ケーキ・ショー", "セ・ーラ", "ボリ・ラベ", "データセンター", "エンターテインメント",
    "ヴォーカル", "ユニフォーム", "東京ー大阪", "ーーーアー", "１２ー３４", "Ｅー", "えー と",
]  # fmt: skip


def _with_old_type(conf: Path) -> None:
    """Add ``text_bigram_before`` (text_bigram with the folds as they were) to ``conf``."""
    schema = conf / "schema.xml"
    text = schema.read_text(encoding="utf-8")
    block = re.search(r'<fieldType name="text_bigram".*?</fieldType>', text, re.S)
    assert block is not None
    line = '      <charFilter name="mapping" mapping="mapping-kana-long.txt"/>\n'
    assert block.group(0).count(line.strip()) == 2
    old = block.group(0).replace(line.strip(), PATTERNS.strip())
    old = old.replace('name="text_bigram"', 'name="text_bigram_before"')
    schema.write_text(text.replace("</schema>", old + "\n</schema>"), encoding="utf-8")


@pytest.fixture
def core(solr_base_url: str) -> Iterator[str]:
    """A core of our configset plus ``text_bigram_before``; unloaded after."""
    conn = SolrConnection(solr_base_url)
    configsets = local_config_dir(conn, "pages").parent.parent
    conf = configsets / CORE / "conf"
    shutil.rmtree(conf.parent, ignore_errors=True)
    shutil.copytree(CONFIGSET_DIR, conf)
    _with_old_type(conf)
    conn.get("/admin/cores", {"action": "CREATE", "name": CORE, "configSet": CORE})
    try:
        yield solr_base_url
    finally:
        params = {"action": "UNLOAD", "core": CORE, "deleteInstanceDir": "true"}
        conn.get("/admin/cores", params)
        shutil.rmtree(conf.parent, ignore_errors=True)


def _tokens(base: str, field_type: str, text: str) -> list[tuple[Any, ...]]:
    resp = requests.post(
        f"{base}/{CORE}/analysis/field",
        data={"analysis.fieldtype": field_type, "analysis.fieldvalue": text, "wt": "json"},
        timeout=60,
    )
    resp.raise_for_status()
    stages = resp.json()["analysis"]["field_types"][field_type]["index"]
    return [(t["text"], t["start"], t["end"], t["position"]) for t in stages[-1]]


def test_the_mapping_pass_gives_the_tokens_and_offsets_of_the_patterns(core: str) -> None:
    lines = [
        line
        for path in sorted(GOLD.glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if "ー" in line or "・" in line
    ]
    assert len(lines) > 300, "the gold texts moved"
    texts = [*EDGES, "\n".join(lines)]
    for text in texts:
        new, old = _tokens(core, "text_bigram", text), _tokens(core, "text_bigram_before", text)
        assert new == old, text[:80]
    assert [t[0] for t in _tokens(core, "text_bigram", "フェース")] == ["ヘイ", "イス"]
