"""An RTF title in the default font's code page (``\\fcharset128``, no ``\\ansicpg``)."""

from __future__ import annotations

import asyncio

import pytest

from indexer.extract.formats import ParsedDocument
from indexer.extract.formats.rtfinfo import default_font_codec, with_info_charset
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service


def _escaped(text: str, codec: str) -> bytes:
    return "".join(f"\\'{b:02x}" for b in text.encode(codec)).encode("ascii")


def _rtf(title: str, body: str, charset: int, codec: str, cpg: bytes = b"") -> bytes:
    fonts = b"{\\fonttbl{\\f0\\froman Times;}{\\f1\\fnil\\fcharset%d Font;}}" % charset
    return (
        b"{\\rtf1\\ansi"
        + cpg
        + b"\\deff1"
        + fonts
        + b"{\\info{\\title "
        + _escaped(title, codec)
        + b"}}\\pard\\plain\\f1 "
        + _escaped(body, codec)
        + b"\\par}"
    )


@pytest.mark.parametrize(
    ("charset", "codec", "title"),
    [
        (128, "cp932", "就業規則"),
        (129, "cp949", "취업규칙"),
        (134, "gbk", "规章制度"),
        (136, "big5", "規章制度"),
    ],
)
def test_the_info_escapes_follow_the_default_font_charset(
    charset: int, codec: str, title: str
) -> None:
    rtf = _rtf(title, "本文", charset, codec)
    assert default_font_codec(rtf) == codec
    rewritten = with_info_charset(rtf)
    units = [ord(c) - 0x10000 if ord(c) > 0x7FFF else ord(c) for c in title]  # signed 16 bit
    assert b"{\\title {\\uc1 " + b"".join(b"\\u%d?" % u for u in units) + b"}}" in rewritten
    assert rewritten.endswith(b"\\pard\\plain\\f1 " + _escaped("本文", codec) + b"\\par}")


def test_an_ansicpg_or_a_western_default_font_leaves_the_rtf_as_it_is() -> None:
    named = _rtf("就業規則", "本文", 128, "cp932", b"\\ansicpg932")
    assert with_info_charset(named) == named
    western = _rtf("Fiche", "Texte", 0, "cp1252")
    assert with_info_charset(western) == western


def test_tika_reads_a_fcharset128_title_as_japanese() -> None:
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 1)
    rtf = _rtf("就業規則改定のお知らせ", "有給休暇の申請は五営業日前まで", 128, "cp932")
    try:
        answer = asyncio.run(tika.parse(Job("rtf", rtf, "http://127.0.0.1/a.rtf", None)))
    finally:
        tika.close()
    assert isinstance(answer, ParsedDocument), answer
    assert answer.extracted.title == "就業規則改定のお知らせ"
    assert "有給休暇の申請は五営業日前まで" in answer.extracted.text
