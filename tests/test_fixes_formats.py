"""Formats leftovers of #11: a format crawl.formats leaves out has its own outcome, text
named like a document is judged alike with or without a declared type (crawl and
``indexer extract``), DOCX headings fill ``headings``."""

from __future__ import annotations

import io

import docx
from docx.enum.style import WD_STYLE_TYPE

from indexer import formats as ids
from indexer.extract.formats.ooxml import docx_document
from indexer.extract.formats.sniff import decide
from indexer.outcomes import Effect, Outcome, OutcomeClass, info
from tests.formats_fixtures import reportlab_pdf

URL = "http://127.0.0.1/files/report"
PDF = reportlab_pdf([["本文"]], title="題")
PAGE = b"<html><head><title>Not found</title></head><body><p>404</p></body></html>"


def test_an_excluded_format_is_not_a_broken_file() -> None:
    excluded = decide(PDF, "application/pdf", URL + ".pdf", ("html", "text"))
    broken = decide(b"\x89PNG\r\n\x1a\n" + bytes(64), "application/pdf", URL + ".pdf", ids.ALL)
    assert (excluded.format, excluded.outcome) == (None, "excluded-format")
    assert "pdf not in crawl.formats" in excluded.reason
    assert broken.outcome == "wrong-type"
    row = info("excluded-format")
    assert Outcome("excluded-format") in (Outcome.EXCLUDED_FORMAT,)
    assert (row.klass, row.effect) == (OutcomeClass.SKIPPED, Effect.DELETE_AFTER_GRACE)


def test_text_named_like_a_document_is_judged_alike_with_or_without_a_type() -> None:
    said = decide(PAGE, "application/pdf", URL + ".pdf", ids.ALL)
    for declared in (None, "", "application/octet-stream"):
        named = decide(PAGE, declared, URL + ".pdf", ids.ALL)
        assert (named.format, named.outcome) == (said.format, said.outcome) == (None, "wrong-type")
        assert "pdf" in named.reason and "text" in named.reason
    # the bytes still decide where they can, and text names keep what the text shows
    assert decide(PDF, None, URL + ".docx", ids.ALL).format == "pdf"
    assert decide(PAGE, None, URL + ".htm", ids.ALL).format == "html"
    assert decide(PAGE, None, URL + ".doc", ids.ALL).format == "html"  # Word's HTML export
    assert decide(b"a,b\n1,2\n", None, URL + ".csv", ids.ALL).format == "csv"
    assert decide(PAGE, None, URL, ids.ALL).format == "html"


def _headed_docx() -> bytes:
    document = docx.Document()
    document.add_heading("就業規則", level=0)  # Title style: the title, not a heading
    document.add_heading("第一章 総則", level=1)
    document.add_paragraph("この規則は社員の就業に関する事項を定める。")
    document.add_heading("第一条 目的", level=2)
    document.add_paragraph("本文の段落です。")
    house = document.styles.add_style("章見出し", WD_STYLE_TYPE.PARAGRAPH)
    house.base_style = document.styles["Heading 1"]
    document.add_paragraph("第二章 勤務", style=house)
    document.add_heading("付則", level=6)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_headings_are_listed_in_order() -> None:
    doc = docx_document(_headed_docx(), 10**8)
    assert doc.headings == ["第一章 総則", "第一条 目的", "第二章 勤務", "付則"]
    assert "本文の段落です。" in doc.text and "本文の段落です。" not in doc.headings
