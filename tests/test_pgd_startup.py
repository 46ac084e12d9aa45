"""A shared frontier that cannot be used when a command starts (issue #20): PostgreSQL down, a
wrong password or database name, a database of another application, a newer schema. Every
command that takes ``--frontier`` fails fast with one line naming ``frontier.url`` (its
password hidden) and exits 2, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from tests.faults_helpers import cli
from tests.pgcluster import Cluster

SECRET = "s3cret-pw"
SEED = "http://127.0.0.1:9/"


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _one_line(code: int, err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("indexer: frontier.url postgresql://"), err
    assert SECRET not in err, "the password is shown"
    return lines[0]


SOLR = ["--solr", "http://127.0.0.1:9/solr"]  # never asked: the frontier is opened first
COMMANDS = {
    "crawl": ["crawl", SEED, *SOLR],
    "processes": ["crawl", SEED, *SOLR, "--processes", "2"],  # no child said to have died
    "join": ["crawl", "--join", *SOLR],
    "resume": ["crawl", "--resume", *SOLR],
    "report": ["report"],
    "reindex": ["reindex", *SOLR],
    "dry-run": ["reindex", "--dry-run", *SOLR],
    "delete": ["delete", "--url", SEED, *SOLR],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_postgresql_down_at_start_is_one_line_naming_the_setting(
    command: str, tmp_path: Path
) -> None:
    url = f"postgresql://crawler:{SECRET}@127.0.0.1:{_closed_port()}/indexer"
    args = [*COMMANDS[command], "--frontier", url, "--data-dir", str(tmp_path / "d")]
    line = _one_line(*cli(*args))
    assert "cannot connect to PostgreSQL" in line and "Connection refused" in line, line


def test_serve_with_the_frontier_down_is_one_line(tmp_path: Path) -> None:
    url = f"postgresql://crawler:{SECRET}@127.0.0.1:{_closed_port()}/indexer"
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "serve", "--port", "0", "--frontier", url],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    _one_line(proc.returncode, proc.stderr)


def test_a_wrong_database_name_is_one_line(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.url("no_such_db", password=SECRET)
    line = _one_line(*cli("report", "--frontier", url, "--data-dir", str(tmp_path)))
    assert 'database "no_such_db" does not exist' in line, line


def test_a_wrong_password_is_one_line(pg_cluster: Cluster, pg_url: str, tmp_path: Path) -> None:
    """The throwaway cluster trusts loopback logins; a role of its own with a password and a
    ``pg_hba.conf`` rule asking it (scram) makes the server check it."""
    role = f"pw_{pg_url.rsplit('/', 1)[1]}"
    dbname = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'right-one'")
    hba = pg_cluster.root / "data" / "pg_hba.conf"
    rules = hba.read_text()
    hba.write_text(f"host all {role} 127.0.0.1/32 scram-sha-256\n{rules}")
    try:
        with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")
        url = f"postgresql://{role}:{SECRET}@127.0.0.1:{pg_cluster.port}/{dbname}"
        line = _one_line(*cli("report", "--frontier", url, "--data-dir", str(tmp_path)))
        assert "password authentication failed" in line, line
    finally:
        hba.write_text(rules)
        with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")


def test_a_database_of_another_application_is_one_line(pg_url: str, tmp_path: Path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA indexer")
        conn.execute("CREATE TABLE indexer.invoices (id int)")
    url = pg_url.replace("indexer@", f"indexer:{SECRET}@")
    for args in (["crawl", SEED, "--out", str(tmp_path / "o.jsonl")], ["report"]):
        line = _one_line(*cli(*args, "--frontier", url, "--data-dir", str(tmp_path / "d")))
        assert "not an indexer frontier (invoices)" in line, line
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM indexer.invoices").fetchone() == (0,)


def test_a_newer_schema_version_is_one_line(pg_url: str, tmp_path: Path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA indexer")
        conn.execute(
            "CREATE TABLE indexer.schema_version (component TEXT PRIMARY KEY, version INT)"
        )
        conn.execute("INSERT INTO indexer.schema_version VALUES ('frontier', 999)")
    url = pg_url.replace("indexer@", f"indexer:{SECRET}@")
    for args in (["crawl", SEED, "--out", str(tmp_path / "o.jsonl")], ["report"], ["reindex"]):
        line = _one_line(*cli(*args, "--frontier", url, "--data-dir", str(tmp_path / "d")))
        assert "newer indexer (schema version 999" in line, line
