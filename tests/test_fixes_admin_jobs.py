"""The last reindex plan and run started from ``/admin/reindex`` survive a restart of the
web server (#22 leftover): kept in ``admin-jobs.json`` in the data directory; a job the
stopped server left running reads as abandoned and blocks no button."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.web.admin.job_store import FILE_NAME, JobStore
from indexer.web.admin.jobs import PLAN_SHOWN, Job, Plan
from indexer.web.admin.reindex_page import JOBS
from tests.admin_fixtures import log_in, make_client_app, write_frontier
from tests.test_admin_jobs import FAKE_REINDEX

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _client(data: Path, port: int) -> tuple[Any, TestClient[Any, Any]]:
    app = make_client_app(data, f"http://127.0.0.1:{port}/solr")
    app[JOBS]._argv = [sys.executable, "-c", FAKE_REINDEX]  # type: ignore[index]  # the fake child
    client = TestClient(TestServer(app, host="127.0.0.1"))  # type: ignore[arg-type]
    await client.start_server()
    return app, client


async def test_the_last_plan_is_shown_after_a_restart(tmp_path: Path, free_port: int) -> None:
    data = tmp_path / "crawl"
    write_frontier(data)
    app, client = await _client(data, free_port)
    try:
        csrf = await log_in(client)
        await client.post("/admin/reindex/plan", data={"csrf": csrf}, allow_redirects=False)
        for _ in range(200):
            if app[JOBS].last["plan"].exit_code is not None:
                break
            await asyncio.sleep(0.05)
    finally:
        await client.close()
    stored = json.loads((data / FILE_NAME).read_text("utf-8"))
    assert stored["plan"]["exit_code"] == 3 and stored["plan"]["plan"]["totals"]["delete"] == 1
    _, again = await _client(data, free_port)  # a new server over the same data directory
    try:
        await log_in(again)
        text = await (await again.get("/admin/reindex")).text()
    finally:
        await again.close()
    assert '<dd class="plan-update">1</dd>' in text and '<dd class="plan-delete">1</dd>' in text
    assert "The guard would refuse: 127.0.0.1:9: 1 of 3 documents" in text and "exit 3" in text
    assert "indexer: would refuse" in text and "run-reindex" in text  # buttons offered


async def test_a_job_left_running_is_abandoned_and_long_plans_keep_their_totals(
    tmp_path: Path, free_port: int
) -> None:
    data = tmp_path / "crawl"
    write_frontier(data)
    ids = [f"http://127.0.0.1:9/p{i}.html" for i in range(PLAN_SHOWN + 50)]
    plan = Plan(changes={"add": [], "update": [], "delete": ids})
    JobStore(data).save({"plan": Job("plan", exit_code=0, plan=plan), "run": Job("run", pid=1)})
    loaded = JobStore(data).load()
    assert loaded["plan"].plan.total("delete") == PLAN_SHOWN + 50
    assert len(loaded["plan"].plan.changes["delete"]) == PLAN_SHOWN
    assert loaded["run"].abandoned and not loaded["run"].running
    app, client = await _client(data, free_port)
    try:
        await log_in(client)
        assert app[JOBS].running is None
        text = await (await client.get("/admin/reindex")).text()
    finally:
        await client.close()
    assert "delete: 250" in text and "and 50 more" in text
    assert "the server stopped before it ended" in text and "run-reindex" in text
    (data / FILE_NAME).write_text("{broken", "utf-8")
    assert JobStore(data).load() == {}  # said once in the log, the page works from memory
