"""A host deleted with ``indexer delete --host`` while its crawl runs (issue #20 views): it is
not crawled again in that run when other pages link to it again, and ``indexer report``
does not count its pages as indexed. On PostgreSQL the delete runs during the crawl (another
process on the shared frontier); the SQLite frontier is locked by its crawl, so there it
runs while the crawl is stopped, and ``--resume`` continues the run. Real local site,
real crawl processes; Solr is a dead loopback port (the delete buries and forgets the host
all the same, and says Solr did not take it: exit 1)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.faultserver import FaultServer, Reply, html
from tests.pg_fixtures import FrontierCli

LINKS = 40  # pages of host 0, each linking to a page of host 1
DEAD_SOLR = "http://127.0.0.1:9/solr"


def _site(srv: FaultServer) -> list[str]:
    srv.page("/", "home", [f"/a{i}" for i in range(LINKS)])
    for i in range(LINKS):
        srv.route(f"/a{i}", Reply(body=html(f"a {i}", links=[srv.url(f"/b{i}", 1)]), delay=0.01))
    srv.page("/", "other home", ["/b0", "/b1"], host=1)
    for i in range(LINKS):
        srv.route(f"/b{i}", Reply(body=html(f"b {i}")), host=1)
    return [srv.url("/"), srv.url("/", 1)]


def _indexer(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "indexer", *args],
        cwd=cwd,
        env={**os.environ, "INDEXER_EXTRACT_WORKERS": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(srv: FaultServer, host: int, hits: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while len(srv.log(host)) < hits:
        assert proc.poll() is None and time.monotonic() < deadline, "the crawl ended early"
        time.sleep(0.02)


def test_a_host_deleted_during_its_crawl_is_not_crawled_again_nor_counted_indexed(
    tmp_path: Path, frontier_cli: FrontierCli
) -> None:
    flags = [*frontier_cli.flags, "--data-dir", str(tmp_path / "d")]
    crawl = ["crawl", "-q", *flags, "--delay", "0.2", "--out", str(tmp_path / "o.jsonl")]
    with FaultServer(2) as srv:
        seeds = _site(srv)
        proc = _indexer(*crawl, *seeds, cwd=tmp_path)
        try:
            _wait_for(srv, 1, 3, proc)  # host 1 crawled a little
            if not frontier_cli.url:  # SQLite: the crawl holds the lock; stop it first
                proc.send_signal(signal.SIGTERM)
                proc.wait(30)
            delete = ["delete", "--host", srv.host(1), "--solr", DEAD_SOLR]
            other = [
                *frontier_cli.flags,
                "--data-dir",
                str(tmp_path / ("del" if frontier_cli.url else "d")),
            ]
            deleter = _indexer(*delete, *other, cwd=tmp_path)
            _, said = deleter.communicate(timeout=60)
            deleted_at = time.monotonic()
            assert "forgotten" in said, said
            if not frontier_cli.url:
                proc = _indexer(*crawl, "--resume", cwd=tmp_path)
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        assert proc.returncode == 0, err[-2000:]
        read = deleted_at + 2.5  # every process has read the delete by then (every 1 s)
        late = [h.path for h in srv.log(1) if h.start > read]
        host0 = srv.log(0)
    assert len(host0) >= LINKS, "host 0's pages (linking to host 1) were all crawled"
    assert host0[-1].start > read + 0.5, "host 0 ended before the delete was read: no test"
    assert late == [], f"host 1 crawled again after its delete: {late}"
    with frontier_cli.view(tmp_path / "d") as view:
        indexed = [u for u, o, _r in view.urls() if o == "indexed" and srv.host(1) in u]
    assert indexed == [], f"counted as indexed after the delete: {indexed[:5]}"
