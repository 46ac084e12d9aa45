"""Scope and discovery during a crawl: include/exclude, allowed hosts, aliases, depth and page
limits, nofollow, noindex, X-Robots-Tag and rel=canonical. The server log shows what was
never requested."""

from __future__ import annotations

from pathlib import Path

from indexer.crawl.urls import SiteAliases
from tests.faultserver import FaultServer, Reply, crawl


async def test_patterns_hosts_and_aliases(tmp_path: Path) -> None:
    with FaultServer(hosts=3) as srv:
        srv.page(
            "/",
            "home",
            [
                "/doc.pdf",
                "/skip/a",
                "/keep/b",
                srv.url("/", 1),
                srv.url("/", 2),
                f"https://{srv.host()}/keep/c",
                "/keep/d?sid=123&x=1",
            ],
        )
        for path in ("/keep/b", "/keep/c", "/keep/d?x=1"):
            srv.page(path, path)
        srv.page("/", "allowed host", host=1)
        run = await crawl(
            [srv.url("/")],
            tmp_path,
            crawl__exclude=(r"\.pdf$", "/skip/"),
            crawl__allow_hosts=(srv.host(1),),
        )
        paths0, paths1, paths2 = srv.paths(0), srv.paths(1), srv.paths(2)
    assert run.outcome(srv.url("/doc.pdf")) == run.outcome(srv.url("/skip/a")) == "out-of-scope"
    assert "/doc.pdf" not in paths0 and "/skip/a" not in paths0
    assert run.outcome(srv.url("/", 1)) == "indexed" and "/" in paths1
    assert run.outcome(srv.url("/", 2)) == "out-of-scope" and paths2 == []
    # https://same-host is the same site: rewritten to the seed's origin and fetched once
    assert run.outcome(srv.url("/keep/c")) == "indexed"
    assert not any(u.startswith("https://") for u in run.outcomes)
    # a session parameter is stripped before queueing
    assert run.outcome(srv.url("/keep/d?x=1")) == "indexed"


def test_site_aliases_www_and_scheme() -> None:
    aliases = SiteAliases()
    aliases.prefer("http://intra.example.jp/")
    assert (
        aliases.canonical("https://www.intra.example.jp/a?b=1") == "http://intra.example.jp/a?b=1"
    )
    assert aliases.canonical("http://other.jp/x") == "http://other.jp/x"
    aliases.learn("http://intra.example.jp/x", "https://www.intra.example.jp/x")
    assert aliases.canonical("http://intra.example.jp/y") == "https://www.intra.example.jp/y"
    aliases.learn("https://www.intra.example.jp/p", "https://www.intra.example.jp/q")  # moved
    assert aliases.canonical("http://intra.example.jp/z") == "https://www.intra.example.jp/z"


async def test_depth_and_page_limits(tmp_path: Path) -> None:
    with FaultServer(hosts=2) as srv:
        for i in range(4):
            srv.page(f"/d{i}", f"depth {i}", [f"/d{i + 1}"])
        srv.page("/", "wide", [f"/w{i}" for i in range(8)], host=1)
        for i in range(8):
            srv.page(f"/w{i}", f"w{i}", host=1)
        run = await crawl(
            [srv.url("/d0"), srv.url("/", 1)],
            tmp_path,
            crawl__max_depth=2,
            crawl__max_pages_per_host=4,
        )
        paths0, paths1 = srv.paths(0), srv.paths(1)
    assert run.outcome(srv.url("/d2")) == "indexed"
    outcome, reason = run.outcomes[srv.url("/d3")]
    assert outcome == "out-of-scope" and "max_depth=2" in reason and "/d3" not in paths0
    fetched1 = [p for p in paths1 if p not in ("/robots.txt", "/sitemap.xml")]
    assert len(fetched1) == 4
    left = [u for u, (o, _r) in run.outcomes.items() if o == "max-pages"]
    assert len(left) == 5 and all(u.startswith(srv.base(1)) for u in left)
    assert run.outcomes[left[0]][1] == "crawl.max_pages_per_host=4 reached"


async def test_max_pages_in_total(tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.page("/", "wide", [f"/w{i}" for i in range(10)])
        run = await crawl([srv.url("/")], tmp_path, crawl__max_pages=3)
        pages = [p for p in srv.paths() if p not in ("/robots.txt", "/sitemap.xml")]
    assert len(pages) == 3
    assert run.stats.outcomes["max-pages"] == 8


async def test_nofollow_noindex_and_x_robots_tag(tmp_path: Path) -> None:
    nofollow_link = (
        "<html><head><title>links</title></head><body><main><p>"
        + "Words enough to make this a page with content of its own. " * 3
        + '</p><a rel="nofollow" href="/nf">nf</a><a href="/followed">f</a></main></body></html>'
    )
    with FaultServer() as srv:
        srv.page(
            "/",
            "home",
            ["/links", "/meta-nofollow", "/meta-noindex", "/hdr-noindex", "/hdr-nofollow"],
        )
        srv.route("/links", Reply(body=nofollow_link))
        srv.page("/followed", "followed")
        srv.page(
            "/meta-nofollow",
            "meta nofollow",
            ["/never1"],
            head='<meta name="robots" content="nofollow">',
        )
        srv.page(
            "/meta-noindex",
            "meta noindex",
            ["/via-noindex"],
            head='<meta name="robots" content="noindex">',
        )
        srv.page("/via-noindex", "via noindex")
        srv.page("/hdr-noindex", "header noindex", headers={"X-Robots-Tag": "noindex"})
        srv.page(
            "/hdr-nofollow", "header nofollow", ["/never2"], headers={"X-Robots-Tag": "nofollow"}
        )
        run = await crawl([srv.url("/")], tmp_path)
        paths = srv.paths()
    assert "/nf" not in paths and "/followed" in paths
    assert "/never1" not in paths and "/never2" not in paths
    assert (
        run.outcome(srv.url("/meta-noindex")) == run.outcome(srv.url("/hdr-noindex")) == ("noindex")
    )
    assert run.outcome(srv.url("/via-noindex")) == "indexed"  # noindex still follows links
    doc_urls = {d["url"] for d in run.docs}
    assert srv.url("/meta-noindex") not in doc_urls and srv.url("/hdr-noindex") not in doc_urls
    assert srv.url("/hdr-nofollow") in doc_urls


async def test_canonical_in_and_out_of_scope(tmp_path: Path) -> None:
    with FaultServer(hosts=2) as srv:
        srv.page("/", "home", ["/copy", "/syndicated"])
        srv.page("/copy", "copy", head=f'<link rel="canonical" href="{srv.url("/original")}">')
        srv.page("/original", "original")
        srv.page(
            "/syndicated",
            "syndicated",
            head=f'<link rel="canonical" href="{srv.url("/elsewhere", 1)}">',
        )
        run = await crawl([srv.url("/")], tmp_path)
        paths1 = srv.paths(1)
    outcome, reason = run.outcomes[srv.url("/copy")]
    assert outcome == "canonical-elsewhere" and srv.url("/original") in reason
    assert run.outcome(srv.url("/original")) == "indexed"
    assert run.outcome(srv.url("/syndicated")) == "indexed" and paths1 == []
    doc_urls = {d["url"] for d in run.docs}
    assert srv.url("/copy") not in doc_urls and srv.url("/syndicated") in doc_urls
