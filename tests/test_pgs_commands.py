"""``indexer report``, ``reindex`` (and ``--dry-run``) and ``delete`` against the shared
PostgreSQL frontier (``--frontier URL``, issue #20), with the real Solr and a loopback site:
the reindex grace counters live in the database (``indexer.missed``), not the data
directory; a dry run plans on a SQLite copy of the shared frontier and changes nothing."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import psycopg
import pytest

from indexer.cli import main
from tests.faults_helpers import cli, solr_ids, write_site
from tests.webhost import serve_folder

pytestmark = pytest.mark.solr
PAGES = 6


def _stdout(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, out.getvalue()


def _missed(pg_url: str) -> dict[str, int]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        return {str(i): int(r) for i, r in conn.execute("SELECT id, runs FROM indexer.missed")}


def _runs(pg_url: str) -> int:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        row = conn.execute("SELECT COUNT(*) FROM indexer.runs").fetchone()
        return int(row[0]) if row else 0


def test_report_reindex_grace_and_delete_on_the_shared_frontier(
    solr_core: tuple[str, str], pg_url: str, tmp_path: Path
) -> None:
    base, core = solr_core
    data = tmp_path / "d"
    shared = ["--data-dir", str(data), "--frontier", pg_url, "-q"]
    d = ["--solr", base, *shared]
    root = write_site(tmp_path / "site", PAGES)
    with serve_folder(root) as site:
        assert cli("crawl", f"{site}/", "--delay", "0", *d)[0] == 0
        assert len(solr_ids(base, core)) == PAGES + 1
        code, report = _stdout("report", *shared)
        assert code == 0 and "indexed" in report and str(PAGES + 1) in report, report
        assert "finished" in report, report

        gone = f"{site}/p2.html"
        (root / "p2.html").unlink()  # answers 404 from now on
        code, err = cli("reindex", "--delay", "0", *d)
        assert code == 0, err
        assert _missed(pg_url) == {gone: 1}, "the grace counter is in the database"
        assert not (data / "missed.sqlite3").exists()
        assert gone in solr_ids(base, core), "deleted before its grace runs"
        runs = _runs(pg_url)
        code, plan = _stdout("reindex", "--dry-run", "--delay", "0", *d)  # on a SQLite copy
        assert code == 0, plan
        assert _runs(pg_url) == runs, "the dry run recorded a run in the shared frontier"
        assert json.dumps({"action": "delete", "id": gone}) in plan, plan
        assert gone in solr_ids(base, core) and _missed(pg_url) == {gone: 1}, "a dry run changed"
        code, err = cli("reindex", "--delay", "0", *d)
        assert code == 0, err
        assert gone not in solr_ids(base, core) and _missed(pg_url) == {}

        code, err = cli("delete", "--url", f"{site}/p3.html", *d)
        assert code == 0, err
        assert sorted(solr_ids(base, core)) == sorted(
            f"{site}/{p}" for p in ["", *[f"p{i}.html" for i in range(PAGES) if i not in (2, 3)]]
        )
