"""Template statistics: what counts as template, bounds, persistence, site-wide duplicates."""

from __future__ import annotations

from pathlib import Path

from indexer.extract import extract_page
from indexer.extract.template import (
    HostStats,
    MemoryTemplateStore,
    SiteTemplate,
    TemplateLearner,
    TemplateParams,
    block_key,
    normalized,
)
from tests.pg_fixtures import OpenFrontier

PARAMS = TemplateParams(share=0.5, min_count=3, min_pages=4, max_keys=50, window=100)


def test_normalized_text_ignores_digits_width_and_case() -> None:
    assert normalized("Ｐａｇｅ  3 of 12") == normalized("page 4 of 9")
    assert block_key("body/p", "© 2023") == block_key("body/p", "© 2024")
    assert block_key("body/p", "menu") != block_key("body/div/p", "menu")


def test_blocks_on_a_large_share_of_pages_are_template() -> None:
    stats = HostStats()
    for i in range(10):
        stats.observe(["menu", "footer", f"own-{i}"] + (["half"] if i % 2 else []), PARAMS)
    template = stats.template(PARAMS)
    assert {"menu", "footer", "half"} <= template.keys
    assert not any(key.startswith("own-") for key in template.keys | template.seen)


def test_no_template_before_enough_pages() -> None:
    stats = HostStats()
    for _ in range(PARAMS.min_pages - 1):
        stats.observe(["menu"], PARAMS)
    assert not stats.template(PARAMS).known
    stats.observe(["menu"], PARAMS)
    assert stats.template(PARAMS).keys == {"menu"}


def test_statistics_stay_bounded_and_keep_the_template() -> None:
    stats = HostStats()
    for i in range(500):
        stats.observe(["menu"] + [f"own-{i}-{j}" for j in range(20)], PARAMS)
        assert len(stats.counts) <= 2 * PARAMS.max_keys
    assert stats.pages < 2 * PARAMS.window  # halved once per window
    assert "menu" in stats.template(PARAMS).keys


def test_a_new_template_wins_within_a_window() -> None:
    stats = HostStats()
    for _ in range(150):
        stats.observe(["old-menu"], PARAMS)
    for _ in range(250):
        stats.observe(["new-menu"], PARAMS)
    assert stats.template(PARAMS).keys == {"new-menu"}


def test_sitewide_duplicates_teach_nothing() -> None:
    learner = TemplateLearner(MemoryTemplateStore(), PARAMS)
    for _ in range(10):
        learner.observe("h", ["maintenance"], sitewide_duplicate=True)
    assert learner.pages("h") == 0 and not learner.template("h").known


def test_unreadable_stored_statistics_start_afresh() -> None:
    assert HostStats.from_json("{not json").pages == 0
    assert HostStats.from_json('{"pages": 1}').counts == {}


def test_statistics_persist_in_the_frontier_across_runs(
    tmp_path: Path, open_frontier: OpenFrontier
) -> None:
    with open_frontier(tmp_path) as frontier:
        learner = TemplateLearner(frontier.extract_state, PARAMS)
        for i in range(6):
            learner.observe("intra.example", ["menu", f"own-{i}"])
        learner.flush()
    with open_frontier(tmp_path) as frontier:
        again = TemplateLearner(frontier.extract_state, PARAMS)
        assert again.template("intra.example").keys == {"menu"}
        assert not again.template("other.example").known


def test_hosts_beyond_the_memory_bound_are_written_out(tmp_path: Path) -> None:
    store = MemoryTemplateStore()
    learner = TemplateLearner(store, TemplateParams(min_pages=2, min_count=2, max_hosts=2))
    for host in ("a", "b", "c"):
        for _ in range(3):
            learner.observe(host, ["menu"])
    assert "a" in store.data  # evicted, saved
    assert learner.template("a").keys == {"menu"}  # read back


def _page(title: str, body: str) -> str:
    return (
        f"<html><head><title>{title}</title></head><body>"
        '<div class="top"><a href="/">Manual</a> &gt; <a href="/m/">Modules</a></div>'
        '<p class="langs">Available Languages: <a href="?en">en</a> | <a href="?ja">ja</a></p>'
        f'<div class="doc"><h1>{title}</h1>{body}'
        '<div class="note"><p>Notice: this is not a Q&amp;A section. Comments here should '
        "be about improving the documentation and may be removed by our moderators.</p></div>"
        "</div><p>Copyright The Example Foundation, licensed under the Example License.</p>"
        "</body></html>"
    )


WORDS = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet", "jade"]


def _site() -> tuple[list[str], str]:
    pages = []
    for word in WORDS:
        text = " ".join(f"{word}{other}" for other in WORDS)
        body = f"<p>The {word} directive sets {text}. Use it with care, as shown.</p>"
        pages.append(_page(f"Directive {word}", body))
    short = _page(
        "WatchdogInterval",
        "<table><tr><td>Syntax:</td><td>WatchdogInterval seconds</td></tr>"
        "<tr><td>Context:</td><td>server config</td></tr></table>",
    )
    return pages, short


def _learnt(pages: list[str]) -> SiteTemplate:
    learner = TemplateLearner(MemoryTemplateStore())
    for html in pages:
        learner.observe("h", extract_page(html, "http://127.0.0.1/", learn=True).keys)
    return learner.template("h")


def test_a_short_page_keeps_its_own_table_and_loses_the_notice() -> None:
    pages, short = _site()
    template = _learnt(pages)
    alone = extract_page(short, "http://127.0.0.1/s").doc.text
    learned = extract_page(short, "http://127.0.0.1/s", template=template).doc.text
    assert "Notice" in alone  # the per-page chain cannot tell the notice is everywhere
    assert "WatchdogInterval seconds" in learned and "server config" in learned
    assert "Notice" not in learned and "Available Languages" not in learned
    assert "Copyright" not in learned


def test_learning_never_drops_unique_text_the_chain_kept() -> None:
    pages, _ = _site()
    template = _learnt(pages)
    for html, word in zip(pages, WORDS, strict=True):
        alone = extract_page(html, "http://127.0.0.1/").doc.text
        learned = extract_page(html, "http://127.0.0.1/", template=template).doc.text
        assert f"The {word} directive sets" in alone and f"The {word} directive sets" in learned
        assert "Available Languages" not in learned


def test_the_raw_page_store_is_bounded_in_bytes() -> None:
    from indexer.models import FetchResult
    from indexer.pipeline.learning import RawPageStore, StoredPage

    def stored(url: str, size: int) -> StoredPage:
        fetched = FetchResult(url, url, 200, {}, b"x" * size, "2024-01-01T00:00:00Z")
        return StoredPage(url, fetched, "digest", "")

    store = RawPageStore(limit=250)
    assert store.put("a", stored("http://127.0.0.1/1", 100))
    assert store.put("b", stored("http://127.0.0.1/2", 100))
    assert not store.put("a", stored("http://127.0.0.1/3", 100))  # over the limit
    assert [p.url for p in store.take("a")] == ["http://127.0.0.1/1"]
    assert store.size == 100 and store.hosts() == ["b"]
    assert store.put("a", stored("http://127.0.0.1/3", 100))  # room again


def test_state_without_the_extraction_tables_reads_as_empty(tmp_path: Path) -> None:
    import sqlite3

    from indexer.crawl.frontier.extract_state import ExtractState

    db = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    view = ExtractState(db, read_only=True)  # an older frontier: no tables, nothing created
    assert view.explanation("http://127.0.0.1/") is None
    assert view.load_template_stats("127.0.0.1") is None
    state = ExtractState(db)  # opened for writing: the tables are added
    state.save_explanation("http://127.0.0.1/", 1, '{"action": "kept"}')
    assert view.explanation("http://127.0.0.1/") == '{"action": "kept"}'
    db.close()
