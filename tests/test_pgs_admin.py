"""The web admin over the shared PostgreSQL frontier (``frontier.url``, issue #20): the
dashboard lists the runs and progress, the outcome table the URLs, a document page its
history, all read from the database while the server's data directory holds no frontier."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.progress import ProgressWriter
from tests.admin_fixtures import log_in, make_client_app, write_frontier

ON_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")  # the fixtures' loop
HOST = "127.0.0.1:9"


@ON_SESSION_LOOP
async def test_the_admin_reads_runs_urls_and_history_from_frontier_url(
    pg_url: str, tmp_path: Path, free_port: int
) -> None:
    write_frontier(tmp_path / "crawl", pages=4, opener=lambda d: PgFrontier(pg_url, d))
    with PgFrontier(pg_url, tmp_path / "crawl", create=False) as frontier:
        ProgressWriter(frontier.progress, "crawl").write(1, {"fetched": 7}, (), {"indexed": 4})
    served = tmp_path / "served"  # the server's own data directory: no frontier in it
    app = make_client_app(served, f"http://127.0.0.1:{free_port}/solr", frontier=pg_url)
    client: TestClient[Any, Any]
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        home = await (await client.get("/admin")).text()
        table = await (await client.get("/admin/urls", params={"outcome": "indexed"})).text()
        csv = await (await client.get("/admin/urls.csv")).text()
        doc = await (
            await client.get("/admin/doc", params={"id": f"http://{HOST}/gone.html"})
        ).text()
    assert "no crawl state" not in home and "missing" not in home, home[:2000]
    assert "phase-finished" in home and "indexed</a>&nbsp;4" in home  # the run, its progress
    assert "***" in home or pg_url.split("@")[-1] in home  # where it reads, no password
    assert all(f"http://{HOST}/p{i:03d}.html" in table for i in range(4))
    assert "gone.html" not in table  # filtered to indexed
    assert csv.count("\n") == 1 + 7  # header + every URL
    assert "http-404" in doc
    assert not (served / "frontier.sqlite3").exists()
