"""Row 4 of issue 13: two jobs on one host, each with its own data directory; a data
directory keeps its crawl's scope and limits, and reindex keeps to them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recrawl_site import (
    ControlledSite,
    cli,
    frontier_outcomes,
    job_args,
    plan_lines,
    serve,
    solr_docs,
    write_listing,
    write_page,
)

pytestmark = pytest.mark.solr


def _site(root: Path) -> ControlledSite:
    site = ControlledSite(root)
    bad = write_listing(site.root, "/bad", 9)
    big = write_listing(site.root, "/big/l", 39)
    other = write_listing(site.root, "/big/m", 9)
    # one home page links every part, so an unscoped crawl reaches everything
    write_page(site.root, "/index.html", "ホーム", "社内ポータルです。", [bad[0], big[0], other[0]])
    for path in (*bad, *big):
        text = (site.root / path.lstrip("/")).read_text("utf-8")
        (site.root / path.lstrip("/")).write_text(
            text.replace("</ul>", '<li><a href="/">ホーム</a></li></ul>'), "utf-8"
        )
    return site


def _revise(root: Path) -> None:
    for page in root.rglob("*.html"):
        page.write_text(page.read_text("utf-8").replace("です。", "です（改訂）。"), "utf-8")


def _count(docs: dict[str, object], url: str, prefix: str) -> int:
    return sum(doc_id.startswith(url + prefix) for doc_id in docs)


def test_two_jobs_on_one_host_keep_their_scopes(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    site = _site(tmp_path / "site")
    with serve(site) as url:
        job_a = job_args(base, core, tmp_path / "a")
        job_b = job_args(base, core, tmp_path / "b")
        crawl_a = cli("crawl", *job_a, "--include", "/bad/", f"{url}/bad/index.html")
        assert crawl_a.returncode == 0, crawl_a.stderr
        crawl_b = cli(
            "crawl", *job_b, "--include", "/big/l/", "--max-pages", "20", f"{url}/big/l/index.html"
        )
        assert crawl_b.returncode == 0, crawl_b.stderr
        before = solr_docs(base, core)
        assert _count(before, url, "/bad/") == 10 and _count(before, url, "/big/l/") == 20
        assert len(before) == 30

        (site.root / "bad" / "p0.html").unlink()  # job A's page really goes
        _revise(site.root)  # every page changes: links are read again from every page
        for _night in range(2):
            for job in (job_a, job_b):
                night = cli("reindex", *job)
                assert night.returncode == 0, night.stderr
        after = solr_docs(base, core)
        assert _count(after, url, "/bad/") == 9, "job A lost its page after grace"
        assert sorted(i for i in after if "/big/" in i) == sorted(i for i in before if "/big/" in i)
        assert len(after) == 29, "a job grew outside its stored scope or limits"


def test_reindex_flags_narrow_and_widening_needs_rescope(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    site = _site(tmp_path / "site")
    with serve(site) as url:
        job = job_args(base, core, tmp_path / "b")
        seed = f"{url}/big/l/index.html"
        assert cli("crawl", *job, "--include", "/big/", "--max-pages", "20", seed).returncode == 0
        start = solr_docs(base, core)
        assert len(start) == 20  # --max-pages 20 (the limit counts pages fetched in a run)

        dry = cli("reindex", *job, "--include", "/big/m/", "--dry-run")  # both must hold
        assert dry.returncode == 0, dry.stderr
        assert plan_lines(dry) == [
            {"summary": True, "add": 0, "update": 0, "delete": 0, "refused": []}
        ]
        narrow = cli("reindex", *job, "--include", "/big/l/p1", "--include", "/big/l/p2")
        assert narrow.returncode == 0, narrow.stderr
        outcomes = frontier_outcomes(tmp_path / "b")
        fetched = sorted(u for u, o in outcomes.items() if o == "not-modified" and u != seed)
        assert all("/big/l/p1" in u or "/big/l/p2" in u for u in fetched) and fetched, outcomes
        now = solr_docs(base, core)
        assert {i: now[i] for i in start} == start, "a narrowed run deleted or changed documents"
        assert all("/big/l/p1" in i or "/big/l/p2" in i for i in set(now) - set(start))
        start = now

        wider = cli("reindex", *job, "--max-pages", "60")
        assert wider.returncode == 2 and "--rescope" in wider.stderr
        assert "crawl.max_pages" in wider.stderr
        config = tmp_path / "wide.toml"
        config.write_text('[crawl]\ninclude = ["/big/", "/bad/"]\n', "utf-8")
        moved = cli("reindex", *job, "--config", str(config))
        assert moved.returncode == 2 and "crawl.include" in moved.stderr

        plan = cli("reindex", *job, "--max-pages", "60", "--rescope", "--dry-run")
        assert plan.returncode == 0, plan.stderr
        lines = plan_lines(plan)
        assert {"rescope": {"crawl.max_pages": {"stored": 20, "new": 60}}, "narrowed": {}} in lines
        assert lines[-1]["add"] > 0
        assert solr_docs(base, core) == start, "a dry run changed the index"

        grown = cli("reindex", *job, "--max-pages", "60", "--rescope")
        assert grown.returncode == 0, grown.stderr
        assert len(solr_docs(base, core)) > len(start)
        again = cli("reindex", *job, "--max-pages", "60")  # stored now: no --rescope needed
        assert again.returncode == 0, again.stderr
        assert all("/big/" in i for i in solr_docs(base, core))
