"""Plain text, where detection alone decides: short kanji-only EUC-JP, Latin lines, UTF-8
with stray cp932 bytes, and the ``guess`` source for answers made on thin evidence."""

from __future__ import annotations

import dataclasses

import pytest

from indexer.encoding import decode_body
from indexer.encoding.prior import COMMON_KANJI, kanji_prior
from indexer.extract.formats import NOT_TEXT
from indexer.models import ExtractedDoc
from indexer.outcomes import Outcome
from indexer.pipeline.page import ProcessedPage
from indexer.pipeline.verdict import Facts, judge

URL = "http://127.0.0.1/notice.txt"

KANJI_ONLY = [
    "営業部会議室予約一覧",
    "本社総務部人事課長",
    "経理部予算編成資料",
    "品質管理部門年次報告",
]
NOTICE = (
    "健康診断のお知らせ\n\n今年度の定期健康診断を下記のとおり実施します。"
    "対象は全社員です。受診票は各部の庶務担当から配布しますので、当日必ず持参してください。"
    "都合の悪い方は、総務部人事課まで早めに連絡してください。\n"
)


def test_the_prior_is_the_education_kanji() -> None:
    assert len(COMMON_KANJI) == 1026  # MEXT 学年別漢字配当表, six grades
    assert kanji_prior("営業部会議室") == (1.0, 6)
    assert kanji_prior("大한민국")[0] == 0.25  # hangul counts as not common kanji
    assert kanji_prior("abc") == (0.0, 0)


@pytest.mark.parametrize("text", KANJI_ONLY)
def test_short_kanji_only_euc_jp_is_not_read_as_chinese(text: str) -> None:
    result = decode_body(text.encode("euc_jp"), "text/plain")
    assert (result.text, result.encoding, result.source) == (text, "euc_jp", "guess")


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("中华人民共和国国务院办公厅关于进一步加强政府网站管理工作的通知", "gb18030"),
        ("대한민국 정부는 국민의 안전을 위해 최선을 다하고 있습니다", "euc_kr"),
    ],
)
def test_short_chinese_and_korean_stay_what_they_are(text: str, codec: str) -> None:
    result = decode_body(text.encode(codec), "text/plain")
    assert (result.text, result.encoding) == (text, codec)


@pytest.mark.parametrize(
    "text",
    ["Café naïve résumé façade", "Price: 10€ – “special” offer", "Grüße aus München"],
)
def test_a_latin_line_is_windows_1252_not_an_exotic_code_page(text: str) -> None:
    result = decode_body(text.encode("cp1252"), "text/plain")
    assert (result.text, result.encoding, result.source) == (text, "windows-1252", "guess")


def test_utf8_with_a_few_stray_cp932_bytes_stays_utf8() -> None:
    body = (NOTICE * 2).encode("utf-8") + "表".encode("cp932") + NOTICE.encode("utf-8")
    result = decode_body(body, "text/plain")
    assert (result.encoding, result.replacements) == ("utf-8", 1)
    assert result.text.startswith(NOTICE)


@pytest.mark.parametrize("codec", ["cp932", "euc_jp", "utf-8", "iso2022_jp"])
def test_a_23_byte_input_is_a_guess_a_2kb_page_is_not(codec: str) -> None:
    short = "停電のお知らせ：本館一階です".encode(codec)[:23]
    if codec in ("cp932", "euc_jp"):  # a cut double-byte character is not the point here
        short = "停電のお知らせ：本館一階".encode(codec)[:23]
        assert decode_body(short, "text/plain").source == "guess"
    page = (NOTICE * 10).encode(codec)
    assert 2000 <= len(page) <= 6000
    result = decode_body(page, "text/plain")
    assert result.text == NOTICE * 10
    assert result.source in ("sniff", "detected"), result.source


def test_the_verdict_reports_a_guess_and_a_document_outcome() -> None:
    short = "お知らせ".encode("cp932")
    decoded = decode_body(short, "text/plain")
    doc = ExtractedDoc("お知らせ", "お知らせ", format="text")
    base = Facts(url=URL, final_url=URL, x_robots_tag="", page=ProcessedPage(decoded, doc))
    verdict = judge(dataclasses.replace(base, digest="h"))
    assert verdict.outcome == Outcome.INDEXED and verdict.reason == "encoding guessed: cp932"
    failed = ProcessedPage(NOT_TEXT, None, "password-protected PDF", "encrypted")
    verdict = judge(dataclasses.replace(base, page=failed))
    assert (verdict.outcome, verdict.reason) == (Outcome.ENCRYPTED, "password-protected PDF")
    assert not verdict.index and not verdict.follow
