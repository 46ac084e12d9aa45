"""A reindex whose very first request for Solr's ids meets a 503 (#12 leftover): it still
records its run — ``failed``, exit 1 as documented, Solr's answer in the reason — so
``indexer report`` and ``/admin`` show it; nothing is fetched or deleted, and the next job
runs as usual."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from indexer.cli import main
from indexer.web.admin.state import overview
from tests.faults_helpers import cli, last_run, run_count, solr_ids, write_site
from tests.solrproxy import SolrProxy
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr]
PAGES = 4


def _report(data: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["report", "--data-dir", str(data)]) == 0
    return out.getvalue()


def test_a_503_to_the_first_ids_request_records_a_failed_run(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    data = tmp_path / "d"
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        code, err = cli("crawl", f"{site}/", "--solr", base, "--data-dir", str(data), "-q",
                        "--delay", "0")  # fmt: skip
        assert code == 0, err
        with SolrProxy(base) as proxy:
            proxy.force(503, path="/select")  # Solr overloaded before the job asks anything
            code, err = cli("reindex", "--solr", proxy.url, "--data-dir", str(data), "-q")
            assert proxy.forced(), "the job never asked Solr"
        assert code == 1, err
        run = last_run(data)
        assert (run.id, run.phase, run.exit_code) == (2, "failed", 1), run
        assert "503" in run.reason and "before the recrawl" in run.reason, run
        assert "Traceback" not in err
        assert "failed" in _report(data) and "503" in _report(data)
        shown = overview(data).last_reindex  # the dashboard's "Last reindex" names it
        assert shown is not None and (shown.kind, shown.record.phase) == ("reindex", "failed"), (
            shown
        )
        assert len(solr_ids(base, core)) == PAGES + 1  # nothing deleted
        code, err = cli("reindex", "--solr", base, "--data-dir", str(data), "-q",
                        "--delay", "0")  # fmt: skip
    assert code == 0, err
    assert run_count(data) == 3 and last_run(data).phase == "finished"
    assert len(solr_ids(base, core)) == PAGES + 1
