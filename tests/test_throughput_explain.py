"""The explanation travels from the page's worker packed (issue #16): the worker compresses
its JSON lines, the crawl process stores the bytes as they came, and the admin views and
``indexer report --explain`` read the same lines as before."""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path

from indexer.crawl.frontier.extract_state import ExtractState
from indexer.extract import extract_page
from indexer.extract.explain import pack, to_lines, unpack
from indexer.pipeline.page import process_page

PAGE = (
    "<html><head><title>社内報 第7号</title></head><body>"
    "<header><nav><a href='/a'>総務</a> <a href='/b'>人事</a></nav></header><main>"
    "<h1>社内報 第7号</h1>"
    + "".join(f"<p>品質保証について説明します。第{i}項が変わりました。</p>" for i in range(40))
    + "</main><footer>総務部</footer></body></html>"
)
URL = "http://127.0.0.1/news/7.html"


def test_pack_round_trips_lines_and_empty() -> None:
    lines = '{"action": "kept", "text": "健康診断"}\n{"action": "dropped", "text": "ナビ"}'
    assert unpack(pack(lines)) == lines
    assert pack("") == b"" and unpack(b"") == ""


def test_the_worker_sends_its_explanation_packed_and_smaller() -> None:
    body = PAGE.encode("shift_jis")
    page = process_page(body, "text/html; charset=Shift_JIS", URL, (), 100, explain=True)
    expected = to_lines(extract_page(PAGE, URL, encoding="shift_jis", explain=True).decisions)
    assert expected and unpack(page.explanation) == expected
    assert len(page.explanation) * 3 < len(expected.encode("utf-8"))
    assert len(pickle.dumps(page)) < len(pickle.dumps(expected)) + len(body)
    assert process_page(body, "text/html; charset=Shift_JIS", URL, (), 100).explanation == b""


def test_packed_and_plain_explanations_read_back_alike(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "state.sqlite3", isolation_level=None)
    state = ExtractState(db)
    lines = '{"action": "kept", "reason": "semantic", "text": "申請手続き"}'
    state.save_packed_explanation(URL, 1, pack(lines))
    state.save_explanation("http://127.0.0.1/other", 1, lines)
    assert state.explanation(URL) == lines == state.explanation("http://127.0.0.1/other")
    db.close()
