"""Row 2 of issue 13 over several nights: a maintenance page answered for every URL
replaces no indexed document, keeps no validators, and the recovery night restores all."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.recrawl_site import (
    ControlledSite,
    cli,
    first_night,
    frontier_outcomes,
    job_args,
    plan_lines,
    serve,
    solr_docs,
    write_listing,
)

pytestmark = pytest.mark.solr
PAGES = 19  # plus the listing: 20 documents


def _maintenance_docs(docs: dict[str, dict[str, object]]) -> list[str]:
    return sorted(i for i, d in docs.items() if "メンテナンス" in str(d.get("content", "")))


def test_maintenance_nights_replace_nothing_and_recovery_restores(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    with first_night(solr_core, tmp_path, "/wiki", PAGES) as night:
        site, url, args, paths, data = night.site, night.url, night.args, night.paths, night.data
        real = solr_docs(base, core)

        site.set(mode="maintenance", since=int(time.time()))
        dry = cli("reindex", *args, "--dry-run")
        assert dry.returncode == 0, dry.stderr
        summary = plan_lines(dry)[-1]
        assert summary["summary"] is True and summary["delete"] == 0
        for _night in range(2):  # two maintenance nights: past delete_grace_runs
            night.reindex()
            outcomes = frontier_outcomes(data)
            judged = [p for p in paths if outcomes[url + p] == "sitewide-duplicate"]
            assert len(judged) == len(paths), outcomes
            docs = solr_docs(base, core)
            assert sorted(docs) == sorted(real), "a maintenance night deleted documents"
            # the host's first pages wait for the verdict: not one document is replaced
            assert _maintenance_docs(docs) == []

        site.set()  # recovery night
        night.reindex()
        docs = solr_docs(base, core)
        assert _maintenance_docs(docs) == []
        assert {i: d["content"] for i, d in docs.items()} == {
            i: d["content"] for i, d in real.items()
        }
        outcomes = frontier_outcomes(data)
        assert sum(o == "not-modified" for o in outcomes.values()) >= PAGES - 1, outcomes


def test_a_few_same_pages_are_ordinary_duplicates(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    """Two URLs answering one page (/ and /index.html) stay a plain ``duplicate``."""
    base, core = solr_core
    site = ControlledSite(tmp_path / "site")
    write_listing(site.root, "/wiki", PAGES)
    (site.root / "wiki" / "copy.html").write_bytes((site.root / "wiki" / "p3.html").read_bytes())
    with serve(site) as url:
        args = job_args(base, core, tmp_path / "data")
        seeds = [f"{url}/wiki/index.html", f"{url}/wiki/copy.html"]
        assert cli("crawl", *args, *seeds).returncode == 0
        outcomes = frontier_outcomes(tmp_path / "data")
        assert "sitewide-duplicate" not in outcomes.values()
        assert list(outcomes.values()).count("duplicate") == 1
