"""Reindex under faults against the real Solr (issue #12): a 503 on ``/select`` while it
reconciles is waited out like an outage on ``/update`` and, past ``solr.drain_timeout``,
ends the run ``failed`` with a reason; SIGTERM to a reindex in its crawl or while it waits
on Solr ends it ``interrupted`` (exit 130) within 5 s with nothing deleted; a second signal
to a crawl still writes the run's end."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults_helpers import (
    cli,
    crawl_args,
    last_run,
    outbox_count,
    reap,
    signal_group,
    solr_ids,
    start_crawl,
    wait_for,
    write_site,
)
from tests.solrproxy import SolrProxy
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr, pytest.mark.slow]
PAGES = 12
STOP_LIMIT = 5.0
#: A reindex that would delete whatever answers 404 at once (grace 1, no guard).
DELETING = {"INDEXER_REINDEX_DELETE_GRACE_RUNS": "1", "INDEXER_REINDEX_MAX_DELETE_SHARE": "1.0"}


@pytest.fixture
def crawled(solr_core: tuple[str, str], tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """``(site URL, site folder, data dir)`` of a finished crawl into the session's Solr."""
    base, core = solr_core
    root = write_site(tmp_path / "site", PAGES)
    data = tmp_path / "d"
    with serve_folder(root) as site:
        code, err = cli("crawl", f"{site}/", "--solr", base, "--data-dir", str(data), "-q",
                        "--delay", "0")  # fmt: skip
        assert code == 0, err
        assert len(solr_ids(base, core)) == PAGES + 1
        yield site, root, data


@pytest.fixture
def proxy(solr_core: tuple[str, str]) -> Iterator[SolrProxy]:
    with SolrProxy(solr_core[0]) as running:
        yield running


def _reindex(solr: str, data: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "indexer", "reindex", "--solr", solr, "--data-dir", str(data),
            "--delay", "0.25"]  # fmt: skip
    return start_crawl(args, env)


def _in_phase(data: Path, phase: str, run: int = 2) -> None:
    wait_for(lambda: (last_run(data).id, last_run(data).phase) == (run, phase), 120, phase)


def _ended(proc: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=timeout)
    finally:
        reap(proc)
    return proc.returncode, err


def test_a_503_on_select_while_reconciling_is_waited_out(
    crawled: tuple[str, Path, Path], proxy: SolrProxy, solr_core: tuple[str, str]
) -> None:
    _, _, data = crawled
    proc = _reindex(proxy.url, data, {})
    _in_phase(data, "crawling")
    proxy.force(503, path="/select")
    _in_phase(data, "reconciling")
    wait_for(lambda: len(proxy.forced()) >= 2, 60, "two 503s met while reconciling")
    proxy.force(None)  # Solr is back
    code, err = _ended(proc)
    assert code == 0, err[-2000:]
    assert last_run(data).phase == "finished" and "Traceback" not in err
    assert len(solr_ids(*solr_core)) == PAGES + 1


def test_a_503_past_drain_timeout_fails_the_run_with_a_reason(
    crawled: tuple[str, Path, Path], proxy: SolrProxy, solr_core: tuple[str, str]
) -> None:
    _, root, data = crawled
    (root / "p1.html").unlink()  # a delete is planned: none may be sent
    proc = _reindex(proxy.url, data, {**DELETING, "INDEXER_SOLR_DRAIN_TIMEOUT": "2"})
    _in_phase(data, "crawling")
    proxy.force(503, path="/select")
    code, err = _ended(proc)
    assert code == 1, err[-2000:]
    run = last_run(data)
    assert (run.phase, run.exit_code) == ("failed", 1) and "reconciling" in run.reason, run
    assert "Traceback" not in err
    assert len(solr_ids(*solr_core)) == PAGES + 1  # nothing deleted


@pytest.mark.parametrize("phase", ["crawling", "reconciling"])
def test_sigterm_to_a_reindex_interrupts_it_and_deletes_nothing(
    crawled: tuple[str, Path, Path],
    proxy: SolrProxy,
    solr_core: tuple[str, str],
    phase: str,
) -> None:
    _, root, data = crawled
    for i in range(3):  # gone pages: a finished job would delete them
        (root / f"p{i}.html").unlink()
    proc = _reindex(proxy.url, data, DELETING)
    try:
        _in_phase(data, "crawling")
        if phase == "reconciling":
            proxy.force(503, path="/select")  # the job waits on Solr: the stop must end it
            _in_phase(data, "reconciling")
            wait_for(lambda: bool(proxy.forced()), 60, "a /select answered 503")
        sent = signal_group(proc, signal.SIGTERM)
        code, err = _ended(proc, 60)
        took = time.monotonic() - sent
    finally:
        reap(proc)
    assert code == 130, err[-2000:]
    assert took < STOP_LIMIT, f"stopped after {took:.1f} s"
    run = last_run(data)
    assert (run.phase, run.exit_code) == ("interrupted", 130), run
    assert run.reason == f"stopped by a signal while {phase}", run
    assert "Traceback" not in err
    assert len(solr_ids(*solr_core)) == PAGES + 1  # nothing deleted
    proxy.force(None)
    code, err = _ended(_reindex(proxy.url, data, DELETING))  # the deletes were real
    assert code == 0, err[-2000:]
    assert len(solr_ids(*solr_core)) == PAGES + 1 - 3


def test_a_second_signal_aborts_with_the_run_end_written(
    proxy: SolrProxy, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "d"
    proxy.delay = 1.5  # a slow Solr: the drain takes long enough for two signals
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        args = crawl_args(proxy.url, data, "--delay", "0", f"{site}/")
        proc = start_crawl(args, {"INDEXER_SOLR_BATCH_SIZE": "2"})
        try:
            _in_phase(data, "draining", run=1)
            signal_group(proc, signal.SIGTERM)
            time.sleep(0.3)
            signal_group(proc, signal.SIGTERM)
            code, err = _ended(proc, 60)
        finally:
            reap(proc)
        assert code == 130, err[-2000:]
        run = last_run(data)
        assert (run.phase, run.exit_code) == ("interrupted", 130), run
        assert run.reason == "aborted by a second signal while draining", run
        proxy.delay = 0
        code, err = _ended(start_crawl([*args[:-1], "--resume"]))
    assert code == 0, err[-2000:]
    assert len(solr_ids(*solr_core)) == PAGES + 1 and outbox_count(data) == 0
