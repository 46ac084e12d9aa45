"""``indexer search`` on huge documents: every snippet it prints stays within the bound the
search side's picker sets (:data:`indexer.solr.snippets.SNIPPET_CHARS`), as on the web page,
whether the match lies in sentences, in one unbroken run of text or nowhere near the start."""

from __future__ import annotations

import json

import pytest
import requests

from indexer.cli import main
from indexer.cli.search_cmd import MARKS
from indexer.solr.snippets import SNIPPET_CHARS, pick

SENTENCE = "本規程は社内の文書管理について必要な事項を定めるものである。"
#: A passage a user pastes as the query: one long match, longer than the bound.
PASTED = (
    "第十二条電子計算機に記録された文書の保存期間は文書管理責任者が業務の性質に応じて定め"
    "保存期間を経過した文書は情報システム部門の立会いのもとで復元できない方法により消去し"
    "その記録を五年間保存しなければならない加えて外部記憶媒体に複製された文書についても同様"
    "とし媒体の廃棄に際しては物理的な破壊を行うものとする又は専門の業者に委託して確実に処理し"
    "その証明書を受領して文書管理簿に添付する"
)
#: Visible characters a printed snippet may hold: the bound, two ellipses, the marks.
ROOM = SNIPPET_CHARS + 2


def _visible(snippet: str) -> int:
    for mark in MARKS.values():
        snippet = snippet.replace(mark, "")
    return len(snippet)


def _documents(site: str) -> list[dict[str, object]]:
    pages = [SENTENCE * 40 for _ in range(400)]  # 400 pages of ~1,200 characters
    pages[120] = SENTENCE * 3 + PASTED + SENTENCE * 3
    pages[250] = "保存期間" + "あ" * 30_000 + "特定個人情報の保存期間" + "い" * 30_000
    run = "う" * 200_000 + "特定個人情報" + "え" * 200_000  # no clause end at all
    return [
        {"id": f"{site}/huge.pdf", "url": f"{site}/huge.pdf", "title": "文書管理規程",
         "content": "\n\n".join(pages), "format": "pdf"},
        {"id": f"{site}/run.pdf", "url": f"{site}/run.pdf", "title": "一続きの文書",
         "content": run, "format": "pdf"},
    ]  # fmt: skip


@pytest.mark.solr
def test_cli_snippets_are_bounded_on_huge_documents(
    solr_core: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    base_url, core = solr_core
    docs = _documents("http://127.0.0.1:9")
    resp = requests.post(
        f"{base_url}/{core}/update", params={"commit": "true"}, json=docs, timeout=60
    )
    resp.raise_for_status()
    assert len(PASTED) > ROOM
    for query in ("特定個人情報", "文書管理", "保存期間", PASTED):
        assert main(["search", "--solr", base_url, "--core", core, "--json", query]) == 0
        hits = json.loads(capsys.readouterr().out)["hits"]
        assert hits, query
        for hit in hits:
            assert hit["snippets"], (query, hit["url"])
            for snippet in hit["snippets"]:
                assert _visible(snippet) <= ROOM, (query, hit["url"], len(snippet))
        assert main(["search", "--solr", base_url, "--core", core, query]) == 0
        printed = capsys.readouterr().out.splitlines()
        shown = [line.strip()[2:-2] for line in printed if line.startswith("    … ")]
        assert shown and all(_visible(s) <= ROOM + 2 for s in shown), query


@pytest.mark.parametrize("before", ["", "前置き。", "あ" * 500])
@pytest.mark.parametrize("length", [SNIPPET_CHARS + 1, 3 * SNIPPET_CHARS, 5_000])
def test_a_mark_longer_than_the_bound_is_cut_and_closed(before: str, length: int) -> None:
    snippet = pick({"content": [before + "<em>" + "語" * length + "</em>" + "後" * 300]})[0]
    assert snippet.count("<em>") == snippet.count("</em>") == 1
    assert len(snippet.replace("<em>", "").replace("</em>", "")) <= ROOM


def test_cells_and_lines_of_documents_show_as_single_spaces() -> None:
    rows = "日付\t担当\t備考\n4/1\t佐々木\t<em>朝礼</em>当番\r\n\t\n4/2\t渡辺\t来客対応"
    shown = "日付 担当 備考 4/1 佐々木 <em>朝礼</em>当番 4/2 渡辺 来客対応"
    assert pick({"content": [rows]}) == [shown]
