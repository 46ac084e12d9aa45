"""robots.txt (RFC 9309) against the scripted server: Disallow, 4xx, 5xx and retry, once per
host, oversized files."""

from __future__ import annotations

from pathlib import Path

from tests.faultserver import FaultServer, Reply, crawl


def _robots(text: str, status: int = 200) -> Reply:
    return Reply(status, text, content_type="text/plain")


async def test_disallowed_paths_are_never_requested(tmp_path: Path) -> None:
    rules = (
        "User-agent: other-bot\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /private\nAllow: /private/open\n"
    )
    with FaultServer() as srv:
        srv.route("/robots.txt", _robots(rules))
        srv.page("/", "home", ["/a", "/private/x", "/private/open", "/private/y?q=1"])
        srv.page("/a", "a", ["/private/z"])
        srv.page("/private/open", "open")
        run = await crawl([srv.url("/")], tmp_path)
        paths = srv.paths()
    assert not [p for p in paths if p.startswith("/private") and p != "/private/open"]
    assert paths.count("/robots.txt") == 1  # fetched once, cached
    for path in ("/private/x", "/private/z", "/private/y?q=1"):
        assert run.outcomes[srv.url(path)] == ("robots-disallowed", "disallowed by robots.txt")
    assert run.outcome(srv.url("/private/open")) == "indexed"


async def test_robots_4xx_allows_all_and_5xx_defers_the_host(tmp_path: Path) -> None:
    with FaultServer(hosts=3) as srv:
        srv.route("/robots.txt", _robots("gone", 410), host=0)
        srv.page("/", "allowed", host=0)
        # host 1: robots.txt fails twice, then disallows /b
        srv.route(
            "/robots.txt", [Reply(503), Reply(500), _robots("User-agent: *\nDisallow: /b")], host=1
        )
        srv.page("/", "deferred", ["/b", "/c"], host=1)
        srv.page("/c", "c", host=1)
        # host 2: robots.txt never answers properly: nothing else is ever requested
        srv.route("/robots.txt", Reply(503), host=2)
        srv.page("/", "never", host=2)
        run = await crawl([srv.url("/", h) for h in range(3)], tmp_path, fetch__robots_retry=0.2)
        paths1, paths2 = srv.paths(1), srv.paths(2)
    assert run.outcome(srv.url("/", 0)) == "indexed"
    assert run.outcome(srv.url("/", 1)) == run.outcome(srv.url("/c", 1)) == "indexed"
    assert run.outcome(srv.url("/b", 1)) == "robots-disallowed" and "/b" not in paths1
    assert paths1[:3] == ["/robots.txt"] * 3  # nothing before robots.txt answered
    assert set(paths2) == {"/robots.txt"} and len(paths2) == 3  # one per attempt
    outcome, reason = run.outcomes[srv.url("/", 2)]
    assert outcome == "robots-disallowed" and reason == "robots.txt unavailable (http-503)"
    assert run.stats.retries["robots-unavailable"] >= 2


async def test_large_robots_file_is_read_up_to_500_kib(tmp_path: Path) -> None:
    filler = "# " + "x" * 1000 + "\n"
    rules = "User-agent: *\nDisallow: /early\n" + filler * 600 + "Disallow: /late\n"
    with FaultServer() as srv:
        srv.route("/robots.txt", _robots(rules))
        srv.page("/", "home", ["/early", "/late"])
        srv.page("/late", "late")
        run = await crawl([srv.url("/")], tmp_path)
    assert run.outcome(srv.url("/early")) == "robots-disallowed"
    assert run.outcome(srv.url("/late")) == "indexed"  # the rule lies beyond 500 KiB
