"""Subtree → text: block breaks, white space, East-Asian line joining, dropped elements."""

from __future__ import annotations

from lxml import html

from indexer.extract.text import collapse, node_text


def _text(fragment: str) -> str:
    return node_text(html.fragment_fromstring(fragment, create_parent="div"))


def test_blocks_and_br_become_lines() -> None:
    assert _text("<p>one</p><p>two<br>three</p><ul><li>a</li><li>b</li></ul>") == (
        "one\ntwo\nthree\na\nb"
    )


def test_table_cells_are_separated_by_a_space_and_rows_by_lines() -> None:
    assert _text(
        "<table><tr><th>名前</th><td>値</td></tr><tr><td>x</td><td>y</td></tr></table>"
    ) == ("名前 値\nx y")


def test_white_space_is_collapsed_and_empty_lines_dropped() -> None:
    assert _text("<p>  a \t  b\n c  </p><p>   </p><div>d</div>") == "a b c\nd"


def test_source_newline_between_wide_characters_disappears() -> None:
    assert (
        _text("<p>日本語の\n文章です。\nEnglish\nwords</p>") == "日本語の文章です。 English words"
    )


def test_collapse_keeps_a_space_between_latin_and_wide() -> None:
    assert collapse("abc\n日本") == "abc 日本"


def test_furigana_script_style_and_form_controls_are_dropped() -> None:
    fragment = (
        "<p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を読む</p>"
        "<script>var x = 1;</script><style>p{}</style>"
        "<form>名前<input value='x'><select><option>選択肢</option></select>"
        "<textarea>入力</textarea><button>送信</button></form>"
    )
    assert _text(fragment) == "漢字を読む\n名前"


def test_pre_keeps_its_line_breaks() -> None:
    assert _text("<pre>line 1\nline 2</pre>") == "line 1\nline 2"
