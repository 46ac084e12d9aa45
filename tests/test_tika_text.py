"""The text and language of Tika's documents: a PowerPoint 97 slide-number field's ``*``
placeholder line is not text (a PPT converted from a deck whose notes page numbers its
slide, as python-pptx's notes master does); a sheet of kanji without kana is Japanese."""

from __future__ import annotations

import asyncio
import importlib.util
import shutil
from pathlib import Path

import pytest
from pptx import Presentation

from indexer.extract.formats import ParsedDocument
from indexer.extract.formats.fields import guess_lang
from indexer.extract.formats.tika import tika_extracted
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import FIXTURES, built_service

SHEET = "氏名,部署,金額\n山田一郎,総務部,12000\n佐藤花子,経理部,3400\n"


def test_placeholder_lines_of_a_ppt_are_dropped_and_only_a_ppts() -> None:
    answer = {"text": "\n予算\n\t•\nメモです\n*\n‹#›\n\t* *\n日程\n", "metadata": {}}
    assert tika_extracted("ppt", answer).text == "予算\nメモです\n日程"
    assert "*" in tika_extracted("doc", answer).text  # a document's "*" line is its own


def test_kanji_without_kana_is_japanese_unless_chinese_forms_show() -> None:
    assert guess_lang(SHEET.replace(",", "\t")) == "ja"
    assert guess_lang("経費精算一覧表 四月 出張旅費精算") == "ja"
    assert guess_lang("我们这个问题说得对不对") is None  # simplified Chinese
    assert guess_lang("這個問題我們說過了") is None  # traditional Chinese
    assert guess_lang("서울특별시 중구 東京") is None  # Hangul: under half kanji
    assert guess_lang("Budget 2024 (FY)") is None


def _converted(work: Path) -> dict[str, Path]:
    """A PPTX with notes (numbered by its notes master) and a sheet of kanji, by LibreOffice
    into PPT and XLS."""
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    deck = Presentation()
    for title, body, notes in (
        ("予算の説明", "第一四半期の予算", "ここは発表者のメモです"),
        ("日程", "四月に開始", "質問は最後に"),
    ):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = body
        slide.notes_slide.notes_text_frame.text = notes
    deck.save(work / "notes.pptx")
    rows = [line.split(",") for line in SHEET.splitlines()]
    sheet = maker._document(  # no dc:language: the text alone decides
        "application/vnd.oasis.opendocument.spreadsheet",
        "名簿",
        f"<office:spreadsheet>{maker._sheet('名簿', rows)}</office:spreadsheet>",
    ).replace("<dc:language>ja-JP</dc:language>", "")
    (work / "names.fods").write_text(sheet, encoding="utf-8")
    maker.convert(work / "notes.pptx", "ppt:MS PowerPoint 97", work, work)
    maker.convert(work / "names.fods", "xls:MS Excel 97", work, work)
    return {"ppt": work / "notes.ppt", "xls": work / "names.xls"}


@pytest.mark.slow
def test_libreoffice_ppt_notes_and_a_kanji_sheet_through_tika(tmp_path: Path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("needs LibreOffice (soffice)")
    files = _converted(tmp_path)
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 2)

    async def parse(fmt: str) -> object:
        return await tika.parse(
            Job(fmt, files[fmt].read_bytes(), f"http://127.0.0.1/a.{fmt}", None)
        )

    try:
        ppt, xls = (asyncio.run(parse(fmt)) for fmt in ("ppt", "xls"))
    finally:
        tika.close()
    assert isinstance(ppt, ParsedDocument) and isinstance(xls, ParsedDocument), (ppt, xls)
    lines = ppt.extracted.text.splitlines()
    assert "ここは発表者のメモです" in lines and "質問は最後に" in lines, lines
    assert "*" not in lines, lines
    assert "山田一郎" in xls.extracted.text and xls.extracted.lang == "ja", xls.extracted
