"""State files as an operator meets them (issue #14): every command that reads a state file
checks it through DataDir (a garbled outbox or missed-runs file, a frontier that is a
directory: one line naming the file, exit 2); SQLite's malformed message on one line; and
``reindex --repair`` after a killed reindex counts exactly what it re-sent."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

from indexer.crawl.frontier import Frontier
from indexer.index.outbox import Outbox
from indexer.pipeline.reconcile import MissedRuns
from tests.faults_helpers import (
    cli,
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

DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, nothing is asked


def _state(data: Path, urls: int = 1) -> Path:
    """A data directory with all three state files (a run of ``urls`` queued URLs)."""
    with Frontier(data) as frontier:
        frontier.start_run(False)
        frontier.add((f"{DEAD}/{'x' * 40}{i}", "127.0.0.1:9", 0) for i in range(urls))
    Outbox(data / "outbox.sqlite3").close()
    MissedRuns(data / "missed.sqlite3").close()
    return data


def _commands(data: Path) -> dict[str, list[str]]:
    d = ["--data-dir", str(data)]
    return {
        "report": ["report", *d],
        "report --urls": ["report", "--urls", *d],
        "crawl --resume": ["crawl", "--resume", "--solr", f"{DEAD}/solr", *d],
        "reindex": ["reindex", "--solr", f"{DEAD}/solr", *d],
        "delete": ["delete", "--url", f"{DEAD}/a", "--solr", f"{DEAD}/solr", *d],
    }


def _refused_by(data: Path, broken: Path, commands: dict[str, list[str]]) -> None:
    for name, args in commands.items():
        code, err = cli(*args)
        lines = err.strip().splitlines()
        assert code == 2, (name, err)
        assert len(lines) == 1 and str(broken) in lines[0], (name, err)
        assert "Traceback" not in err, name


@pytest.mark.parametrize("name", ["outbox.sqlite3", "missed.sqlite3"])
def test_every_command_checks_the_outbox_and_missed_runs(tmp_path: Path, name: str) -> None:
    data = _state(tmp_path / "d")
    broken = data / name
    for side in ("-wal", "-shm"):
        broken.with_name(name + side).unlink(missing_ok=True)
    broken.write_bytes(b"\x00garbage" + os.urandom(4000))
    _refused_by(data, broken, _commands(data))
    assert broken.stat().st_size == 4008  # untouched


def test_a_frontier_that_is_a_directory_is_a_broken_state_file(tmp_path: Path) -> None:
    data = tmp_path / "d"
    (data / "frontier.sqlite3").mkdir(parents=True)
    commands = _commands(data)
    commands["crawl"] = ["crawl", f"{DEAD}/", "--out", str(tmp_path / "o.jsonl"),
                         "--data-dir", str(data)]  # fmt: skip
    _refused_by(data, data / "frontier.sqlite3", commands)
    err = cli("report", "--data-dir", str(data))[1]
    assert "is a directory" in err and "missing" not in err, err


def test_sqlites_malformed_message_is_one_line(tmp_path: Path) -> None:
    data = _state(tmp_path / "d", urls=3000)
    frontier = data / "frontier.sqlite3"
    raw = bytearray(frontier.read_bytes())
    raw[3 * 4096 : 3 * 4096 + 200] = b"\x5a" * 200  # a b-tree page, not the header
    frontier.write_bytes(bytes(raw))
    code, err = cli("report", "--data-dir", str(data))
    assert code == 2 and "malformed" in err, err
    assert len(err.strip().splitlines()) == 1, err


def _revise(root: Path) -> None:
    for page in root.glob("p*.html"):
        page.write_text(page.read_text("utf-8").replace("説明します", "改訂しました"), "utf-8")


@pytest.mark.solr
@pytest.mark.slow
def test_repair_after_a_killed_reindex_counts_what_it_resent(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    data, pages = tmp_path / "d", 30
    root = write_site(tmp_path / "site", pages)
    common = ["--data-dir", str(data), "--delay", "0", "-q"]
    with serve_folder(root) as site, SolrProxy(base) as proxy:
        assert cli("crawl", f"{site}/", "--solr", base, *common)[0] == 0
        _revise(root)  # every page changed: the reindex sends them all
        proxy.delay = 60  # and Solr takes none of it before the kill
        proc = start_crawl([sys.executable, "-m", "indexer", "reindex", "--solr", proxy.url,
                            "--data-dir", str(data), "--delay", "0.15"])  # fmt: skip
        try:
            wait_for(lambda: outbox_count(data) >= 8, 120, "8 changes in the outbox")
            signal_group(proc, signal.SIGKILL)
            proc.wait(10)
        finally:
            reap(proc)
        (data / "outbox.sqlite3").write_bytes(b"")  # the changes are lost with it
        code, err = cli("reindex", "--repair", "--solr", base, *common)
        assert code == 0, err
        resent, stale = map(int, re.search(r"re-sent (\d+) of (\d+)", err).groups())  # type: ignore[union-attr]
        assert resent == stale and 8 <= stale < pages + 1, err
        assert f"({pages + 1} indexed in the frontier)" in err, err  # the queued ones too
        code, err = cli("reindex", "--repair", "--solr", base, *common)
        assert "re-sent 0 of 0" in err, err
        assert cli("reindex", "--solr", base, *common)[0] == 0  # the rest follows
    assert len(solr_ids(base, core)) == pages + 1
