"""The bundled configset's Japanese analysis and /search handler, against the real Solr."""

from __future__ import annotations

from typing import Any

import pytest
import requests

pytestmark = pytest.mark.solr

Core = tuple[str, str]


def index(core: Core, *docs: dict[str, Any]) -> None:
    """Add ``docs`` to the core and commit (visible to the next search)."""
    base, name = core
    resp = requests.post(
        f"{base}/{name}/update", params={"commit": "true"}, json=list(docs), timeout=30
    )
    resp.raise_for_status()


def search(core: Core, q: str, **params: str) -> dict[str, Any]:
    """Run ``q`` through ``/search`` (our edismax defaults) and return the JSON answer."""
    base, name = core
    resp = requests.get(f"{base}/{name}/search", params={"q": q, **params}, timeout=30)
    resp.raise_for_status()
    answer: dict[str, Any] = resp.json()
    return answer


def found_ids(core: Core, q: str, **params: str) -> set[str]:
    return {doc["id"] for doc in search(core, q, **params)["response"]["docs"]}


def analyze(core: Core, field: str, text: str, *, query: bool = False) -> list[str]:
    """Tokens that ``field`` produces for ``text`` (analysis API, last stage)."""
    stages = _analysis_stages(core, field, text, query=query)
    return [token["text"] for token in stages[-1]]


def char_filtered(core: Core, field: str, text: str) -> str:
    """The text of ``field``'s index analyzer after its last char filter."""
    stages = _analysis_stages(core, field, text, query=False)
    texts = [stage for stage in stages if isinstance(stage, str)]
    assert texts, "the field has no char filter"
    return texts[-1]


def _analysis_stages(core: Core, field: str, text: str, *, query: bool) -> list[Any]:
    base, name = core
    key = "analysis.query" if query else "analysis.fieldvalue"
    resp = requests.get(
        f"{base}/{name}/analysis/field",
        params={"analysis.fieldname": field, key: text, "wt": "json"},
        timeout=30,
    )
    resp.raise_for_status()
    flat: list[Any] = resp.json()["analysis"]["field_names"][field]["query" if query else "index"]
    # The JSON is a flat list alternating stage class name and stage output.
    return flat[1::2]


def test_word_finds_longer_compound(solr_core: Core) -> None:
    index(solr_core, {"id": "tokyo-to", "content": "東京都の観光案内をまとめました。"})
    index(solr_core, {"id": "osaka", "content": "大阪府の観光案内をまとめました。"})
    assert found_ids(solr_core, "東京") == {"tokyo-to"}


def test_bigram_field_finds_fragment_that_kuromoji_splits_elsewhere(solr_core: Core) -> None:
    text = "東京都庁の展望室は無料です。"
    # Kuromoji reads 東京|都庁: no 京都 token; the bigram copy has one.
    assert "京都" not in analyze(solr_core, "content", text)
    assert "京都" in analyze(solr_core, "content_bigram", text)
    index(solr_core, {"id": "tocho", "content": text})
    assert found_ids(solr_core, "京都", qf="content") == set()
    assert found_ids(solr_core, "京都") == {"tocho"}


def test_full_width_latin_finds_ascii(solr_core: Core) -> None:
    index(solr_core, {"id": "abc", "content": "abc corporation annual report"})
    assert found_ids(solr_core, "ＡＢＣ") == {"abc"}


def test_half_width_katakana_finds_full_width(solr_core: Core) -> None:
    index(solr_core, {"id": "kana", "content": "カタカナ表記の統一について"})
    assert found_ids(solr_core, "ｶﾀｶﾅ") == {"kana"}


def test_wave_dash_and_fullwidth_tilde_are_one_character(solr_core: Core) -> None:
    wave, fullwidth = "受付 9時\u301c17時", "受付 9時\uff5e17時"
    # NFKC maps U+FF5E to "~" but leaves U+301C: our mapping char filter does the rest.
    # (Only the wave dash text is compared: the analysis API shows the ICU char filter's
    # output truncated when normalization changed the text, a display quirk of Solr 9.10.)
    assert char_filtered(solr_core, "content", wave) == "受付 9時~17時"
    for field in ("content", "content_bigram"):
        assert analyze(solr_core, field, wave) == analyze(solr_core, field, fullwidth)
    index(solr_core, {"id": "wave", "content": "窓口の受付時間は9時\u301c17時です。"})
    index(solr_core, {"id": "tilde", "content": "電話の受付時間は10時\uff5e16時です。"})
    assert found_ids(solr_core, "9時\uff5e17時") == {"wave"}
    assert found_ids(solr_core, "10時\u301c16時") == {"tilde"}


def test_old_kanji_form_finds_common_form(solr_core: Core) -> None:
    index(solr_core, {"id": "name", "content": "担当は高橋と山崎です。"})
    assert found_ids(solr_core, "髙橋") == {"name"}
    assert found_ids(solr_core, "山﨑") == {"name"}


def test_greeting_does_not_match_other_greeting(solr_core: Core) -> None:
    index(solr_core, {"id": "evening", "content": "こんばんは、皆さん。"})
    assert found_ids(solr_core, "こんばんは") == {"evening"}
    assert found_ids(solr_core, "こんにちは") == set()


def test_highlight_snippet_marks_the_hit(solr_core: Core) -> None:
    filler = "この段落は検索語を含みません。" * 200
    text = f"{filler}図書館の休館日は毎週月曜日です。{filler}"
    index(solr_core, {"id": "library", "content": text})
    answer = search(solr_core, "休館日")
    snippets = answer["highlighting"]["library"]["content"]
    # phrase per word: the tokens 休館|日 are marked as one
    assert any("<em>休館日</em>" in s and "月曜日" in s for s in snippets)
    assert all(len(s) < len(text) // 10 for s in snippets)


def test_query_parsing_uses_phrases_for_bigrams_and_requires_every_word(
    solr_core: Core,
) -> None:
    index(
        solr_core,
        {"id": "three", "content": "東京の観光と大阪のグルメ"},
        {"id": "two", "content": "東京の観光"},
    )
    answer = search(solr_core, "こんにちは", debugQuery="true")
    parsed = answer["debug"]["parsedquery_toString"]
    assert 'content_bigram:"こん んに にち ちは"' in parsed
    # q.op=AND, no mm: every word is required, however many there are.
    assert found_ids(solr_core, "東京 観光") == {"three", "two"}
    assert found_ids(solr_core, "東京 観光 大阪") == {"three"}
    assert found_ids(solr_core, "東京 観光 大阪 グルメ 名古屋") == set()


def test_facets_on_host_content_type_and_lang(solr_core: Core) -> None:
    index(
        solr_core,
        {
            "id": "a",
            "content": "社内規程",
            "host": "wiki.example",
            "lang": "ja",
            "content_type": "text/html",
        },
        {
            "id": "b",
            "content": "社内規程の改訂",
            "host": "docs.example",
            "lang": "ja",
            "content_type": "text/html",
        },
    )
    fields = search(solr_core, "社内規程")["facet_counts"]["facet_fields"]
    assert fields["host"] == ["docs.example", 1, "wiki.example", 1]
    assert fields["lang"] == ["ja", 2]
    assert fields["content_type"] == ["text/html", 2]
