"""Fixtures for the PostgreSQL frontier, and for running one test over both frontier backends.

``pg_cluster`` (session): a throwaway cluster (:mod:`tests.pgcluster`), stopped by its pid at
session end, also on failure; skipped when Debian's ``postgresql`` is not installed, except
under CI (``CI`` set), where that fails. ``pg_url`` (function): the URL of a new, empty
database. ``frontier_kind`` (function, parametrized ``sqlite`` / ``postgres``) and
``open_frontier`` (function): ``open_frontier(data_dir, create=True)`` opens the frontier of
that kind, so a test taking ``open_frontier`` runs against both backends.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen

import psycopg
import pytest

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.opening import open_view
from indexer.crawl.frontier.postgres.schema import NAMESPACE
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.view import FrontierView
from tests.pgcluster import Cluster, pg_bindir, start_cluster

OpenFrontier = Callable[..., Frontier]
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A running PostgreSQL cluster on 127.0.0.1 (see :mod:`tests.pgcluster`)."""
    if pg_bindir() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed (scripts/test.sh installs it)")
        pytest.skip("Debian's postgresql is not installed")
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a new, empty database of the cluster (one per test)."""
    name = f"t{os.getpid()}_{next(_numbers)}"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_cluster.url(name)


@pytest.fixture(params=["sqlite", "postgres"])
def frontier_kind(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgres``: the frontier backend of this run of the test."""
    kind: str = request.param
    return kind


@pytest.fixture
def open_frontier(frontier_kind: str, request: pytest.FixtureRequest) -> OpenFrontier:
    """``open_frontier(data_dir, create=True)``: the frontier of ``frontier_kind`` (for
    PostgreSQL one database per test, shared by every data directory the test opens)."""
    if frontier_kind == "sqlite":
        return lambda data_dir, create=True: Frontier(data_dir, create=create)
    url: str = request.getfixturevalue("pg_url")
    return lambda data_dir, create=True: PgFrontier(url, data_dir, create=create)


def read_elsewhere(frontier: Frontier, sql: str, params: tuple[object, ...] = ()) -> list[tuple]:
    """Rows of ``sql`` (``?`` placeholders) read on a connection of its own to the database
    behind ``frontier`` (what another process sees: committed writes only)."""
    if isinstance(frontier, PgFrontier):
        with psycopg.connect(frontier.url, autocommit=True) as conn:
            conn.execute(f"SET search_path TO {NAMESPACE}")
            return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
    with contextlib.closing(sqlite3.connect(frontier.data_dir.frontier)) as db:
        return list(db.execute(sql, params).fetchall())


@dataclass(frozen=True)
class FrontierCli:
    """The command-line side of one frontier backend.

    Attributes:
        flags: what to add to ``indexer crawl|reindex|delete|report`` (``--frontier URL``).
        url: ``frontier.url`` ('' for SQLite).
    """

    flags: tuple[str, ...]
    url: str

    def view(self, data_dir: Path) -> FrontierView:
        """The read-only view ``indexer report`` opens."""
        return open_view(data_dir, self.url)


@pytest.fixture
def frontier_cli(frontier_kind: str, request: pytest.FixtureRequest) -> FrontierCli:
    """:class:`FrontierCli` of ``frontier_kind`` (one new database for ``postgres``)."""
    if frontier_kind == "sqlite":
        return FrontierCli((), "")
    url: str = request.getfixturevalue("pg_url")
    return FrontierCli(("--frontier", url), url)


@contextlib.contextmanager
def two_processes(pg_url: str, root: Path) -> Iterator[tuple[PgFrontier, PgFrontier]]:
    """Two frontiers on ``pg_url`` as two crawl processes would hold them (data dirs
    ``root/a`` and ``root/b``): ``a`` opened a run, ``b`` joined it."""
    with PgFrontier(pg_url, root / "a") as a, PgFrontier(pg_url, root / "b") as b:
        a.start_run(resume=False)
        b.start_run(resume=True)
        yield a, b


def kill_then_join(
    first: subprocess.Popen[bytes],
    ready: Callable[[], None],
    join: Callable[[], subprocess.Popen[bytes]],
) -> None:
    """Once ``ready()`` returns, kill the crawl process ``first`` with -9, start
    ``join()`` (a ``--join`` process) and wait for it to end with exit 0 (at most 120 s);
    both are stopped by their pid, also on failure."""
    second = None
    try:
        ready()
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        second = join()
        _, err = second.communicate(timeout=120)
        assert second.returncode == 0, (err or b"").decode()[-2000:]
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)


def out_lines(path: Path) -> list[str]:
    """The ``url`` of every complete line of one ``--out`` file (none when it is missing)."""
    lines = path.read_text("utf-8").splitlines() if path.exists() else []
    return [json.loads(line)["url"] for line in lines if line.strip().endswith("}")]


def out_urls(paths: Iterable[Path]) -> set[str]:
    """The ``url`` of every complete line of the ``--out`` files among ``paths``."""
    return {url for path in paths for url in out_lines(path)}


def start_crawl(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Popen[str]:
    """``indexer crawl ARGS`` in ``cwd`` with extraction inline (no worker pool to start per
    child); stderr piped (text), stdout dropped. The caller stops it by its pid."""
    return subprocess.Popen(
        [sys.executable, "-m", "indexer", "crawl", *args],
        cwd=cwd,
        env={**(env or os.environ), "INDEXER_EXTRACT_WORKERS": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def two_process_flags(pg_url: str, delay: float) -> list[str]:
    """The flags of a 2-process crawl on ``pg_url`` at ``delay``, one URL per host at once."""
    return ["--frontier", pg_url, "--delay", str(delay), "--per-host", "1", "--processes", "2"]


def leaseholder_pids(pg_url: str, parent: Popen[str], deadline: float) -> list[int]:
    """The pids of the crawl processes holding host leases, once two of them do (monotonic
    ``deadline``); the launch ``parent`` must not end first."""
    while time.monotonic() < deadline:
        assert parent.poll() is None, "the launch ended early"
        with psycopg.connect(pg_url, autocommit=True) as conn:
            try:
                rows = conn.execute(
                    "SELECT DISTINCT owner FROM indexer.host_leases WHERE owner IS NOT NULL"
                ).fetchall()
            except psycopg.errors.UndefinedTable:  # the first child is making the schema
                rows = []
        pids = sorted({int(str(r[0]).split(":")[-2]) for r in rows})
        if len(pids) == 2:
            return pids
        time.sleep(0.1)
    raise AssertionError("two processes never held hosts at once")
