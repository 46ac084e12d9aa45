"""Sitemaps: parsing (urlset, index, gzip, text, hostile XML) and discovery during a crawl."""

from __future__ import annotations

import gzip
from pathlib import Path

from indexer.crawl.sitemaps import MAX_URLS_PER_FILE, parse_sitemap
from tests.faultserver import FaultServer, Reply, crawl

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*urls: str) -> str:
    items = "".join(f"<url><loc>{u}</loc><lastmod>2026-01-01</lastmod></url>" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>{items}</urlset>'


def index(*urls: str) -> str:
    items = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f'<?xml version="1.0"?><sitemapindex {NS}>{items}</sitemapindex>'


def test_parse_urlset_index_gzip_and_text() -> None:
    plain = parse_sitemap(urlset("http://a.jp/1", " http://a.jp/2 ").encode(), 10**6)
    assert not plain.is_index and plain.locs == ["http://a.jp/1", "http://a.jp/2"]
    idx = parse_sitemap(index("http://a.jp/s1.xml").encode(), 10**6)
    assert idx.is_index and idx.locs == ["http://a.jp/s1.xml"]
    packed = parse_sitemap(gzip.compress(urlset("http://a.jp/z").encode()), 10**6)
    assert packed.locs == ["http://a.jp/z"]
    text = parse_sitemap(b"http://a.jp/t1\n\nnot a url\nhttps://a.jp/t2\n", 10**6)
    assert text.locs == ["http://a.jp/t1", "https://a.jp/t2"]


def test_parse_is_safe_on_hostile_files(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file://{secret}">]>'
        f"<urlset {NS}><url><loc>http://a.jp/&e;</loc></url></urlset>"
    )
    assert all("TOPSECRET" not in u for u in parse_sitemap(xxe.encode(), 10**6).locs)
    assert parse_sitemap(b"<urlset><url><loc>http://a.jp/", 10**6).locs in ([], ["http://a.jp/"])
    assert parse_sitemap(b"\x1f\x8bnot gzip at all", 10**6).locs == []
    many = urlset(*(f"http://a.jp/{i}" for i in range(MAX_URLS_PER_FILE + 10)))
    assert len(parse_sitemap(many.encode(), 10**8).locs) == MAX_URLS_PER_FILE
    bomb = gzip.compress(b"<urlset>" + b" " * 50_000_000 + b"</urlset>")
    assert parse_sitemap(bomb, 1_000_000).locs == []  # inflated only up to the cap


async def test_sitemaps_from_robots_index_and_gzip_are_crawled(tmp_path: Path) -> None:
    with FaultServer(hosts=3) as srv:
        # host 0: robots.txt names an index, which names a plain and a gzip sitemap
        srv.route(
            "/robots.txt",
            Reply(
                body=f"User-agent: *\nSitemap: {srv.url('/idx.xml')}\n", content_type="text/plain"
            ),
        )
        srv.route(
            "/idx.xml",
            Reply(
                body=index(srv.url("/s1.xml"), srv.url("/s2.xml.gz"), srv.url("/x.xml", 2)),
                content_type="application/xml",
            ),
        )
        srv.route(
            "/s1.xml",
            Reply(
                body=urlset(srv.url("/only-in-s1"), srv.url("/", 2)), content_type="application/xml"
            ),
        )
        srv.route(
            "/s2.xml.gz",
            Reply(
                body=gzip.compress(urlset(srv.url("/only-in-s2")).encode()),
                content_type="application/x-gzip",
            ),
        )
        srv.page("/", "home")
        srv.page("/only-in-s1", "s1")
        srv.page("/only-in-s2", "s2")
        # host 1: no Sitemap line, so /sitemap.xml is tried
        srv.route(
            "/sitemap.xml",
            Reply(body=urlset(srv.url("/listed", 1)), content_type="application/xml"),
            host=1,
        )
        srv.page("/", "home 1", host=1)
        srv.page("/listed", "listed", host=1)
        run = await crawl([srv.url("/"), srv.url("/", 1)], tmp_path)
        paths2 = srv.paths(2)
    assert run.outcome(srv.url("/only-in-s1")) == run.outcome(srv.url("/only-in-s2")) == "indexed"
    assert run.outcome(srv.url("/listed", 1)) == "indexed"
    assert run.outcome(srv.url("/", 2)) == "out-of-scope"
    assert paths2 == []  # neither its sitemap nor its pages: out of scope


async def test_sitemaps_can_be_turned_off(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.route(
            "/sitemap.xml", Reply(body=urlset(srv.url("/hidden")), content_type="application/xml")
        )
        srv.page("/", "home")
        run = await crawl([srv.url("/")], tmp_path, crawl__sitemaps=False)
        paths = srv.paths()
    assert "/sitemap.xml" not in paths and srv.url("/hidden") not in run.outcomes
