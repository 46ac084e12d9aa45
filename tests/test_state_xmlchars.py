"""Strings we write hold only XML 1.0 ``Char`` characters; the removals are counted."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from indexer.index.xmlchars import clean_text, clean_value
from indexer.report import RunStats, format_summary, format_url_line
from tests.faultserver import FaultServer, Reply, crawl

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@pytest.mark.parametrize(
    ("raw", "kept", "removed"),
    [
        ("plain 日本語 text", "plain 日本語 text", 0),
        ("tab\tnew\nline\rcr", "tab\tnew\nline\rcr", 0),
        ("a\x01b\x05c\x07d\x14e\x1f", "abcde", 5),
        ("nul\x00", "nul", 1),
        ("lone \ud800 surrogate \udfff", "lone  surrogate ", 2),
        ("non-chars \ufffe\uffff end", "non-chars  end", 2),
        ("\x7f and \x85 stay (XML 1.0 allows them)", "\x7f and \x85 stay (XML 1.0 allows them)", 0),
        ("astral 𠮷 \U0010ffff kept", "astral 𠮷 \U0010ffff kept", 0),
    ],
)
def test_clean_text_keeps_exactly_the_char_production(raw: str, kept: str, removed: int) -> None:
    assert clean_text(raw) == (kept, removed)


def test_clean_value_walks_lists_and_dicts() -> None:
    value = {"title": "a\x01", "headings": ["b\x02", "c"], "depth": 3, "k\x03": None}
    assert clean_value(value) == ({"title": "a", "headings": ["b", "c"], "depth": 3, "k": None}, 3)


def test_report_and_summary_lines_hold_no_control_characters() -> None:
    assert format_url_line("http://127.0.0.1/\x01", "timeout", "slow\x07 host") == (
        "http://127.0.0.1/\ttimeout\tslow host"
    )
    stats = RunStats()
    stats.record("http-500", "Internal\x00 Error\x1b[31m")
    stats.removed_chars = 4
    summary = stats.summary()
    text = format_summary(summary) + json.dumps(summary, ensure_ascii=False)
    assert not NOT_XML.search(text) and "removed 4 characters" in text


def test_a_crawled_page_with_controls_is_written_clean(tmp_path: Path) -> None:
    title = "Report\x01 of\x05 the\x07 month\x14"
    body = (
        "<!doctype html><html><head><meta charset=utf-8>"
        f"<title>{title}</title><meta name=description content='Desc\x0b ription'></head>"
        "<body><main><h1>Head\x02ing</h1><p>"
        + "Text with a bell\x07 and a form feed\x0c inside, written by an old word processor. " * 8
        + "</p></main></body></html>"
    )
    with FaultServer() as srv:
        srv.route("/", Reply(body=body))
        srv.route("/robots.txt", Reply(status=404, body="none"))
        run = asyncio.run(crawl([srv.url("/")], tmp_path / "data"))
    assert run.outcome(srv.url("/")) == "indexed"
    (doc,) = run.docs
    strings = [v for v in doc.values() if isinstance(v, str)]
    strings += [s for v in doc.values() if isinstance(v, list) for s in v if isinstance(s, str)]
    assert not any(NOT_XML.search(s) for s in strings), strings
    assert doc["title"] == "Report of the month"
    assert run.stats.removed_chars >= 4 + 16  # title, then the text's bells and form feeds
    assert run.stats.summary()["removed_characters"] == run.stats.removed_chars
