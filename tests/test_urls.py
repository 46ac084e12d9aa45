"""URL normalization, trap detection and scope."""

from __future__ import annotations

import re

import pytest

from indexer.crawl.scope import Scope, looks_like_trap
from indexer.crawl.urls import host_of, normalize_url, site_of
from indexer.errors import InvalidURLError
from indexer.outcomes import Outcome


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("HTTP://Example.COM:80/a/../b?b=2&a=1#frag", "http://example.com/b?a=1&b=2"),
        ("https://example.com:443/", "https://example.com/"),
        ("http://example.com:8080/x", "http://example.com:8080/x"),
        ("http://example.com/%7euser", "http://example.com/~user"),
        ("http://ex.jp/パス?q=日本", "http://ex.jp/%E3%83%91%E3%82%B9?q=%E6%97%A5%E6%9C%AC"),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize_url(raw) == expected


def test_session_params_stripped() -> None:
    url = normalize_url("http://a.jp/p?PHPSESSID=abc&id=3", ["phpsessid"])
    assert url == "http://a.jp/p?id=3"


@pytest.mark.parametrize(
    "raw",
    [
        "javascript:alert(1)",
        "mailto:a@b.jp",
        "data:text/html,hi",
        "http://a.jp:99999/",
        "ftp://a.jp/x",
        "http:///nohost",
        "file:///etc/passwd",
    ],
)
def test_unfetchable_urls_raise(raw: str) -> None:
    with pytest.raises(InvalidURLError):
        normalize_url(raw)


def test_length_limit() -> None:
    with pytest.raises(InvalidURLError, match="longer than"):
        normalize_url("http://a.jp/" + "x" * 3000, max_length=2048)


def test_traps_and_scope() -> None:
    assert looks_like_trap("http://a.jp/cal/2024/cal/2025/cal/2026/")
    assert not looks_like_trap("http://a.jp/a/b/c/")
    assert host_of("http://127.0.0.2:8080/x") == "127.0.0.2:8080"
    assert site_of("www.a.jp") == "a.jp"
    scope = Scope({"a.jp"}, exclude=[re.compile(r"\.pdf$")])
    assert scope.allows("https://www.a.jp/x") and scope.allows("http://a.jp/y")
    assert not scope.allows("http://b.jp/") and not scope.allows("http://a.jp/f.pdf")


def test_invalid_url_errors_carry_their_outcome() -> None:
    with pytest.raises(InvalidURLError) as too_long:
        normalize_url("http://a.jp/" + "x" * 100, max_length=64)
    assert too_long.value.outcome == Outcome.TRAP
    with pytest.raises(InvalidURLError) as not_http:
        normalize_url("mailto:someone@a.jp")
    assert not_http.value.outcome == Outcome.INVALID_URL
