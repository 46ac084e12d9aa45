"""Pure rules of issue 13: grace per outcome, login walls, stored scope, site-wide
duplicates counted in a real frontier."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from indexer.crawl.frontier import Frontier
from indexer.crawl.login import LoginRules, has_password_form
from indexer.crawl.stored_scope import plan_scope, scope_of
from indexer.errors import ConfigError, StorageError
from indexer.models import DecodedText, ExtractedDoc
from indexer.outcomes import Effect, Outcome, info
from indexer.pipeline.grace import counts_as_missed, deletes_at_once, leaves_search_now
from indexer.pipeline.page import ProcessedPage
from indexer.pipeline.sitewide import SitewideDuplicates
from indexer.pipeline.verdict import Facts, judge
from indexer.report import RunStats
from indexer.settings import CrawlSettings, ReindexSettings, load_settings
from tests.pg_fixtures import OpenFrontier, read_elsewhere


def test_grace_per_outcome() -> None:
    assert info("http-404").effect is Effect.DELETE_AFTER_GRACE
    assert info("sitewide-duplicate").effect is Effect.KEEP
    assert deletes_at_once("http-410", ReindexSettings())
    assert not deletes_at_once("http-410", ReindexSettings(delete_410_at_once=False))
    assert not deletes_at_once("http-404", ReindexSettings())
    rules = ReindexSettings()
    assert counts_as_missed("http-404", rules) and counts_as_missed("login-required", rules)
    assert counts_as_missed("http-410", rules)
    for kept in (None, "max-pages", "http-503", "timeout", "sitewide-duplicate", "bogus"):
        assert not counts_as_missed(kept, rules), kept


def test_a_restricted_page_leaves_at_once_unless_kept_by_the_setting() -> None:
    rules, keep = ReindexSettings(), ReindexSettings(keep_restricted=True)
    assert deletes_at_once("restricted", rules) and leaves_search_now("restricted", rules)
    assert counts_as_missed("restricted", rules)
    assert not deletes_at_once("restricted", keep) and not leaves_search_now("restricted", keep)
    assert not counts_as_missed("restricted", keep)
    assert not leaves_search_now("http-410", rules), "a 410 waits for the reindex guard"


def test_password_field_is_found_in_any_ascii_compatible_page() -> None:
    assert has_password_form(b"<form><INPUT name=p TYPE=password></form>")
    assert has_password_form("<input type='password'/>ログイン".encode("shift_jis"))
    assert not has_password_form(b'<input type="text" name="password">')
    assert not has_password_form(b"<p>type=password is a field</p>")


def test_login_rules_judge_redirects_and_direct_pages() -> None:
    rules = LoginRules(CrawlSettings())
    form = b'<input type="password">'
    assert rules.is_login_url("http://a/account/Login.aspx?ReturnUrl=%2f")
    assert rules.is_login_url("http://sso.a/adfs/ls/?wa=wsignin1.0")
    assert not rules.is_login_url("http://a/blog/login-tips-for-users.html")
    assert rules.judge("http://a/x", "http://a/portal/enter.html", form) is not None
    assert rules.judge("http://a/x", "http://a/x2", b"<p>moved</p>") is None
    assert _outcome(rules.judge("http://a/x", "http://a/login", b"")) == "login-required"
    # a content page with a login box in its sidebar is not a login page
    assert rules.judge("http://a/news.html", "http://a/news.html", form) is None
    page = "http://a/portal/enter.html"  # learned as a login target above
    assert _outcome(rules.judge(page, page, b"")) == "login-page"
    with pytest.raises(ConfigError, match=r"crawl\.login_patterns"):
        load_settings(flags={"crawl.login_patterns": ("(",)}, environ={})


def _outcome(verdict: tuple[str, str] | None) -> str | None:
    return None if verdict is None else verdict[0]


def test_stored_scope_narrows_and_refuses_widening(tmp_path: Path) -> None:
    stored = scope_of(CrawlSettings(seeds=("http://a/",), include=("/a/",), max_pages=10))
    given = {"crawl.max_pages": "flag"}
    smaller = plan_scope(
        stored, CrawlSettings(max_pages=5), given, rescope=False, data_dir=tmp_path
    )
    assert smaller.crawl.max_pages == 5 and smaller.to_store is None
    assert smaller.crawl.include == ("/a/",) and smaller.crawl.seeds == ("http://a/",)
    with pytest.raises(ConfigError, match=r"crawl\.max_pages.*--rescope"):
        plan_scope(stored, CrawlSettings(max_pages=50), given, rescope=False, data_dir=tmp_path)
    wider = plan_scope(stored, CrawlSettings(max_pages=50), given, rescope=True, data_dir=tmp_path)
    assert wider.rescoped == {"crawl.max_pages": (10, 50)}
    assert wider.to_store is not None and wider.to_store["max_pages"] == 50
    # a setting left at its default is not a request: the stored value stays
    untouched = plan_scope(stored, CrawlSettings(), {}, rescope=False, data_dir=tmp_path)
    assert untouched.crawl.max_pages == 10 and untouched.crawl.include == ("/a/",)
    assert plan_scope(None, CrawlSettings(), {}, rescope=False, data_dir=tmp_path).stored is False


class _Run:
    """One run over a real frontier: pages answer hashes; sent documents are recorded."""

    def __init__(self, frontier: Frontier, urls: list[str]) -> None:
        self.frontier, self.sent, self.deleted = frontier, [], []  # type: ignore[var-annotated]
        self.stats = RunStats()
        frontier.start_run(False)
        frontier.add([(u, "a", 1) for u in urls])
        self.judge = SitewideDuplicates(CrawlSettings(), frontier, self.stats, self.deleted.append)

    def page(self, url: str, digest: str) -> None:
        assert self.frontier.claim("a", 1e12) is not None
        if self.judge.is_duplicate(url, "a", digest):
            self.frontier.finish(url, "sitewide-duplicate")
            return

        def send() -> None:
            if self.frontier.same_content(digest, "a", url) is None:
                self.sent.append(url)
                self.frontier.finish(url, "indexed", reached=True, content_hash=digest)
            else:
                self.frontier.finish(url, "duplicate")

        self.judge.admit(url, "a", digest, send)


def test_maintenance_from_the_start_of_a_run_sends_nothing(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    urls = [f"http://a/p{i}" for i in range(12)]
    with open_frontier(tmp_path) as frontier:
        run = _Run(frontier, urls)
        for url in urls:
            run.page(url, "maint")
        run.judge.release_all()
        assert run.sent == [] and run.deleted == []
        assert run.judge.is_sitewide("a", "maint")
        assert set(frontier.outcomes_in_run("a").values()) == {"sitewide-duplicate"}
        assert run.stats.outcomes["sitewide-duplicate"] == 4  # the held ones


def test_maintenance_mid_run_restores_the_page_sent_before(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    urls = [f"http://a/p{i}" for i in range(30)]
    with open_frontier(tmp_path) as frontier:
        first = _Run(frontier, urls)  # night 1: every page real
        for i, url in enumerate(urls):
            first.page(url, f"real{i}")
        first.judge.release_all()
        assert len(first.sent) == 30
        run = _Run(frontier, urls)  # night 2: the window opens after 12 pages
        for i, url in enumerate(urls):
            run.page(url, f"real{i}" if i < 12 else "maint")
        run.judge.release_all()
        assert run.sent == urls[:13], "held real pages are sent in order, then at once"
        assert run.judge.is_sitewide("a", "maint") and not run.judge.is_sitewide("a", "real0")
        outcomes = frontier.outcomes_in_run("a")
        assert {outcomes[u] for u in urls[12:]} == {"sitewide-duplicate"}
        assert run.deleted == [], "the page had a document before: restored, not deleted"
        rows = read_elsewhere(
            frontier, "SELECT content_hash, etag, last_modified, resend FROM urls WHERE url=?",
            (urls[12],),
        )  # fmt: skip
    assert rows == [("real12", None, None, 1)], "previous hash, no validators, sent again"


def test_verdict_of_a_sitewide_duplicate_replaces_nothing() -> None:
    doc = ExtractedDoc(title="メンテナンス中", text="メンテナンス中です", outlinks=["http://a/x"])
    page = ProcessedPage(DecodedText("<p>x</p>", "utf-8", "header"), doc)
    facts = Facts(
        url="http://a/p", final_url="http://a/p", x_robots_tag="", page=page, digest="m",
        stored_hash="real", sitewide=True,
    )  # fmt: skip
    verdict = judge(facts, skip_unchanged=True)
    assert verdict.outcome is Outcome.SITEWIDE_DUPLICATE
    assert not (verdict.index or verdict.delete or verdict.reached)
    assert judge(dataclasses.replace(facts, sitewide=False)).outcome is Outcome.INDEXED


def test_a_stopped_run_puts_held_pages_back_in_the_queue(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    urls = [f"http://a/p{i}" for i in range(3)]
    with open_frontier(tmp_path) as frontier:
        run = _Run(frontier, urls)
        for i, url in enumerate(urls):
            run.page(url, f"real{i}")
        assert run.sent == []  # fewer than 5 hashed pages: all held
        run.judge.requeue_held()
        assert frontier.queued_count() == 3 and frontier.claim("a", 1e12) is not None
        run.judge.release_all()
        assert run.sent == [], "a requeued page is not sent by a later release"


def test_a_held_page_whose_send_meets_a_full_disk_stops_the_run(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    """A state or output file error while a held page is sent is the disk, not the page:
    it ends the run (this URL and the held ones after it stay unfinished for --resume);
    a bug in one page's send is recorded on that URL and the others are sent."""
    urls = [f"http://a/p{i}" for i in range(3)]  # under HOLD_PAGES: held to the run's end
    with open_frontier(tmp_path) as frontier:
        run = _Run(frontier, urls)
        for url in urls:
            assert frontier.claim("a", 1e12) is not None

            def full(url: str = url) -> None:
                raise StorageError(
                    tmp_path / "outbox.sqlite3", "cannot write: database or disk is full"
                )

            run.judge.admit(url, "a", f"d-{url}", full)
        with pytest.raises(StorageError):
            run.judge.release_all()
        assert run.stats.outcomes.get("internal-error", 0) == 0
        assert set(frontier.outcomes_in_run("a")) == set(), "nothing ended: all left for --resume"
        bug = _Run(frontier, urls)
        for n, url in enumerate(urls):
            assert frontier.claim("a", 1e12) is not None

            def broken(n: int = n, url: str = url) -> None:
                if n == 0:
                    raise ValueError("a bug")
                frontier.finish(url, "indexed", reached=True)

            bug.judge.admit(url, "a", f"e-{url}", broken)
        bug.judge.release_all()
        assert frontier.outcomes_in_run("a") == {
            urls[0]: "internal-error",
            urls[1]: "indexed",
            urls[2]: "indexed",
        }
