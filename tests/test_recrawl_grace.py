"""Row 1 of issue 13 over several nights: a broken deploy answering 404 deletes nothing at
once, the guard counts 404 deletions, pages answering 304 still lead to their links."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recrawl_site import cli, first_night, frontier_outcomes, solr_docs

pytestmark = pytest.mark.solr
PAGES = 39  # plus the listing: 40 documents


def test_broken_deploy_404_night_waits_and_recovers(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    with first_night(solr_core, tmp_path, "/news", PAGES) as night:
        url, paths = night.url, night.paths
        broken = paths[1:7]  # 6 of 40 pages: 15 %, under the 20 % guard
        night.site.set(status={p: 404 for p in broken})  # night 2: the broken deploy
        night.reindex()
        assert len(solr_docs(base, core)) == PAGES + 1, "a 404 deleted before its grace runs"
        outcomes = frontier_outcomes(night.data)
        assert all(outcomes[url + p] == "http-404" for p in broken)

        night.reindex()  # night 3: still broken: grace over, 15 % deleted
        assert len(solr_docs(base, core)) == PAGES + 1 - len(broken)

        night.site.set()  # night 4: recovered; the listing answers 304
        night.reindex()
        outcomes = frontier_outcomes(night.data)
        assert outcomes[f"{url}/news/index.html"] == "not-modified"
        docs = solr_docs(base, core)
        assert sorted(docs) == sorted(url + p for p in paths), "a recovered page was lost"
        for i, path in enumerate(paths[1:]):
            assert f"第{i}号" in str(docs[url + path]["content"])


def test_guard_counts_404_deletions_and_410_goes_at_once(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    with first_night(solr_core, tmp_path, "/docs", 19) as night:  # 20 documents
        gone = {night.paths[1]: 410}
        broken = {p: 404 for p in night.paths[2:8]}  # 6 of 20: 30 %
        night.site.set(status={**gone, **broken})
        night.reindex()
        docs = solr_docs(base, core)
        assert night.url + night.paths[1] not in docs, "410 Gone waits no grace"
        assert len(docs) == 19
        refused = cli("reindex", *night.args)
        assert refused.returncode == 3, refused.stderr  # 6 of 19 > 20 %: refused
        assert "6 of 19 documents" in refused.stderr and "nothing deleted" in refused.stderr
        assert len(solr_docs(base, core)) == 19


def test_410_can_wait_like_a_404(solr_core: tuple[str, str], tmp_path: Path) -> None:
    config = tmp_path / "grace.toml"
    config.write_text("[reindex]\ndelete_410_at_once = false\n", "utf-8")
    with first_night(solr_core, tmp_path, "/docs", 9, "--config", str(config)) as night:
        gone = night.url + night.paths[3]
        night.site.set(status={night.paths[3]: 410})
        night.reindex()
        assert gone in solr_docs(*solr_core)
        night.reindex()
        assert gone not in solr_docs(*solr_core)


def test_a_page_that_moved_leaves_the_index_after_its_grace_runs(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    """Pages indexed under their own URL start redirecting (the page moved to another URL
    the site links, or into a loop): their documents go after the grace runs, as a 404's
    do, and the target stays."""
    base, core = solr_core
    with first_night(solr_core, tmp_path, "/docs", 19) as night:  # 20 documents
        url, paths = night.url, night.paths
        moved = {paths[1]: paths[2], paths[3]: paths[4], paths[4]: paths[3]}  # 3 and 4 loop
        night.site.set(redirect=moved)
        night.reindex()
        assert len(solr_docs(base, core)) == 20, "a redirect deleted before its grace runs"
        outcomes = frontier_outcomes(night.data)
        assert outcomes[url + paths[1]] == "redirected", outcomes[url + paths[1]]
        night.reindex()
        docs = solr_docs(base, core)
    assert {url + p for p in moved} & set(docs) == set(), "a moved page stayed indexed"
    assert url + paths[2] in docs and len(docs) == 17
