"""SolrCloud with real JVMs: two nodes of the local launcher (the first runs the embedded
ZooKeeper), ``indexer solr init|status|update-config`` on collections, a crawl into a 2-shard
collection, and failover when a node stops during a crawl.

One cluster serves the whole module; every JVM is stopped by its pid at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from indexer.cli.solr_cmd import node_home
from indexer.index.writer import SolrWriter
from indexer.settings import SolrSettings
from indexer.solr.launcher import stop_solr
from tests.solr_fixtures import (
    Main,
    configset_with_stopword,
    content_tokens,
    crawl_command,
    free_ports,
    solr_only_cli,
)
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr, pytest.mark.slow]

SAMPLE_SITE = Path(__file__).resolve().parents[1] / "indexer" / "demo" / "sample_site"


@dataclass
class Cluster:
    """Two SolrCloud nodes on 127.0.0.1 sharing the Solr home root; node 0 runs ZooKeeper."""

    ports: list[int]
    root: Path

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/solr" for port in self.ports]

    def stop(self, node: int) -> None:
        solr_home = node_home(self.root, self.ports[node], cloud=True)
        stop_solr(self.ports[node], solr_home)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A 2-node SolrCloud cluster (384 MB heap per node) started with ``indexer solr start
    --cloud``: the first node with the embedded ZooKeeper, the second joining it."""
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the local Solr needs java and mvn on PATH")
    solr_port_0, solr_port_1, zk_port = free_ports(3)
    nodes = Cluster([solr_port_0, solr_port_1], tmp_path_factory.mktemp("cloud"))
    common = ["solr", "start", "--cloud", "--solr-home", str(nodes.root), "--heap", "384m"]
    try:
        with pytest.MonkeyPatch.context() as monkeypatch:
            cli = solr_only_cli(monkeypatch)
            assert cli([*common, "--port", str(solr_port_0), "--zk-port", str(zk_port)]) == 0
            zk_host = f"127.0.0.1:{zk_port}"
            assert cli([*common, "--port", str(solr_port_1), "--zk-host", zk_host]) == 0
        yield nodes
    finally:
        for node in (1, 0):  # ZooKeeper last
            nodes.stop(node)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Main:
    """The CLI with only ``solr`` registered."""
    return solr_only_cli(monkeypatch)


def run_indexer(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``indexer ARGS`` in a child Python."""
    command = [sys.executable, "-m", "indexer", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


def num_found(url: str, collection: str, query: str = "*:*") -> int:
    resp = requests.get(f"{url}/{collection}/select", params={"q": query, "rows": "0"}, timeout=30)
    resp.raise_for_status()
    found: int = resp.json()["response"]["numFound"]
    return found


def init(cli: Main, url: str, name: str, *extra: str) -> int:
    return cli(["solr", "init", "--solr", url, "--collection", name, *extra])


def test_init_twice_then_status_shows_shards_and_replicas(
    cli: Main, cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    url = cluster.urls[0]
    assert init(cli, url, "twice", "--shards", "2", "--replicas", "2") == 0
    assert "created collection 'twice'" in capsys.readouterr().out
    assert init(cli, url, "twice", "--shards", "2") == 0
    assert "already exists" in capsys.readouterr().out

    assert cli(["solr", "status", "--solr", cluster.urls[1], "--collection", "twice"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["numDocs"] == 0 and status["configset"] == "twice"
    assert sorted(status["shards"]) == ["shard1", "shard2"]
    nodes = {f"127.0.0.1:{port}_solr" for port in cluster.ports}
    for shard in status["shards"].values():
        assert shard["state"] == "active"
        assert {r["node"] for r in shard["replicas"]} == nodes  # one replica per node
        assert {r["state"] for r in shard["replicas"]} == {"active"}
        assert sum(r["leader"] for r in shard["replicas"]) == 1


def test_init_failures_exit_1_with_solr_message(
    cli: Main, cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = cluster.urls[0]
    assert init(cli, url, "bad", "--shards", "0") == 1
    err = capsys.readouterr().err
    assert "numShards" in err, err
    assert cli(["solr", "init", "--solr", url, "--core", "core1"]) == 1
    assert "runs SolrCloud" in capsys.readouterr().err
    assert init(cli, url, "empty", "--configset-dir", str(tmp_path)) == 1
    assert "no solrconfig.xml" in capsys.readouterr().err
    assert cli(["solr", "status", "--solr", url, "--collection", "missing"]) == 1
    assert "missing not found" in capsys.readouterr().err  # Solr's own message


def test_crawl_search_reindex_delete_in_a_collection(
    cli: Main, cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = cluster.urls[0]
    assert init(cli, url, "web", "--shards", "2") == 0
    root = tmp_path / "site"
    shutil.copytree(SAMPLE_SITE, root)
    common = ["--solr", cluster.urls[1], "--data-dir", str(tmp_path / "d"), "--delay", "0", "-q"]
    with serve_folder(root) as site:
        summary = tmp_path / "s.json"
        proc = run_indexer(
            ["crawl", *common, "--collection", "web", "--summary-json", str(summary),
             f"{site}/index.html"], tmp_path
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-2000:]
        indexed = json.loads(summary.read_text("utf-8"))["outcomes"]["indexed"]
        assert indexed > 5
        assert num_found(url, "web") == indexed

        capsys.readouterr()
        assert cli(["solr", "status", "--solr", url, "--collection", "web"]) == 0
        shards = json.loads(capsys.readouterr().out)["shards"]
        counts = shard_counts(url, "web", list(shards))
        assert sum(counts) == indexed and all(counts), counts  # both shards hold documents

        expense, leave = f"{site}/rules/expense.html", f"{site}/rules/leave.html"
        assert expense in search_urls(url, "web", "経費精算")[:3]

        # reindex has no --collection flag: a collection is addressed like a core.
        (root / "rules" / "expense.html").unlink()
        assert "ほげ予算" not in (root / "rules" / "leave.html").read_bytes().decode("cp932")
        patch_page(root / "rules" / "leave.html", "ほげ予算")
        for _run in range(2):  # the 404 is deleted after reindex.delete_grace_runs=2 runs
            proc = run_indexer(["reindex", *common, "--core", "web"], tmp_path)
            assert proc.returncode == 0, proc.stderr[-2000:]
    assert num_found(url, "web") == indexed - 1
    assert search_urls(url, "web", "ほげ予算") == [leave]

    resp = requests.post(
        f"{url}/web/update", params={"commit": "true"}, json={"delete": [leave]}, timeout=30
    )
    resp.raise_for_status()
    assert num_found(url, "web") == indexed - 2
    assert num_found(url, "web", f'id:"{leave}"') == 0


def patch_page(page: Path, words: str) -> None:
    """Add a paragraph with ``words`` to the main text of a Shift_JIS sample page."""
    html = page.read_bytes().decode("cp932")
    html = html.replace("</h1>", f"</h1><p>{words}の締め切りは毎月十日です。</p>", 1)
    page.write_bytes(html.encode("cp932"))


def search_urls(url: str, collection: str, query: str) -> list[str]:
    """URLs of the hits of ``query`` through the ``/search`` handler, best first."""
    resp = requests.get(
        f"{url}/{collection}/search", params={"q": query, "fl": "id,url"}, timeout=30
    )
    resp.raise_for_status()
    return [hit["url"] for hit in resp.json()["response"]["docs"]]


def shard_counts(url: str, collection: str, shards: list[str]) -> list[int]:
    """Documents per shard (``shards=NAME`` restricts a distributed query to one shard)."""
    counts = []
    for shard in shards:
        resp = requests.get(
            f"{url}/{collection}/select",
            params={"q": "*:*", "rows": "0", "shards": shard},
            timeout=30,
        )
        resp.raise_for_status()
        counts.append(int(resp.json()["response"]["numFound"]))
    return counts


def test_update_config_adds_a_stopword_after_reload(
    cli: Main, cluster: Cluster, tmp_path: Path
) -> None:
    url, word = cluster.urls[0], "東京"
    assert init(cli, url, "conf") == 0
    assert content_tokens(url, "conf", word) == [word]
    changed = configset_with_stopword(tmp_path / "conf", word)
    assert cli(["solr", "update-config", "--solr", url, "--collection", "conf",
                "--configset-dir", str(changed)]) == 0  # fmt: skip
    for node_url in cluster.urls:  # every replica reloaded
        assert content_tokens(node_url, "conf", word) == []


def test_writer_skips_a_dead_node(cluster: Cluster, cli: Main) -> None:
    assert init(cli, cluster.urls[0], "fail") == 0
    dead = f"http://127.0.0.1:{free_ports(1)[0]}/solr"
    writer = SolrWriter(SolrSettings(url=dead, urls=(cluster.urls[1],), collection="fail"))
    writer.update([{"id": "a", "url": "a"}], [])
    writer.commit()
    assert writer.node == cluster.urls[1]
    assert num_found(cluster.urls[0], "fail") == 1


def update_requests(url: str) -> int:
    """Update requests the node's cores have served (Metrics API, core group)."""
    resp = requests.get(
        f"{url}/admin/metrics",
        params={"group": "core", "prefix": "UPDATE./update.requests"},
        timeout=30,
    )
    resp.raise_for_status()
    return sum(int(v) for core in resp.json()["metrics"].values() for v in core.values())


def test_node_stopped_during_crawl_loses_nothing(
    cli: Main, cluster: Cluster, tmp_path: Path
) -> None:
    """Runs last in this module: it stops node 1."""
    assert init(cli, cluster.urls[0], "failover", "--shards", "2", "--replicas", "2") == 0
    env = {**os.environ, "INDEXER_SOLR_URLS": json.dumps([cluster.urls[0]])}
    with serve_folder(SAMPLE_SITE) as site:
        args = ["--solr", cluster.urls[1], "--collection", "failover", "--data-dir",
                str(tmp_path / "d"), "--delay", "0.4", "-q", "--summary-json",
                str(tmp_path / "s.json"), f"{site}/index.html"]  # fmt: skip
        with subprocess.Popen(
            crawl_command(args), cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True
        ) as proc:
            try:
                deadline = time.monotonic() + 60
                while update_requests(cluster.urls[1]) == 0 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert proc.poll() is None, "the crawl ended before node 1 could be stopped"
                cluster.stop(1)
                _, stderr = proc.communicate(timeout=240)
            finally:
                if proc.poll() is None:
                    proc.kill()
    assert proc.returncode == 0, stderr[-2000:]
    assert f"Solr updates now go to {cluster.urls[0]}" in stderr
    indexed = json.loads((tmp_path / "s.json").read_text("utf-8"))["outcomes"]["indexed"]
    assert indexed > 5
    assert num_found(cluster.urls[0], "failover") == indexed
