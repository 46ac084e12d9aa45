"""The decoding chain (indexer.encoding.decode_body) on byte fixtures built here."""

from __future__ import annotations

import gzip
import random

import pytest

from indexer.encoding import decode_as, decode_body, detect

SJIS_HEADER = "text/html; charset=Shift_JIS"
# Natural sentences, each under 100 bytes in its legacy encoding.
SHORT_JA = "今日は良い天気ですね。明日も晴れるでしょう。"
HIRAGANA_ONLY = "こんにちは、きょうはとてもよいおてんきですね。ありがとうございました。"
HALFWIDTH_KATAKANA = "ｺﾝﾋﾟｭｰﾀｰ ｿﾌﾄｳｪｱ ｶﾀﾛｸﾞ ﾀﾞｳﾝﾛｰﾄﾞ ｻｰﾋﾞｽ ｾﾝﾀｰ ｱﾝﾅｲ"
UTF16_TEXT = "日本語のテキストです。\r\nこれは二行目です。\r\nABC 123\r\n"


def _random_bytes(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def test_wave_dash_and_minus_decode_as_browsers_do() -> None:
    sjis = decode_body(b"\x81\x60\x81\x7c", SJIS_HEADER)
    euc = decode_body(b"<meta charset=euc-jp>\xa1\xc1\xa1\xdd")
    assert sjis.text == "\uff5e\uff0d"
    assert euc.text.endswith("\uff5e\uff0d")
    assert (sjis.encoding, euc.encoding) == ("cp932", "euc_jp")


def test_nec_and_ibm_characters_under_a_shift_jis_header() -> None:
    result = decode_body("丸①付き、髙島屋".encode("cp932"), SJIS_HEADER)
    assert (result.text, result.encoding, result.source) == ("丸①付き、髙島屋", "cp932", "header")
    assert result.replacements == 0


@pytest.mark.parametrize(
    ("label", "encoding", "body_codec"),
    [
        ("x-sjis", "cp932", "cp932"),
        ("windows-31j", "cp932", "cp932"),
        ("MS932", "cp932", "cp932"),
        ("csShiftJIS", "cp932", "cp932"),
        ("shift-jis", "cp932", "cp932"),
        ("x-euc-jp", "euc_jp", "euc_jp"),
        ("unicode", "utf-16le", "utf-16-le"),
    ],
)
def test_unusual_header_labels(label: str, encoding: str, body_codec: str) -> None:
    text = "ご注文ありがとうございます。\n"
    result = decode_body(text.encode(body_codec), f'text/html; charset="{label}"')
    assert (result.text, result.encoding, result.source) == (text, encoding, "header")


def test_latin1_header_loses_to_a_shift_jis_meta() -> None:
    body = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
    body += "<p>お知らせ：会議は午後３時からです。</p>"
    result = decode_body(body.encode("cp932"), "text/html; charset=ISO-8859-1")
    assert (result.encoding, result.source) == ("cp932", "meta")
    assert "会議は午後３時" in result.text
    assert result.hints == ("header:iso-8859-1",)


def test_latin1_header_loses_to_valid_utf8() -> None:
    body = "<p>Hyvää päivää, tervetuloa Helsinkiin.</p>".encode()
    result = decode_body(body, "text/html; charset=iso-8859-1")
    assert (result.encoding, result.text) == ("utf-8", body.decode())
    assert "header:iso-8859-1" in result.hints


def test_latin1_header_loses_to_undeclared_japanese() -> None:
    # Tomcat and Apache send ISO-8859-1 by default; the bytes say Shift_JIS.
    text = "<p>お知らせ：来週の月曜日は社内システムのメンテナンスを行います。</p>"
    result = decode_body(text.encode("cp932"), "text/html; charset=ISO-8859-1")
    assert (result.text, result.encoding) == (text, "cp932")
    assert result.hints == ("header:iso-8859-1",)


def test_latin1_header_is_kept_for_latin1_text() -> None:
    body = "<p>Café crème, déjà vu — à bientôt.</p>".encode("cp1252")
    result = decode_body(body, "text/html; charset=iso-8859-1")
    assert (result.encoding, result.source) == ("windows-1252", "header")
    assert result.text == body.decode("cp1252")


@pytest.mark.parametrize(
    ("declared", "text", "codec", "expected"),
    [
        ("euc-jp", "社内ポータルへようこそ。今月の予定をお知らせします。", "cp932", "cp932"),
        ("shift_jis", HIRAGANA_ONLY, "euc_jp", "euc_jp"),
        ("utf-8", "<p>Grüße aus München – schöne Tage.</p>", "cp1252", "windows-1252"),
    ],
)
def test_meta_naming_the_wrong_encoding(
    declared: str, text: str, codec: str, expected: str
) -> None:
    result = decode_body(f"<meta charset={declared}>{text}".encode(codec))
    assert result.encoding == expected
    assert result.text.endswith(text)
    assert f"meta:{declared}" in result.hints


@pytest.mark.parametrize(
    ("bom", "encoding", "codec"),
    [
        (b"\xef\xbb\xbf", "utf-8", "utf-8"),
        (b"\xff\xfe", "utf-16le", "utf-16-le"),
        (b"\xfe\xff", "utf-16be", "utf-16-be"),
    ],
)
def test_bom_beats_a_conflicting_header(bom: bytes, encoding: str, codec: str) -> None:
    result = decode_body(bom + SHORT_JA.encode(codec), SJIS_HEADER)
    assert (result.text, result.encoding, result.source) == (SHORT_JA, encoding, "bom")
    assert result.hints == ("header:shift_jis",)


def test_meta_after_a_long_head_is_found() -> None:
    head = "<html><head>" + '<link rel="stylesheet" href="/css/site.css">\n' * 40
    assert len(head) > 1024
    page = head + '<meta charset="EUC-JP"></head><body>ﾊﾝｶｸ 表示のテスト</body>'
    result = decode_body(page.encode("euc_jp"))
    assert (result.encoding, result.source) == ("euc_jp", "meta")
    assert result.text == page


@pytest.mark.parametrize("codec", ["cp932", "euc_jp", "iso2022_jp"])
def test_short_undeclared_japanese(codec: str) -> None:
    body = SHORT_JA.encode(codec)
    assert len(body) < 100
    result = decode_body(body)
    assert (result.text, result.encoding) == (SHORT_JA, codec)
    assert result.source in ("sniff", "detected", "guess")


def test_hiragana_only_euc_jp_is_not_taken_for_halfwidth_shift_jis() -> None:
    body = HIRAGANA_ONLY.encode("euc_jp")
    body.decode("cp932")  # the trap: also valid Shift_JIS
    result = decode_body(body)
    assert (result.text, result.encoding) == (HIRAGANA_ONLY, "euc_jp")


def test_halfwidth_katakana_page_in_cp932() -> None:
    result = decode_body(HALFWIDTH_KATAKANA.encode("cp932"))
    assert (result.text, result.encoding) == (HALFWIDTH_KATAKANA, "cp932")


@pytest.mark.parametrize(
    ("codec", "encoding"), [("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")]
)
def test_bomless_utf16(codec: str, encoding: str) -> None:
    result = decode_body((UTF16_TEXT * 3).encode(codec))
    assert (result.text, result.encoding, result.source) == (UTF16_TEXT * 3, encoding, "sniff")


@pytest.mark.parametrize(
    "body",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _random_bytes(2000, 1),
        gzip.compress(_random_bytes(3000, 2)),
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + _random_bytes(2000, 3),
        _random_bytes(4000, 4),
        bytes(1000),
    ],
    ids=["png", "gzip", "zip", "random", "zeros"],
)
def test_binary_bodies(body: bytes) -> None:
    for content_type in (None, "text/html; charset=utf-8", "text/plain; charset=iso-8859-1"):
        result = decode_body(body, content_type)
        assert (result.text, result.encoding) == ("", "binary"), content_type


@pytest.mark.parametrize(
    ("text", "codec", "accepted"),
    [
        (
            "The café’s “special” costs €5 — really.\nNaïve résumé of the déjà vu.\n" * 3,
            "cp1252",
            {"windows-1252"},
        ),
        (
            "Zażółć gęślą jaźń. Größe und Übermaß sind schön. Ñandú, pingüino, acción.\n",
            "utf-8",
            {"utf-8"},
        ),
        (
            "中華民國的國語以北京話為基礎，使用正體中文書寫。臺灣的學校教育普遍使用國語。\n" * 2,
            "big5",
            {"big5"},
        ),
        (
            "대한민국의 수도는 서울특별시이며, 국어는 한국어이다. 한글은 세종대왕이 창제하였다.\n"
            * 2,
            "euc_kr",
            {"euc_kr"},
        ),
    ],
    ids=["windows-1252", "european-utf8", "big5", "euc-kr"],
)
def test_non_japanese_controls_stay_non_japanese(text: str, codec: str, accepted: set[str]) -> None:
    result = decode_body(text.encode(codec))
    assert result.encoding in accepted
    assert result.text == text


def test_iso2022_jp_with_halfwidth_katakana_escape() -> None:
    body = b"\x1b$B$3$s$K$A$O\x1b(B \x1b(I6@6E\x1b(B"
    result = decode_body(body)
    assert (result.text, result.encoding, result.source) == (
        "こんにちは ｶﾀｶﾅ",
        "iso2022_jp",
        "sniff",
    )


def test_windows_1252_undefined_bytes_are_c1_controls() -> None:
    assert decode_as(b"\x80\x81\x8d\x8f\x90\x9d\x9f", "windows-1252") == (
        "€\x81\x8d\x8f\x90\x9dŸ",
        0,
    )


def test_meta_utf16_means_utf8_and_x_user_defined_means_windows_1252() -> None:
    utf8 = decode_body('<meta charset="utf-16"><p>ñ</p>'.encode())
    latin = decode_body(b"<meta charset=x-user-defined><p>\xe9t\xe9</p>")
    assert (utf8.encoding, utf8.source) == ("utf-8", "meta")
    assert (latin.encoding, latin.text[-8:]) == ("windows-1252", "<p>été</p>"[-8:])


def test_utf8_cut_at_the_end_is_still_utf8() -> None:
    body = "日本語のページ、最後の文字が切れる".encode()[:-1]
    result = decode_body(body)
    assert (result.encoding, result.replacements) == ("utf-8", 1)
    assert result.text.startswith("日本語のページ")


def test_replacements_count_only_what_the_decode_produced() -> None:
    assert decode_as("already \ufffd here".encode(), "utf-8") == ("already \ufffd here", 0)
    assert decode_as(b"ok \xff bad", "utf-8")[1] == 1
    assert decode_as(b"\x82\xa0\x82", "cp932") == ("あ\ufffd", 1)


def test_empty_body() -> None:
    result = decode_body(b"", SJIS_HEADER)
    assert (result.text, result.encoding) == ("", "utf-8")


def test_never_raises_on_arbitrary_bytes() -> None:
    rng = random.Random(7)
    headers = [None, SJIS_HEADER, "text/html; charset=utf-16", "text/html; charset=bogus", ";"]
    for i in range(300):
        body = rng.randbytes(rng.randrange(1, 300))
        if i % 3 == 0:
            body = b"\x1b$B" + body
        result = decode_body(body, headers[i % len(headers)])
        assert result.encoding == "binary" or result.text  # bodies are 1..299 bytes


LATIN1_HEADER = "text/html; charset=ISO-8859-1"
STAFF_NAMES = ("山田太郎", "佐藤花子", "鈴木一郎", "高橋健二")
# French labels whose accented letters are each followed by a letter: the bytes also
# decode strictly as Shift_JIS, to kanji only.
FRENCH_LABELS = (
    "<p>Département: Développement, Intérêts privés, Numéro spécial; Hélène Lefèvre.</p>"
)


def _staff_directory() -> str:
    rows = "".join(
        f"<tr><td>{name}</td><td>Sales</td><td>ext. {200 + i}</td>"
        f"<td>staff{i}@example.com</td></tr>\n"
        for i, name in enumerate(STAFF_NAMES)
    )
    return (
        "<html><head><title>Staff directory</title></head><body><h1>Staff directory</h1>"
        "<table><tr><th>Name</th><th>Department</th><th>Phone</th><th>Email</th></tr>\n"
        f"{rows}</table><p>Ask the office manager for changes.</p></body></html>"
    )


@pytest.mark.parametrize("codec", ["cp932", "euc_jp"])
@pytest.mark.parametrize(
    "text",
    [_staff_directory(), "Q3 sales report 売上報告"],
    ids=["staff-directory", "one-line"],
)
def test_english_page_with_a_few_kanji_names(text: str, codec: str) -> None:
    body = text.encode(codec)
    assert detect.japanese_score(text) < detect.JAPANESE_MIN_SCORE  # kanji-only: low score
    result = decode_body(body)
    thin = detect.non_ascii_bytes(body) < detect.STRONG_EVIDENCE_BYTES  # one line: a guess
    assert (result.text, result.encoding) == (text, codec)
    assert result.source == ("guess" if thin else "detected")


def test_latin_text_that_also_reads_as_kanji_stays_latin() -> None:
    body = FRENCH_LABELS.encode("cp1252")
    assert [r.encoding for r in detect.japanese_readings(body)] == ["cp932"]
    assert decode_body(body).encoding not in ("cp932", "euc_jp")
    result = decode_body(body, LATIN1_HEADER)
    assert (result.text, result.encoding, result.source) == (
        FRENCH_LABELS,
        "windows-1252",
        "header",
    )


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("<title>休業日</title><p>本日休業</p>", "cp932"),
        ("<title>休業日</title><p>本日休業</p>", "euc_jp"),
        ("<p>臨時休業：設備点検</p>", "cp932"),
        ("<p>臨時休業：設備点検</p>", "euc_jp"),  # also valid GB 18030: the kanji prior decides
    ],
)
def test_latin1_header_loses_to_short_kanji_only_text(text: str, codec: str) -> None:
    # Apache's old AddDefaultCharset default over a short notice without kana.
    result = decode_body(text.encode(codec), LATIN1_HEADER)
    assert (result.text, result.encoding) == (text, codec)
    assert result.hints == ("header:iso-8859-1",)


UTF8_NOTICES = ["<title>休業日</title><p>本日休業</p>", "<p>休業</p>", "<p>本日は休業です</p>"]


@pytest.mark.parametrize("text", UTF8_NOTICES)
@pytest.mark.parametrize("label", ["Shift_JIS", "EUC-JP"])
def test_utf8_page_under_a_japanese_header(text: str, label: str) -> None:
    body = text.encode()
    result = decode_body(body, f"text/html; charset={label}")
    assert (result.text, result.encoding, result.source) == (text, "utf-8", "sniff")
    assert result.hints == (f"header:{label.lower()}",)


def test_utf8_read_as_shift_jis_is_what_the_rule_sees() -> None:
    # Precondition of the test above: the UTF-8 bytes decode strictly as Shift_JIS, with
    # half-width katakana scattered between kanji.
    misread = decode_as(UTF8_NOTICES[1].encode(), "cp932", strict=True)[0]
    assert detect.glued_halfwidth_share(misread) > 0
    assert detect.glued_halfwidth_share("ﾊﾟｽﾜｰﾄﾞを入力してください。") < 0.1


@pytest.mark.parametrize(
    "text",
    ["ﾊﾟｽﾜｰﾄﾞを入力してください。", "<p>ﾊｲﾃｸ</p>", "<p>全角ｶﾅ変換</p>", HALFWIDTH_KATAKANA],
)
def test_shift_jis_with_halfwidth_katakana_keeps_its_header(text: str) -> None:
    result = decode_body(text.encode("cp932"), SJIS_HEADER)
    assert (result.text, result.encoding, result.source) == (text, "cp932", "header")


def test_halfwidth_katakana_that_is_also_valid_utf8_keeps_its_header() -> None:
    body = "<p>ﾊｲﾃｸ</p>".encode("cp932")
    body.decode("utf-8")  # the trap: also valid UTF-8
    assert decode_body(body, SJIS_HEADER).encoding == "cp932"
