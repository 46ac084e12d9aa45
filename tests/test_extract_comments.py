"""Comment sections recognised by their heading text, without class names."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.extract import extract
from indexer.extract.comments import is_comment_heading

FIXTURES = Path(__file__).parent / "fixtures" / "extract"
URL = "http://intra.example/blog/entry.html"
ARTICLE = "".join(
    f"<p>第{i}段落です。新しい経費精算の手順について、申請から承認までの流れを説明します。</p>"
    for i in range(4)
)


@pytest.mark.parametrize(
    "text",
    [
        "コメント",
        "コメント（3件）",
        "この記事へのトラックバック",
        "Comments",
        "12 Comments",
        "Leave a Reply",
        "2 thoughts on “Moving the file server”",
        "One Response to 'Printer'",
    ],
)
def test_comment_section_headings_are_recognised(text: str) -> None:
    assert is_comment_heading(text)


@pytest.mark.parametrize(
    "text",
    [
        "Comments on the draft policy",
        "Recent Comments",
        "コメントの書き方について",
        "Immune Responses to Infection",
        "お知らせ",
    ],
)
def test_other_headings_are_not(text: str) -> None:
    assert not is_comment_heading(text)


def test_plain_div_comments_under_a_heading_are_left_out() -> None:
    html = (FIXTURES / "blog_comments_plain.html").read_text(encoding="utf-8")
    text = extract(html, URL).text
    assert "社内勉強会を開きました" in text
    assert "データベースの索引について取り上げる予定です" in text
    for comment in ("佐藤", "後半のログ解析の例がとても参考", "後読みの書き方", "お名前とコメント"):
        assert comment not in text


def test_comments_section_ends_at_the_next_heading_of_its_rank() -> None:
    thread = "".join(
        f"<div><div>利用者{i} (2006/10/1{i} 18:0{i})</div>"
        "<div>関数の先頭には、引数と戻り値の説明を日本語で書いてください。</div></div>"
        for i in range(3)
    )
    html = (
        f"<html><body><h1>コーディング規約</h1><h2>命名</h2>{ARTICLE}"
        f"<h2>コメント</h2>{thread}<h2>書式</h2>{ARTICLE.replace('第', '書式の第')}"
        "</body></html>"
    )
    text = extract(html, URL).text
    assert "引数と戻り値の説明" not in text
    assert "利用者0" not in text
    assert "書式の第3段落です" in text
    assert "第0段落です" in text


def test_documentation_section_headed_comment_in_the_middle_is_kept() -> None:
    html = (FIXTURES / "coding_standard_comment_section.html").read_text(encoding="utf-8")
    doc = extract(html, URL)
    assert "関数には必ず説明のコメントを書いてください" in doc.text
    assert "コメント" in doc.headings
    for section in ("変数名と関数名は英語の小文字", "インデントは空白四つで揃え"):
        assert section in doc.text


def test_comment_heading_before_any_content_cuts_nothing() -> None:
    comments = "".join(
        f"<div><div>利用者{i}</div><div>新しい経費精算の手順は分かりやすくなりました。申請が楽です。</div></div>"
        for i in range(5)
    )
    html = f"<html><body><h2>コメント一覧</h2>{comments}</body></html>"
    text = extract(html, URL).text
    assert "利用者4" in text and "申請が楽です" in text
