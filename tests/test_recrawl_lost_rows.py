"""Row 3 of issue 13: frontier rows lost (the database stays valid) delete nothing that
still answers 200; a forgotten id is fetched and its answer decides."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.recrawl_site import (
    ControlledSite,
    cli,
    frontier_outcomes,
    job_args,
    serve,
    solr_docs,
    write_listing,
)

pytestmark = pytest.mark.solr
PAGES = 59  # plus the listing: 60 documents


def test_lost_frontier_rows_are_fetched_before_anything_is_deleted(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    paths = write_listing(site.root, "/kb", PAGES)
    data = tmp_path / "data"
    with serve(site) as url:
        args = job_args(base, core, data)
        assert cli("crawl", *args, f"{url}/kb/index.html").returncode == 0
        assert len(solr_docs(base, core)) == PAGES + 1
        lost = [url + p for p in paths[1:11]]  # 10 of 60 rows, 17 %: under the guard
        db = sqlite3.connect(data / "frontier.sqlite3")
        with db:
            db.executemany("DELETE FROM urls WHERE url=?", [(u,) for u in lost])
            db.execute("DELETE FROM outlinks")  # no stored links lead back to them either
        db.close()
        (site.root / paths[10].lstrip("/")).unlink()  # one of them is really gone

        for _night in range(3):  # past delete_grace_runs
            night = cli("reindex", *args)
            assert night.returncode == 0, night.stderr
        docs = solr_docs(base, core)
        assert sorted(docs) == sorted(url + p for p in paths if p != paths[10])
        outcomes = frontier_outcomes(data)
        assert all(outcomes[u] in ("indexed", "unchanged", "not-modified") for u in lost[:-1])
        assert lost[-1] not in outcomes, "a deleted id stays in the frontier"


def test_ids_not_fetched_because_of_a_limit_are_kept(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    """Only an answer confirms a page gone: a limit that stops the run deletes nothing."""
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    write_listing(site.root, "/kb", 19)
    data = tmp_path / "data"
    with serve(site) as url:
        args = job_args(base, core, data)
        assert cli("crawl", *args, f"{url}/kb/index.html").returncode == 0
        db = sqlite3.connect(data / "frontier.sqlite3")
        with db:
            db.execute("DELETE FROM urls WHERE url != ?", (f"{url}/kb/index.html",))
            db.execute("DELETE FROM outlinks")
        db.close()
        for _night in range(3):
            night = cli("reindex", *args, "--max-pages", "5")
            assert night.returncode == 0, night.stderr
        assert len(solr_docs(base, core)) == 20
