"""A page's outlinks judged in its worker: normalized, unique, with the same outcomes as before.

The worker-side path (:func:`judge_links` then :meth:`Dispatcher.admit`) must leave the
frontier and the run's counters exactly as the crawl-process path (:meth:`Dispatcher.enqueue`
of the raw links) did.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from indexer.crawl.candidates import OUTSIDE, TRAP, judge_links, link_rules
from indexer.crawl.frontier import Frontier
from indexer.crawl.politeness import Politeness
from indexer.crawl.scope import build_scope
from indexer.crawl.urls import SiteAliases
from indexer.pipeline.dispatch import Dispatcher
from indexer.pipeline.ledger import Ledger
from indexer.pipeline.page import process_page
from indexer.report import RunStats
from indexer.settings import Settings, load_settings

SEED = "http://127.0.0.1:8000/"
RAW = [
    "http://127.0.0.1:8000/a?b=2&a=1",
    "http://127.0.0.1:8000/a?a=1&b=2",  # the same URL once normalized
    "HTTP://127.0.0.1:8000/b#part",
    "http://127.0.0.1:8000/c?sid=42",  # a stripped parameter
    "http://127.0.0.1:8000/x/x/x/y",  # a trap
    "http://127.0.0.2:8000/elsewhere",  # outside the scope
    "http://127.0.0.1:8000/private/1",  # excluded
    "http://127.0.0.1:0/port-zero",  # invalid
    "ftp://127.0.0.1/file",  # invalid
    "http://127.0.0.1:8000/" + "l" * 3000,  # too long: a trap
    "http://127.0.0.1:8000/q?n=1",
    "http://127.0.0.1:8000/q?n=2",
    "http://127.0.0.1:8000/q?n=3",
]


def _settings(tmp: Path, **extra: object) -> Settings:
    values: dict[str, object] = {
        "crawl.seeds": (SEED,),
        "crawl.data_dir": tmp,
        "crawl.strip_params": ("sid",),
        "crawl.exclude": ("/private/",),
        "crawl.max_query_variants": 2,
        **extra,
    }
    return load_settings(None, values, environ={}).settings


def _state(tmp: Path, depth: int, judged: bool, **extra: object) -> tuple[object, ...]:
    """The frontier's rows and the counters after queueing RAW one way or the other."""
    settings = _settings(tmp, **extra)
    stats = RunStats()
    scope = build_scope(settings.crawl)
    with Frontier(tmp) as frontier:
        frontier.start_run(False)
        aliases = SiteAliases()
        aliases.prefer(SEED)
        dispatcher = Dispatcher(
            settings, Ledger(frontier, stats), Politeness(0, 1, 60), scope, aliases
        )
        if judged:
            candidates = judge_links(RAW, link_rules(settings.crawl, scope))
            dispatcher.enqueue(pickle.loads(pickle.dumps(candidates)), depth)  # as from a worker
        else:
            dispatcher.enqueue(RAW, depth)
        rows = frontier._db.execute(
            "SELECT url, host, depth, state, outcome, reason FROM urls ORDER BY rowid"
        ).fetchall()
    return rows, dict(stats.outcomes)


def _queued(state: tuple[object, ...]) -> list[str]:
    return [r[0] for r in state[0] if r[3] == "queued"]  # type: ignore[attr-defined]


def test_the_worker_path_leaves_the_same_state(tmp_path: Path) -> None:
    for depth, extra in ((1, {}), (3, {"crawl.max_depth": 2})):
        before = _state(tmp_path / f"raw{depth}", depth, judged=False, **extra)
        after = _state(tmp_path / f"judged{depth}", depth, judged=True, **extra)
        assert sorted(after[0]) == sorted(before[0])  # type: ignore[call-overload]
        assert after[1] == before[1]
        assert _queued(after) == _queued(before)  # in page order
    with Frontier(tmp_path / "raw1") as frontier:  # now stored: a third variant is a trap
        frontier.run = 1
        stats = RunStats()
        settings = _settings(tmp_path / "raw1")
        scope = build_scope(settings.crawl)
        dispatcher = Dispatcher(
            settings, Ledger(frontier, stats), Politeness(0, 1, 60), scope, SiteAliases()
        )
        more = ["http://127.0.0.1:8000/q?n=4"]
        dispatcher.enqueue(judge_links(more, link_rules(settings.crawl, scope)), 1)
        assert dict(stats.outcomes) == {"trap": 1}
    rows, outcomes = _state(tmp_path / "again", 1, judged=True)
    assert outcomes == {"trap": 2, "out-of-scope": 2, "invalid-url": 2}
    assert _queued((rows, outcomes)) == [
        "http://127.0.0.1:8000/a?a=1&b=2",
        "http://127.0.0.1:8000/b",
        "http://127.0.0.1:8000/c",
        "http://127.0.0.1:8000/q?n=1",
        "http://127.0.0.1:8000/q?n=2",
        "http://127.0.0.1:8000/q?n=3",  # the variants of one page are counted once stored
    ]


def test_judged_links_are_normalized_unique_and_marked(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    judged = judge_links(RAW, link_rules(settings.crawl, build_scope(settings.crawl)))
    urls = [link.url for link in judged.links]
    assert len(urls) == len(set(urls)) == 9
    assert judged.seen == len(RAW)
    findings = {link.url: link.finding for link in judged.links}
    assert findings["http://127.0.0.1:8000/x/x/x/y"] == TRAP
    assert findings["http://127.0.0.2:8000/elsewhere"] == OUTSIDE
    assert findings["http://127.0.0.1:8000/private/1"] == OUTSIDE
    assert {outcome for _, outcome, _ in judged.invalid} == {"invalid-url", "trap"}
    assert judged.stored()[: len(urls)] == urls


def test_a_worker_returns_links_and_no_decoded_html(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    rules = link_rules(settings.crawl, build_scope(settings.crawl))
    links = "".join(f'<a href="{u}">link</a> ' for u in ("/a?b=2&a=1", "/a?a=1&b=2", "/b"))
    body = f"<html><body><p>{'本文です。' * 40}</p>{links}</body></html>".encode()
    page = process_page(body, "text/html; charset=utf-8", SEED, (), 100, links=rules)
    assert page.decoded.text == "" and page.decoded.encoding == "utf-8"
    assert page.extracted is not None and "本文です" in page.extracted.text
    assert page.extracted.outlinks == []
    assert page.links is not None
    assert [link.url for link in page.links.links] == [
        "http://127.0.0.1:8000/a?a=1&b=2",
        "http://127.0.0.1:8000/b",
    ]
    assert page.links_kept == 3
    plain = process_page(body, "text/html; charset=utf-8", SEED, (), 100)
    assert plain.links is None and plain.extracted is not None
    assert len(plain.extracted.outlinks) == 3
