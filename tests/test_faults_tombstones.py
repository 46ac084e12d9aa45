"""A delete stays deleted (issue #12): after ``indexer delete --url`` / ``--host`` neither
``crawl --resume`` nor ``indexer reindex`` brings the documents back through the stored
seeds, scope or outlinks; naming the URL or host as a seed of ``indexer crawl`` lifts the
tombstone. Against the real Solr and a loopback site that still serves every page."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.schema import _SCHEMA, FRONTIER
from tests.faults_helpers import cli, outbox_count, solr_ids, write_site
from tests.pg_fixtures import FrontierCli
from tests.webhost import serve_folder

PAGES = 12


@pytest.mark.solr
def test_deleted_url_and_host_stay_deleted_until_crawled_as_a_seed(
    solr_core: tuple[str, str], tmp_path: Path, frontier_cli: FrontierCli
) -> None:
    base, core = solr_core
    d = ["--solr", base, "--data-dir", str(tmp_path / "d"), "-q", *frontier_cli.flags]
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        host = site.split("://", 1)[1].rstrip("/")
        assert cli("crawl", f"{site}/", "--delay", "0", *d)[0] == 0
        assert len(solr_ids(base, core)) == PAGES + 1
        gone = f"{site}/p3.html"
        code, err = cli("delete", "--url", gone, *d)
        assert code == 0 and f"indexer crawl {gone}" in err, err
        for again in (["crawl", "--resume", "--delay", "0"], ["reindex", "--delay", "0"]):
            code, err = cli(*again, *d)
            assert code == 0, err
            ids = solr_ids(base, core)
            assert gone not in ids and len(ids) == PAGES, (again, len(ids))
        code, err = cli("delete", "--host", host, *d)
        assert code == 0 and "stays deleted" in err, err
        for again in (["crawl", "--resume", "--delay", "0"], ["reindex", "--delay", "0"]):
            code, err = cli(*again, *d)
            assert code == 0, err
            assert solr_ids(base, core) == [] and outbox_count(tmp_path / "d") == 0, again
        # a seed on the command line lifts its own URL's tombstone and its host's
        assert cli("crawl", gone, "--delay", "0", *d)[0] == 0
        assert solr_ids(base, core) == [gone]
        assert cli("crawl", f"{site}/", "--delay", "0", *d)[0] == 0
        assert len(solr_ids(base, core)) == PAGES + 1


def test_a_version_1_frontier_gains_the_tombstones_step(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "frontier.sqlite3")
    db.executescript(_SCHEMA)
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with Frontier(tmp_path) as frontier:
        frontier.tombstones.bury_host("127.0.0.1:8001")
        frontier.run = 1
        buried, kept = "http://127.0.0.1:8001/a", "http://127.0.0.1:8002/"
        assert frontier.add([(buried, "127.0.0.1:8001", 0), (kept, "127.0.0.1:8002", 0)]) == 1
    db = sqlite3.connect(tmp_path / "frontier.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == FRONTIER.version >= 2
    assert db.execute("SELECT kind, key FROM tombstones").fetchall() == [("host", "127.0.0.1:8001")]
    db.close()


@pytest.mark.solr
def test_a_delete_solr_did_not_take_is_done_by_the_next_reindex(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    """Solr down during ``indexer delete``: exit 1 with a line that says the delete is
    recorded and what sends it; the frontier forgets the URL or host at once (no run
    fetches it again) and the next reindex deletes what Solr still holds of it."""
    base, core = solr_core
    data = ["--data-dir", str(tmp_path / "d"), "-q"]
    down = ["--solr", "http://127.0.0.1:1/solr", *data]  # nothing listens on port 1
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        host = site.split("://", 1)[1].rstrip("/")
        assert cli("crawl", f"{site}/", "--delay", "0", "--solr", base, *data)[0] == 0
        gone = f"{site}/p3.html"
        code, err = cli("delete", "--url", gone, *down)
        assert code == 1 and "the delete is recorded" in err and "reindex" in err, err
        (tmp_path / "d" / "outbox.sqlite3").unlink()  # even without its queued delete row
        assert cli("reindex", "--repair", "--delay", "0", "--solr", base, *data)[0] == 0
        assert cli("reindex", "--delay", "0", "--solr", base, *data)[0] == 0
        ids = solr_ids(base, core)
        assert gone not in ids and len(ids) == PAGES, len(ids)
        code, err = cli("delete", "--host", host, *down)
        assert code == 1 and "`indexer reindex` deletes it" in err, err
        code, err = cli("reindex", "--delay", "0", "--solr", base, *data)
        assert code == 0, err
        assert solr_ids(base, core) == [], "the buried host's documents are deleted"
        assert cli("report", *data)[0] == 0
