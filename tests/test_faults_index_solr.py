"""Faults on the index side against the real Solr, each row of issue #12 a test: a loopback
proxy before Solr that delays or answers a chosen status, signals to the process group of a
crawl started in its own session, kill -9 while draining or committing, and deletes while
the outbox still holds adds. Nothing may be lost, nothing resurrected, every stop within 5 s.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.errors import SolrDocumentError, SolrSchemaError
from indexer.index.writer import SolrWriter
from indexer.settings import SolrSettings
from tests.faults_helpers import (
    crawl_args,
    last_run,
    outbox_count,
    outcomes,
    reap,
    run_count,
    signal_group,
    solr_ids,
    start_crawl,
    summary,
    wait_for,
    write_site,
)
from tests.solrproxy import SolrProxy
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr, pytest.mark.slow]
PAGES = 120
STOP_LIMIT = 5.0


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """A site of ``PAGES + 1`` pages on loopback."""
    with serve_folder(write_site(tmp_path / "site", PAGES)) as url:
        yield url


@pytest.fixture
def proxy(solr_core: tuple[str, str]) -> Iterator[SolrProxy]:
    """A proxy before the session's Solr (core emptied)."""
    with SolrProxy(solr_core[0]) as running:
        yield running


def _finish(
    args: list[str], env: dict[str, str] | None = None, timeout: float = 240
) -> tuple[int, str]:
    proc = start_crawl(args, env)
    try:
        _, err = proc.communicate(timeout=timeout)
    finally:
        reap(proc)
    return proc.returncode, err


def _every_page_once(base: str, core: str) -> None:
    ids = solr_ids(base, core)
    assert len(ids) == len(set(ids)) == PAGES + 1


def test_writer_classes_solr_400s_by_what_they_name(solr_core: tuple[str, str]) -> None:
    base, core = solr_core
    writer = SolrWriter(SolrSettings(url=base, core=core))
    with pytest.raises(SolrSchemaError, match="indexer solr update-config"):
        writer.update([{"id": "http://h.test/1", "no_such_field": "x"}], [])
    with pytest.raises(SolrDocumentError, match="published"):
        writer.update([{"id": "http://h.test/2", "published": "not-a-date"}], [])


def test_update_answering_404_pauses_and_loses_nothing(
    proxy: SolrProxy, solr_core: tuple[str, str], site: str, tmp_path: Path
) -> None:
    data = tmp_path / "d"
    proxy.force(404, times=3)  # however late the crawl's first update comes
    env = {"INDEXER_SOLR_BATCH_SIZE": "10", "INDEXER_SOLR_COMMIT_WITHIN_MS": "500"}
    code, err = _finish(crawl_args(proxy.url, data, "--delay", "0", f"{site}/"), env)
    assert code == 0, err[-2000:]
    assert len(proxy.forced()) >= 3, "the 404s never reached the crawl"
    assert "index-rejected" not in outcomes(data)
    assert summary(data)["phase"] == "finished" and outbox_count(data) == 0
    _every_page_once(*solr_core)


def test_unknown_field_pauses_naming_update_config_then_continues(
    proxy: SolrProxy, solr_core: tuple[str, str], site: str, tmp_path: Path
) -> None:
    data = tmp_path / "d"
    unknown = {"error": {"msg": "ERROR: [doc=x] unknown field 'new_field'", "code": 400}}
    # the configset is older than us: the first three updates are refused, whenever they
    # come (a time window opened here could close before a loaded machine sends one)
    proxy.force(400, times=3, body=json.dumps(unknown))
    args = crawl_args(proxy.url, data, "--delay", "0", f"{site}/")
    code, err = _finish(args, {"INDEXER_SOLR_BATCH_SIZE": "10"})
    assert code == 0, err[-2000:]
    paused = [line for line in err.splitlines() if "fetching paused" in line]
    assert len(paused) == 1 and "indexer solr update-config" in paused[0], err[-2000:]
    assert len(proxy.forced()) == 3 and "index-rejected" not in outcomes(data)
    _every_page_once(*solr_core)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stop_to_the_process_group_keeps_pages_in_flight_pending(
    solr_core: tuple[str, str], tmp_path: Path, sig: signal.Signals
) -> None:
    base, core = solr_core
    data = tmp_path / "d"
    root = write_site(tmp_path / "heavy", PAGES, paragraphs=400)  # extraction takes a while
    with serve_folder(root) as url:
        args = crawl_args(base, data, "--delay", "0", f"{url}/")
        proc = start_crawl(args, {"INDEXER_EXTRACT_WORKERS": "2"})
        try:
            wait_for(lambda: outcomes(data).get("indexed", 0) >= 10, 120, "10 pages indexed")
            sent = signal_group(proc, sig)
            _, err = proc.communicate(timeout=30)
            took = time.monotonic() - sent
        finally:
            reap(proc)
        assert proc.returncode == 130, err[-2000:]
        assert took < STOP_LIMIT, f"stopped after {took:.1f} s"
        assert "Traceback" not in err and "BrokenProcessPool" not in err, err[-3000:]
        assert err.count("stopping:") == 1, err[-2000:]
        stopped = outcomes(data)
        assert "extract-error" not in stopped and "internal-error" not in stopped, stopped
        assert "fetching" not in stopped and stopped.get("queued", 0) > 0, stopped  # released
        assert stopped.get("indexed", 0) < PAGES + 1, "the stop came after the crawl ended"
        assert last_run(data).phase == "interrupted" and not last_run(data).finished
        code, err = _finish([*args[:-1], "--resume"])
    assert code == 0, err[-2000:]
    assert outcomes(data) == {"indexed": PAGES + 1}
    _every_page_once(base, core)


def _until_phase(proc_data: Path, phase: str) -> None:
    wait_for(lambda: last_run(proc_data).phase == phase, 180, f"phase {phase}")


@pytest.mark.parametrize("phase", ["draining", "committing"])
def test_sigterm_while_draining_or_committing_to_a_slow_solr_stops_within_5_s(
    proxy: SolrProxy, solr_core: tuple[str, str], site: str, tmp_path: Path, phase: str
) -> None:
    data = tmp_path / "d"
    if phase == "draining":
        proxy.delay = 1.5  # each update takes 1.5 s: draining 121 documents in fives takes 36 s
    else:
        proxy.commit_delay = 60  # the final commit takes a minute
    env = {"INDEXER_SOLR_BATCH_SIZE": "5"}
    args = crawl_args(proxy.url, data, "--delay", "0", f"{site}/")
    proc = start_crawl(args, env)
    try:
        _until_phase(data, phase)
        sent = signal_group(proc, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        reap(proc)
    assert proc.returncode == 130, err[-2000:]
    assert took < STOP_LIMIT, f"stopped after {took:.1f} s"
    stopped = summary(data)
    assert (stopped["phase"], stopped["stopped_in"]) == ("interrupted", phase), stopped
    assert outbox_count(data) == stopped["pending_in_outbox"]
    assert (outbox_count(data) > 0) == (phase == "draining")  # committing: all sent, not committed
    assert not last_run(data).finished
    report = subprocess.run(
        [sys.executable, "-m", "indexer", "report", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert f"last run 1: interrupted (exit 130): stopped by a signal while {phase}" in report.stdout
    proxy.delay = proxy.commit_delay = 0
    code, err = _finish([*args[:-1], "--resume"])
    assert code == 0, err[-2000:]
    assert summary(data)["fetched"] == 0 and outbox_count(data) == 0  # continued, not redone
    _every_page_once(*solr_core)


@pytest.mark.parametrize("phase", ["draining", "committing"])
def test_kill_9_while_draining_or_committing_then_resume_continues_the_run(
    proxy: SolrProxy, solr_core: tuple[str, str], site: str, tmp_path: Path, phase: str
) -> None:
    data = tmp_path / "d"
    proxy.delay = 1.0
    env = {"INDEXER_SOLR_BATCH_SIZE": "40"}
    args = crawl_args(proxy.url, data, "--delay", "0", f"{site}/")
    proc = start_crawl(args, env)
    try:
        _until_phase(data, phase)
        signal_group(proc, signal.SIGKILL)
        proc.wait(10)
    finally:
        reap(proc)
    killed = last_run(data)
    assert killed.phase == phase and not killed.finished
    proxy.delay = 0
    code, err = _finish([*args[:-1], "--resume"])
    assert code == 0, err[-2000:]
    assert run_count(data) == 1 and last_run(data).phase == "finished"
    assert summary(data)["fetched"] == 0  # not a new run: no page fetched again
    _every_page_once(*solr_core)


def test_delete_host_while_the_outbox_holds_its_adds_leaves_nothing_to_come_back(
    proxy: SolrProxy, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    data = tmp_path / "d"
    proxy.delay = 60  # a Solr far behind: the crawl ends with its adds in the outbox
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        proc = start_crawl(crawl_args(proxy.url, data, "--delay", "0", f"{site}/"))
        try:
            _until_phase(data, "draining")
            assert outbox_count(data) == PAGES + 1
            signal_group(proc, signal.SIGKILL)
            proc.wait(10)
        finally:
            reap(proc)
    host = site.split("://", 1)[1].rstrip("/")
    delete = [sys.executable, "-m", "indexer", "delete", "--host", host, "--solr", base,
              "--data-dir", str(data)]  # fmt: skip
    code, err = _finish(delete)
    assert code == 0, err[-2000:]
    assert outbox_count(data) == 0
    # the site is gone too: only the outbox could bring the documents back
    resume = [*crawl_args(base, data, "--delay", "0"), "--resume"]
    code, err = _finish(resume, {"INDEXER_FETCH_MAX_ATTEMPTS": "1"})
    assert code == 0, err[-2000:]
    assert solr_ids(base, core) == [] and outbox_count(data) == 0
