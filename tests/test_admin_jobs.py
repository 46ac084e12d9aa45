"""Reindex jobs started from ``/admin/reindex``, with an injected child command: the plan's
lines and the guard's refusal shown, one job at a time, a running child stopped by its pid
when the server stops."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.web.admin.jobs import Jobs
from indexer.web.admin.reindex_page import JOBS
from tests.admin_fixtures import log_in, make_client_app, write_frontier

ON_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")  # the fixtures' loop
FAKE_REINDEX = r"""
import json, sys, time
if "--dry-run" in sys.argv:
    print(json.dumps({"action": "update", "id": "http://127.0.0.1:9/p001.html"}))
    print(json.dumps({"action": "delete", "id": "http://127.0.0.1:9/<b>p000</b>.html"}))
    print(json.dumps({"summary": True, "add": 0, "update": 1, "delete": 1,
                      "refused": [{"host": "127.0.0.1:9", "delete": 1, "total": 3}]}))
    print("indexer: would refuse: 127.0.0.1:9: 1 of 3", file=sys.stderr)
    sys.exit(3)
print("started", flush=True)
time.sleep(60)
"""


@ON_SESSION_LOOP
async def test_plan_refusal_one_job_at_a_time_and_stop_by_pid(
    tmp_path: Path, free_port: int
) -> None:
    write_frontier(tmp_path / "crawl")
    app, client = await _served(tmp_path, free_port)
    try:
        csrf = await log_in(client)
        resp = await client.post("/admin/reindex/plan", data={"csrf": csrf}, allow_redirects=False)
        assert resp.status == 303 and resp.headers["Location"] == "/admin/reindex"
        text = await _when_done(client, "plan")
        assert '<dd class="plan-update">1</dd>' in text and '<dd class="plan-delete">1</dd>' in text
        assert "The guard would refuse: 127.0.0.1:9: 1 of 3 documents" in text
        assert "owner of the host" in text and "exit 3" in text
        assert "&lt;b&gt;p000&lt;/b&gt;" in text and "<b>p000" not in text
        assert "indexer: would refuse" in text  # its stderr

        await client.post("/admin/reindex/run", data={"csrf": csrf}, allow_redirects=False)
        jobs = app[JOBS]  # type: ignore[index]
        running = jobs.running
        assert running is not None and running.kind == "run" and running.pid
        again = await client.post("/admin/reindex/plan", data={"csrf": csrf}, allow_redirects=False)
        assert again.status == 409
        page = await (await client.get("/admin/reindex")).text()
        assert '<meta http-equiv="refresh" content="2">' in page and "Running: reindex" in page
        pid = running.pid
    finally:
        await client.close()  # on_cleanup stops the child by its pid
    assert running.exit_code is not None and running.exit_code < 0  # ended by SIGTERM
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def _served(tmp_path: Path, free_port: int) -> tuple[Any, TestClient]:  # type: ignore[type-arg]
    """The admin app on ``tmp_path / "crawl"`` with the fake reindex child, started."""
    app = make_client_app(tmp_path / "crawl", f"http://127.0.0.1:{free_port}/solr")
    app[JOBS] = Jobs([sys.executable, "-c", FAKE_REINDEX], dict(os.environ))  # type: ignore[index]
    client = TestClient(TestServer(app, host="127.0.0.1"))  # type: ignore[arg-type]
    await client.start_server()
    return app, client


async def _when_done(client: TestClient, kind: str) -> str:  # type: ignore[type-arg]
    for _ in range(100):
        text = await (await client.get("/admin/reindex")).text()
        if "Running:" not in text and ("exit 3" in text or kind != "plan"):
            return text
        await asyncio.sleep(0.1)
    raise AssertionError(text)


@ON_SESSION_LOOP
async def test_simultaneous_runs_start_one_child(tmp_path: Path, free_port: int) -> None:
    """Ten POSTs at once (a double click, several admins): one child starts, the others
    are refused with 409 while it is being started."""
    write_frontier(tmp_path / "crawl")
    app, client = await _served(tmp_path, free_port)
    try:
        csrf = await log_in(client)
        answers = await asyncio.gather(
            *(
                client.post(f"/admin/reindex/{kind}", data={"csrf": csrf}, allow_redirects=False)
                for kind in ("run", "plan") * 5
            )
        )
        statuses = sorted(a.status for a in answers)
        assert statuses == [303] + [409] * 9, statuses
        assert app[JOBS]._procs and len(app[JOBS]._procs) == 1  # type: ignore[index]
    finally:
        await client.close()


@ON_SESSION_LOOP
async def test_a_reindex_started_elsewhere_shows_and_blocks_the_buttons(
    tmp_path: Path, free_port: int
) -> None:
    """A reindex run by the nightly timer or a shell (its run open, its progress fresh in
    the crawl state): the page shows its progress, offers no button and refuses a start."""
    import time

    from indexer.crawl.frontier import Frontier
    from indexer.crawl.frontier.progress import Progress

    write_frontier(tmp_path / "crawl")
    with Frontier(tmp_path / "crawl") as frontier:
        run = frontier.start_run(False)
        frontier.progress.write(Progress(run, "reindex", time.time(), fetched=7, queued=3))
    app, client = await _served(tmp_path, free_port)
    try:
        csrf = await log_in(client)
        page = await (await client.get("/admin/reindex")).text()
        assert "started outside this page" in page and "run-reindex" not in page, page
        resp = await client.post("/admin/reindex/run", data={"csrf": csrf}, allow_redirects=False)
        assert resp.status == 409 and app[JOBS].running is None  # type: ignore[index]
    finally:
        await client.close()
