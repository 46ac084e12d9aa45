"""Row 3 of issue 13: frontier rows lost (the database stays valid) delete nothing that
still answers 200; a forgotten id is fetched and its answer decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recrawl_site import first_night, frontier_outcomes, lose_frontier_rows, solr_docs

pytestmark = pytest.mark.solr
PAGES = 59  # plus the listing: 60 documents


def test_lost_frontier_rows_are_fetched_before_anything_is_deleted(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    with first_night(solr_core, tmp_path, "/kb", PAGES) as night:
        url, paths, data = night.url, night.paths, night.data
        lost = [url + p for p in paths[1:11]]  # 10 of 60 rows, 17 %: under the guard
        marks = ",".join("?" * len(lost))  # and no stored links lead back to them
        lose_frontier_rows(data, f"url IN ({marks})", lost)
        (night.site.root / paths[10].lstrip("/")).unlink()  # one of them is really gone
        for _night in range(3):  # past delete_grace_runs
            night.reindex()
        docs = solr_docs(base, core)
        assert sorted(docs) == sorted(url + p for p in paths if p != paths[10])
        outcomes = frontier_outcomes(data)
        assert all(outcomes[u] in ("indexed", "unchanged", "not-modified") for u in lost[:-1])
        assert lost[-1] not in outcomes, "a deleted id stays in the frontier"


def test_ids_not_fetched_because_of_a_limit_are_kept(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    """Only an answer confirms a page gone: a limit that stops the run deletes nothing."""
    with first_night(solr_core, tmp_path, "/kb", 19) as night:
        url, data = night.url, night.data
        lose_frontier_rows(data, "url != ?", [f"{url}/kb/index.html"])
        for _night in range(3):
            night.reindex("--max-pages", "5")
        assert len(solr_docs(*solr_core)) == 20
