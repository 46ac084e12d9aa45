"""Pure logic of search: preparing what users type, and cutting snippets."""

from __future__ import annotations

import pytest

from indexer.errors import QueryError
from indexer.solr.query import ONE_CHAR_QF, QueryOptions, prepare
from indexer.solr.snippets import bound, pick


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("大阪 検索", "大阪 AND 検索"),
        ("大阪\u3000検索", "大阪 AND 検索"),
        ("大阪 OR 検索", "大阪 OR 検索"),
        ("(大阪 OR 梅田) セキュリティ", "( 大阪 OR 梅田 ) AND セキュリティ"),
        ("SSD NOT インテル", "SSD NOT インテル"),
        ("大阪 -セキュリティ +梅田", "大阪 AND -セキュリティ AND +梅田"),
        ('"東京 都庁" 展望', '"東京 都庁" AND 展望'),
        ("title:検索 設定", "title:検索 AND 設定"),
    ],
)
def test_words_without_operator_are_joined_by_and(typed: str, sent: str) -> None:
    prepared = prepare(typed)
    assert prepared.q == sent
    assert prepared.params["q.op"] == "OR"


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("検索~", "検索\\~"),
        ("検索~2", "検索\\~2"),
        ("?", "\\?"),
        ("**", "\\*\\*"),
        ("*ache", "\\*ache"),
        ("url:*apache*", "url:\\*apache\\*"),
        ("/.*/", "\\/.\\*/"),
        ("{!lucene}*:*", "\\{!lucene}\\*:\\*"),
        ("apa*", "apa\\*"),
        ("会議室?", "会議室\\?"),
        ("a?c", "a\\?c"),
        ("title:apa*", "title:apa*"),
        ("title:*apa", "title:\\*apa"),
        ("title:?", "title:\\?"),
    ],
)
def test_fuzzy_leading_wildcard_and_regex_are_neutralised(typed: str, sent: str) -> None:
    assert prepare(typed).q == sent


def test_settings_may_allow_fuzzy_and_leading_wildcards() -> None:
    opts = QueryOptions(allow_fuzzy=True, allow_leading_wildcard=True)
    assert prepare("検索~1 *ache", opts).q == "検索~1 AND *ache"


def test_length_bound_and_empty_query_raise_a_clear_error() -> None:
    assert prepare("あ" * 1000).q == "あ" * 1000
    with pytest.raises(QueryError, match="1001 characters; at most 1000"):
        prepare("あ" * 1001)
    with pytest.raises(QueryError, match="at most 20"):
        prepare("検索" * 11, QueryOptions(max_chars=20))
    with pytest.raises(QueryError, match="empty"):
        prepare(" \u3000 ")


def test_one_character_queries() -> None:
    kana = prepare("の")
    assert kana.q == "の" and kana.params["qf"] == ONE_CHAR_QF
    kanji = prepare("「庁」")
    assert kanji.q == "庁 OR 庁*" and "qf" not in kanji.params
    assert prepare("ア").q == "ア OR ア*"
    assert prepare("ａ").params["qf"] == ONE_CHAR_QF


def test_long_snippet_is_cut_at_clause_ends_around_the_mark() -> None:
    before = "前置きの文章がここに長く続きます、" * 8
    after = "そのあとにも説明が長く続いています。" * 8
    snippet = f"{before}図書館の<em>休館日</em>は毎週月曜日です、{after}"
    cut = bound(snippet, limit=80)
    assert "<em>休館日</em>" in cut
    assert cut.startswith("…") and cut.endswith("…")
    visible = cut.replace("<em>", "").replace("</em>", "").strip("…")
    assert len(visible) <= 80
    assert visible[-1] in "、。"  # ends at a clause end
    assert visible.startswith("前置き") or visible.startswith("図書館")


def test_short_snippet_is_left_alone() -> None:
    assert bound("東<em>京都</em>の話。", limit=80) == "東<em>京都</em>の話。"


def test_pick_prefers_marked_content_then_adds_marked_bigram_snippets() -> None:
    fields = {
        "content": ["最初の文です。", "<em>大阪</em>の話です。"],
        "content_bigram": ["東<em>京都</em>の話です。", "<em>大阪</em>の話です。"],
    }
    assert pick(fields) == ["<em>大阪</em>の話です。", "東<em>京都</em>の話です。"]
    assert pick({"content": ["見出しだけ。"], "content_bigram": ["見出しだけ。"]}) == [
        "見出しだけ。"
    ]
    assert pick({"content_bigram": ["東<em>京都</em>\n庁舎"]}) == ["東<em>京都</em> 庁舎"]


def test_one_character_words_among_others() -> None:
    assert prepare("東京 の 天気").q == "東京 AND 天気"
    assert prepare("庁 展望").q == "(庁 OR 庁*) AND 展望"
    assert prepare("-庁 展望").q == "-(庁 OR 庁*) AND 展望"


def test_tilde_inside_a_word_is_text_not_fuzzy() -> None:
    assert prepare("9時~17時").q == "9時\\~17時"
    assert prepare('"受付 時間"~3').q == '"受付 時間"~3'  # phrase slop stays


def test_dangling_operators_are_dropped() -> None:
    assert prepare("大阪 OR の").q == "大阪"
    assert prepare("AND 大阪").q == "大阪"
    assert prepare("(大阪 OR) 梅田").q == "( 大阪 ) AND 梅田"
    assert prepare("OR").q == "OR"  # a lone operator is a word


def test_field_prefix_binds_to_its_group_or_phrase_and_gets_a_highlight_query() -> None:
    grouped = prepare("title:(経費)")
    assert grouped.q == "title:( 経費 )" and grouped.params["hl.q"] == "( 経費 )"
    phrase = prepare('title:"経費精算" 申請')
    assert phrase.q == 'title:"経費精算" AND 申請'
    assert phrase.params["hl.q"] == '"経費精算" AND 申請'
    assert prepare("-(大阪 梅田) 検索").q == "-( 大阪 AND 梅田 ) AND 検索"
    assert prepare('-"東京 都庁" 展望').q == '-"東京 都庁" AND 展望'
    assert "hl.q" not in prepare("host:intra 経費").params  # no text field named


def test_what_is_searched_otherwise_than_typed_is_noted() -> None:
    for typed in ("*", " *:* "):
        every = prepare(typed)
        assert every.q == "*:*" and every.params["defType"] == "lucene"
        assert [n.kind for n in every.notes] == ["all"]
    odd = prepare("url:*x* 検索~ 9時~17時 title:経費")
    assert [(n.kind, n.value) for n in odd.notes] == [
        ("field", "url"),
        ("wildcard", "url:*x*"),
        ("fuzzy", "検索~"),
    ]
    assert odd.notes[0].message() == "url: is not a searchable field; searched as text"
    assert prepare("大阪 検索").notes == ()
    assert prepare("会議室は? 何時").notes == ()  # a question mark: no note
    assert [n.kind for n in prepare("apa* 何時").notes] == ["wildcard"]


def test_control_characters_are_white_space() -> None:
    assert prepare("経費\x00精算\n申請").q == "経費 AND 精算 AND 申請"
    with pytest.raises(QueryError, match="empty"):
        prepare("\x00\x1f")


def test_user_fields_are_the_handlers_uf() -> None:
    from xml.etree import ElementTree

    from indexer.solr.query import USER_FIELDS
    from tests.conftest import CONFIGSET_DIR

    root = ElementTree.parse(CONFIGSET_DIR / "solrconfig.xml").getroot()
    uf = root.find(".//requestHandler[@name='/search']/lst/str[@name='uf']")
    assert uf is not None and set((uf.text or "").split()) == USER_FIELDS
