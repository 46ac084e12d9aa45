"""The PostgreSQL frontier (issue #20): its schema and refusals, claims shared by processes,
and the commands against it (crawl, report) on a real PostgreSQL and a loopback site."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import psycopg
import pytest

from indexer.crawl.frontier.postgres.connection import redact, to_pyformat
from indexer.crawl.frontier.postgres.schema import VERSION
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.errors import ConfigError, StateError
from indexer.settings import load_settings
from tests.faults_helpers import cli
from tests.faultserver import FaultServer
from tests.pg_fixtures import read_elsewhere


def _with_password(url: str) -> str:
    return url.replace("indexer@", "indexer:s3cret@", 1)


def _sql(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def test_placeholders_and_passwords_are_rewritten() -> None:
    assert to_pyformat("a=? AND b=:b AND c::text LIKE '5%'") == (
        "a=%s AND b=%(b)s AND c::text LIKE '5%%'"
    )
    assert redact("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"
    assert redact("postgresql://h/db?password=pw&x=1") == "postgresql://h/db?password=***&x=1"
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"


def test_a_new_database_gets_the_versioned_schema(pg_url: str, tmp_path: Path) -> None:
    with PgFrontier(pg_url, tmp_path) as f:
        f.start_run(resume=False)
        assert read_elsewhere(f, "SELECT version FROM schema_version") == [(VERSION,)]
    with PgFrontier(pg_url, tmp_path / "other", create=False) as f:  # opened again as is
        assert f.start_run(resume=True) == 1


def test_missing_foreign_newer_and_unreachable_are_one_line_naming_the_url(
    pg_url: str, tmp_path: Path
) -> None:
    secret = _with_password(pg_url)
    with pytest.raises(StateError, match="missing: no crawl state") as missing:
        PgFrontier(secret, tmp_path, create=False)
    with pytest.raises(StateError, match="missing"):
        PgFrontierView(secret)
    _sql(pg_url, "CREATE SCHEMA indexer", "CREATE TABLE indexer.urls (x int)")
    with pytest.raises(StateError, match="not an indexer frontier") as foreign:
        PgFrontier(secret, tmp_path)
    _sql(pg_url, "DROP SCHEMA indexer CASCADE")
    PgFrontier(pg_url, tmp_path).close()
    _sql(pg_url, "UPDATE indexer.schema_version SET version=99")
    with pytest.raises(StateError, match=f"newer indexer \\(schema version 99 > {VERSION}\\)"):
        PgFrontier(secret, tmp_path)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = f"postgresql://indexer:s3cret@127.0.0.1:{sock.getsockname()[1]}/x"
    with pytest.raises(StateError, match="cannot connect to PostgreSQL") as unreachable:
        PgFrontier(closed, tmp_path)
    for exc in (missing, foreign, unreachable):
        message = str(exc.value)
        assert "s3cret" not in message and "indexer:***@127.0.0.1" in message
        assert "\n" not in message


def test_two_processes_never_claim_the_same_url_nor_share_a_host(
    pg_url: str, tmp_path: Path
) -> None:
    urls = [(f"http://h{i % 6}/p{i}", f"h{i % 6}", i % 4) for i in range(300)]
    with PgFrontier(pg_url, tmp_path / "a") as first:
        first.start_run(resume=False)
        first.add(urls)
    claimed: dict[str, list[str]] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def drain(name: str) -> None:
        with PgFrontier(pg_url, tmp_path / name) as f:
            f.start_run(resume=True)  # joins the open run
            start.wait()
            for host in [f"h{i}" for i in range(6)] * 100:
                got = f.claim(host, time.time())
                if got is not None:
                    claimed[name].append(got.url)
                    f.finish(got.url, "indexed", reached=True)

    threads = [threading.Thread(target=drain, args=(n,)) for n in claimed]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    both = claimed["a"] + claimed["b"]
    assert len(both) == len(set(both)) == 300, "each URL claimed once"
    hosts = {name: {u.split("/")[2] for u in got} for name, got in claimed.items()}
    assert not hosts["a"] & hosts["b"], "a host is crawled by the holder of its lease only"


def test_a_killed_holder_loses_its_hosts_at_expiry_and_the_gap_is_kept(
    pg_url: str, tmp_path: Path
) -> None:
    now = time.time()
    killed = PgFrontier(pg_url, tmp_path / "a", lease_seconds=1.0, delay=0.5)
    killed.start_run(resume=False)
    killed.add([("http://h/0", "h", 0), ("http://h/1", "h", 1)])
    in_flight = killed.claim("h", now)
    assert in_flight is not None and in_flight.url == "http://h/0"
    killed._db.close()  # as kill -9: no release, no renewal
    killed.data_dir.unlock()
    with PgFrontier(pg_url, tmp_path / "b", lease_seconds=1.0, delay=0.5) as other:
        assert other.start_run(resume=True) == 1
        assert other.claim("h", time.time()) is None, "the lease is still held"
        due = other.next_due("h")
        assert due is not None and due <= now + 1.0 + 0.1, "asked again at its expiry"
        while time.time() < now + 1.05:
            time.sleep(0.05)
        taken = []
        while (got := other.claim("h", time.time())) is not None or len(taken) < 2:
            if got is not None:
                taken.append(got.url)
                other.finish(got.url, "indexed", reached=True)
            assert time.time() < now + 10
            time.sleep(0.01)
        assert taken[0] == "http://h/0", "the page in flight is fetched again first"
        assert sorted(taken) == ["http://h/0", "http://h/1"]
        gaps = read_elsewhere(other, "SELECT next_allowed_at FROM host_leases")
        assert gaps and gaps[0][0] >= now + 1.0 + 0.5, "each claim moves the host's gap"


def test_a_host_taken_over_keeps_the_gap_of_its_last_request(pg_url: str, tmp_path: Path) -> None:
    with PgFrontier(pg_url, tmp_path / "a", delay=2.0) as first:
        first.start_run(resume=False)
        first.add([("http://h/0", "h", 0), ("http://h/1", "h", 1)])
        at = time.time()
        assert first.claim("h", at) is not None
        closed = time.time()
    with PgFrontier(pg_url, tmp_path / "b", delay=2.0) as second:
        second.start_run(resume=True)
        assert second.claim("h", at + 1.0) is None, "2 s after the last start, not 1"
        due = second.next_due("h")
        # given back at close: a delay after then (its request started by then at the latest)
        assert due is not None and closed + 2.0 <= due <= time.time() + 2.0
        assert second.claim("h", due - 0.01) is None
        assert second.claim("h", due) is not None


def test_frontier_url_must_be_postgresql() -> None:
    with pytest.raises(ConfigError, match=r"frontier\.url"):
        load_settings(flags={"frontier.url": "http://127.0.0.1/db"}, environ={})
    settings = load_settings(environ={"INDEXER_FRONTIER_URL": "postgresql://u@127.0.0.1/d"})
    assert settings.settings.frontier.url.startswith("postgresql://")
    assert settings.settings.frontier.lease_seconds == 30


def test_crawl_and_report_against_the_shared_frontier(pg_url: str, tmp_path: Path) -> None:
    with FaultServer() as srv:
        srv.page("/", "home", [f"/p{i}" for i in range(5)])
        for i in range(5):
            srv.page(f"/p{i}", f"page {i}", [])
        common = ["--frontier", pg_url, "--delay", "0", "-q"]
        d = ["--data-dir", str(tmp_path / "d")]
        code, err = cli("crawl", srv.url("/"), *common, *d, "--out", str(tmp_path / "o.jsonl"))
        assert code == 0, err
        code, err = cli("report", "--frontier", pg_url, *d)
        assert code == 0, err
    with PgFrontierView(pg_url) as view:
        counts = {(o, n) for _h, o, n in view.counts()}
        assert counts == {("indexed", 6)}
        runs = view.runs()
        assert [(r.phase, r.exit_code, r.finished) for r in runs] == [("finished", 0, True)]
        assert view.history.of(srv.url("/p1"))[0].outcome == "indexed"
    # another process's data directory sees the same crawl: --resume has nothing to fetch
    e = ["--data-dir", str(tmp_path / "e"), "--out", str(tmp_path / "e.jsonl")]
    code, err = cli("crawl", "--resume", *common, *e)
    assert code == 0, err
    assert (tmp_path / "e.jsonl").read_text() == "", (
        "a new run: every page unchanged, nothing written"
    )
