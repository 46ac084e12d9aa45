"""Row 1 of issue 13 over several nights: a broken deploy answering 404 deletes nothing at
once, the guard counts 404 deletions, pages answering 304 still lead to their links."""

from __future__ import annotations

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
PAGES = 39  # plus the listing: 40 documents


def test_broken_deploy_404_night_waits_and_recovers(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    paths = write_listing(site.root, "/news", PAGES)
    broken = paths[1:7]  # 6 of 40 pages: 15 %, under the 20 % guard
    with serve(site) as url:
        args = job_args(base, core, tmp_path / "data")
        assert cli("crawl", *args, f"{url}/news/index.html").returncode == 0
        assert len(solr_docs(base, core)) == PAGES + 1

        site.set(status={p: 404 for p in broken})  # night 2: the broken deploy
        night = cli("reindex", *args)
        assert night.returncode == 0, night.stderr
        assert len(solr_docs(base, core)) == PAGES + 1, "a 404 deleted before its grace runs"
        outcomes = frontier_outcomes(tmp_path / "data")
        assert all(outcomes[url + p] == "http-404" for p in broken)

        night = cli("reindex", *args)  # night 3: still broken: grace over, 15 % deleted
        assert night.returncode == 0, night.stderr
        assert len(solr_docs(base, core)) == PAGES + 1 - len(broken)

        site.set()  # night 4: recovered; the listing answers 304
        night = cli("reindex", *args)
        assert night.returncode == 0, night.stderr
        outcomes = frontier_outcomes(tmp_path / "data")
        assert outcomes[f"{url}/news/index.html"] == "not-modified"
        docs = solr_docs(base, core)
        assert sorted(docs) == sorted(url + p for p in paths), "a recovered page was lost"
        for i, path in enumerate(paths[1:]):
            assert f"第{i}号" in str(docs[url + path]["content"])


def test_guard_counts_404_deletions_and_410_goes_at_once(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    paths = write_listing(site.root, "/docs", 19)  # 20 documents
    with serve(site) as url:
        args = job_args(base, core, tmp_path / "data")
        assert cli("crawl", *args, f"{url}/docs/index.html").returncode == 0
        gone = {paths[1]: 410}
        broken = {p: 404 for p in paths[2:8]}  # 6 of 20: 30 %
        site.set(status={**gone, **broken})
        night = cli("reindex", *args)
        assert night.returncode == 0, night.stderr
        docs = solr_docs(base, core)
        assert url + paths[1] not in docs, "410 Gone waits no grace"
        assert len(docs) == 19
        night = cli("reindex", *args)
        assert night.returncode == 3, night.stderr  # 6 of 19 > 20 %: refused
        assert "6 of 19 documents" in night.stderr and "nothing deleted" in night.stderr
        assert len(solr_docs(base, core)) == 19


def test_410_can_wait_like_a_404(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    paths = write_listing(site.root, "/docs", 9)
    config = tmp_path / "grace.toml"
    config.write_text("[reindex]\ndelete_410_at_once = false\n", "utf-8")
    with serve(site) as url:
        args = [*job_args(base, core, tmp_path / "data"), "--config", str(config)]
        assert cli("crawl", *args, f"{url}/docs/index.html").returncode == 0
        site.set(status={paths[3]: 410})
        assert cli("reindex", *args).returncode == 0
        assert url + paths[3] in solr_docs(base, core)
        assert cli("reindex", *args).returncode == 0
        assert url + paths[3] not in solr_docs(base, core)
