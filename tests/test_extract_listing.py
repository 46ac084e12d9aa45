"""Listing pages: every entry's title and excerpt, not only the first excerpt."""

from __future__ import annotations

from pathlib import Path

from indexer.extract import extract

FIXTURES = Path(__file__).parent / "fixtures" / "extract"
URL = "http://intra.example/news/"


def _entry(n: int, linked: bool) -> str:
    title = f"第{n}回 業務改善の報告"
    heading = f'<a href="/news/{n}.html">{title}</a>' if linked else title
    return (
        f'<div class="entry"><h2>{heading}</h2>'
        f"<p>第{n}回の報告では、申請書の電子化によって処理時間が大きく短くなった例を紹介します。……</p>"
        f'<p><a href="/news/{n}.html">続きを読む</a></p></div>'
    )


def test_listing_gives_every_entry_title_and_excerpt() -> None:
    doc = extract((FIXTURES / "listing.html").read_text(encoding="utf-8"), URL)
    titles = ("メールサーバの停止について", "パスワードの定期変更のお願い", "新しい複合機の使い方")
    excerpts = ("メールの送受信ができなくなります", "印刷物の取り忘れを", "パソコンの電源は")
    for line in (*titles, "ウイルス対策ソフトの更新", *excerpts):
        assert line in doc.text
    assert doc.text.startswith("お知らせ一覧\n")
    for furniture in ("続きを読む", "次のページ", "よくある質問", "Copyright"):
        assert furniture not in doc.text


def test_entries_in_document_order() -> None:
    page = f"<html><body><div id='news'>{''.join(_entry(n, True) for n in range(5))}</div>"
    lines = extract(page + "</body></html>", URL).text.splitlines()
    titles = [line for line in lines if line.endswith("業務改善の報告")]
    assert titles == [f"第{n}回 業務改善の報告" for n in range(5)]


def test_article_among_same_class_teasers_is_not_a_listing() -> None:
    article = "".join(
        f"<p>第{n}段落です。申請書の電子化で、承認までの日数が半分になりました。</p>"
        for n in range(4)
    )
    page = (
        f'<html><body><div id="doc"><div class="entry"><h1>業務改善の報告</h1>{article}</div>'
        f"{''.join(_entry(n, True) for n in range(3))}</div></body></html>"
    )
    text = extract(page, URL).text
    assert "第3段落です" in text
    assert "第1回 業務改善の報告" not in text
    assert "処理時間が大きく短くなった" not in text
