"""The WHATWG <meta> prescan and XML declaration (indexer.encoding.prescan)."""

from __future__ import annotations

import pytest

from indexer.encoding.prescan import prescan, xml_declaration


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (b'<meta charset="x-sjis">', "cp932"),
        (b"<META CHARSET=EUC-JP>", "euc_jp"),
        (b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', "cp932"),
        (b"<meta content='text/html;charset=\"euc-jp\"' http-equiv=content-type>", "euc_jp"),
        (b'<meta charset="utf-16le">', "utf-8"),
        (b'<meta charset="x-user-defined">', "windows-1252"),
        (b'<!-- <meta charset="euc-jp"> --><meta charset="shift_jis">', "cp932"),
        (b'<div title="<meta charset=euc-jp>"></div><meta charset="shift_jis">', "cp932"),
        (b'<meta charset="bogus"><meta charset="euc-jp">', "euc_jp"),
    ],
)
def test_prescan_finds(html: bytes, expected: str) -> None:
    found = prescan(b"<html><head>" + html + b"</head>")
    assert found is not None
    assert (found.encoding, found.where) == (expected, "meta")


@pytest.mark.parametrize(
    "html",
    [
        b'<meta content="text/html; charset=Shift_JIS">',  # content without http-equiv
        b'<!-- <meta charset="euc-jp"> -->',
        b"<p>charset=euc-jp</p>",
        b'<meta charset="bogus">',
    ],
)
def test_prescan_ignores(html: bytes) -> None:
    assert prescan(html) is None


def test_late_meta_is_found_in_the_extended_window() -> None:
    head = b"<head>" + b"<script>var x = 1;</script>\n" * 100
    assert len(head) > 1024
    found = prescan(head + b'<meta charset="EUC-JP">')
    assert found is not None and found.encoding == "euc_jp"


def test_xml_declaration() -> None:
    found = xml_declaration(b'<?xml version="1.0" encoding="Shift_JIS"?><rss/>')
    assert found is not None and (found.encoding, found.where) == ("cp932", "xml")
    assert xml_declaration(b'<?xml version="1.0"?><rss/>') is None
    assert xml_declaration(b"<rss/><?xml encoding='euc-jp'?>") is None
