"""DataDir: versioned state files, adoption of unversioned ones, and broken files refused.

Socket-free unit tests on real SQLite files in a temporary directory.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from indexer import run_crawl
from indexer.crawl.datadir import APPLICATION_ID, DataDir, backup, open_state
from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.schema import _SCHEMA, FRONTIER
from indexer.crawl.frontier.view import FrontierView
from indexer.crawl.sqlite_errors import translate
from indexer.errors import CrawlLockedError, StateError, StorageError
from indexer.index.outbox import OUTBOX, Outbox
from indexer.pipeline.reconcile import MISSED, MissedRuns
from indexer.settings import load_settings


def _header(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        return (
            db.execute("PRAGMA application_id").fetchone()[0],
            db.execute("PRAGMA user_version").fetchone()[0],
        )
    finally:
        db.close()


def test_a_new_state_file_carries_its_application_id_and_version(tmp_path: Path) -> None:
    with Frontier(tmp_path):
        pass
    Outbox(tmp_path / "outbox.sqlite3").close()
    MissedRuns(tmp_path / "missed.sqlite3").close()
    for kind in (FRONTIER, OUTBOX, MISSED):
        assert _header(tmp_path / kind.name) == (APPLICATION_ID, kind.version)
    assert not list(tmp_path.glob("*.new"))


def test_an_unversioned_file_of_the_old_schema_is_adopted_as_version_1(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "frontier.sqlite3")
    db.executescript(_SCHEMA)
    db.execute("INSERT INTO urls (url, host, depth, run) VALUES ('http://127.0.0.1/', 'h', 0, 1)")
    db.commit()
    db.close()
    assert _header(tmp_path / "frontier.sqlite3") == (0, 0)
    with Frontier(tmp_path) as frontier:
        assert frontier.queued_count() == 1  # the rows are kept
    # adopted as version 1, then brought to the current version by the additive steps
    assert _header(tmp_path / "frontier.sqlite3") == (APPLICATION_ID, FRONTIER.version)


def _zero_bytes(path: Path) -> None:
    path.write_bytes(b"")


def _garbled(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[0:100] = os.urandom(100)  # the header: no longer "SQLite format 3"
    path.write_bytes(bytes(data))


def _half(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _foreign_tables(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    db.commit()
    db.close()


def _foreign_app(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=1234")
    db.commit()
    db.close()


def _newer(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()


BREAKAGES = {
    "zero-bytes": (_zero_bytes, "holds no tables"),
    "garbled": (_garbled, "malformed"),
    "half": (_half, "malformed"),
    "foreign-tables": (_foreign_tables, "no table 'urls'"),
    "foreign-app": (_foreign_app, "not a state file of indexer"),
    "newer": (_newer, "newer indexer"),
}


def _filled_frontier(data: Path, n: int = 3000) -> None:
    with Frontier(data) as frontier:
        frontier.start_run(False)
        frontier.add((f"http://127.0.0.1/{i}/{'x' * 40}", "127.0.0.1", 1) for i in range(n))


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_a_broken_frontier_is_a_state_error_naming_the_file(tmp_path: Path, name: str) -> None:
    _filled_frontier(tmp_path)
    breaker, expected = BREAKAGES[name]
    breaker(tmp_path / "frontier.sqlite3")
    for opener in (lambda: Frontier(tmp_path), lambda: FrontierView(tmp_path)):
        with pytest.raises(StateError) as caught:
            opener().close()
        message = str(caught.value)
        assert message.startswith(str(tmp_path / "frontier.sqlite3")), message
        assert expected in message and "\n" not in message
    if name == "newer":  # refused, not rewritten
        assert _header(tmp_path / "frontier.sqlite3")[1] == 99
    # the lock was released on the way out
    DataDir(tmp_path).lock()


@pytest.mark.parametrize("name", ["zero-bytes", "garbled", "foreign-tables"])
def test_a_broken_outbox_names_the_repair(tmp_path: Path, name: str) -> None:
    Outbox(tmp_path / "outbox.sqlite3").close()
    BREAKAGES[name][0](tmp_path / "outbox.sqlite3")
    with pytest.raises(StateError, match=r"indexer reindex --repair"):
        Outbox(tmp_path / "outbox.sqlite3")


def test_a_broken_missed_runs_file_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "missed.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StateError, match=r"missed\.sqlite3: .*delete it"):
        MissedRuns(tmp_path / "missed.sqlite3")


def test_a_missing_frontier_is_an_error_only_where_state_must_exist(tmp_path: Path) -> None:
    data = tmp_path / "typo"
    with pytest.raises(StateError, match="missing: no crawl state"):
        Frontier(data, create=False)
    with pytest.raises(StateError, match="missing"):
        FrontierView(data)
    assert not data.exists()  # nothing left behind
    Frontier(data).close()  # a new crawl creates it
    Frontier(data, create=False).close()


def test_the_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    first = DataDir(tmp_path)
    with first, pytest.raises(CrawlLockedError):
        DataDir(tmp_path).lock()
    with DataDir(tmp_path):
        pass


def test_backup_is_a_consistent_copy_with_its_header(tmp_path: Path) -> None:
    db = open_state(tmp_path / "outbox.sqlite3", OUTBOX, create=True)
    db.execute("INSERT INTO outbox (doc_id, action, payload) VALUES ('a', 'delete', NULL)")
    (tmp_path / "copy").mkdir()
    backup(db, tmp_path / "copy" / "outbox.sqlite3")
    db.close()
    assert _header(tmp_path / "copy" / "outbox.sqlite3") == (APPLICATION_ID, OUTBOX.version)
    copy = Outbox(tmp_path / "copy" / "outbox.sqlite3")
    assert copy.count() == 1
    copy.close()


def test_sqlite_result_codes_become_project_errors(tmp_path: Path) -> None:
    def error(code: int) -> sqlite3.Error:
        exc = sqlite3.OperationalError("boom")
        exc.sqlite_errorcode = code  # type: ignore[attr-defined]
        return exc

    full = translate(error(sqlite3.SQLITE_FULL), tmp_path / "f")
    assert isinstance(full, StorageError) and str(full).startswith(str(tmp_path / "f"))
    broken = translate(error(sqlite3.SQLITE_CORRUPT), tmp_path / "f", "do this")
    assert isinstance(broken, StateError) and str(broken).endswith("do this")
    other = error(sqlite3.SQLITE_ERROR)
    assert translate(other, tmp_path / "f") is other


def test_run_crawl_never_resumes_into_an_empty_crawl(tmp_path: Path) -> None:
    settings = load_settings(
        None, {"crawl.resume": True, "crawl.data_dir": tmp_path / "none"}, environ={}
    ).settings
    with pytest.raises(StateError, match="missing"):
        asyncio.run(run_crawl(settings, use_solr=False))
    assert not (tmp_path / "none").exists()
