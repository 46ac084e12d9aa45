"""A crawl killed with -9 no longer stays "crawling" on the dashboard (#22 leftover): its
progress row names the writing process (host, pid, start time); once that process is gone
the run reads "stopped without closing (process gone)", and ``indexer crawl --resume``
continues it to its end; ``indexer report`` says so too."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import signal
import socket
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from indexer.cli import main
from indexer.crawl import owner
from indexer.crawl.frontier.view import FrontierView
from indexer.web.admin.state import overview
from tests.admin_fixtures import log_in, make_client_app
from tests.faults_helpers import (
    crawl_args,
    last_run,
    outcomes,
    reap,
    start_crawl,
    wait_for,
    write_site,
)
from tests.webhost import serve_folder

ON_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")
PAGES = 30


def test_an_owner_is_gone_when_its_pid_is_free_or_names_another_process(tmp_path: Path) -> None:
    me = owner.current()
    assert (me.host, me.pid) == (socket.gethostname(), os.getpid()) and me.started > 0
    assert owner.gone(me) is False
    assert owner.gone(dataclasses.replace(me, started=me.started + 1)) is True  # pid reused
    assert owner.gone(dataclasses.replace(me, pid=2**22 + 1)) is True  # no such process
    assert owner.gone(dataclasses.replace(me, host=me.host + "-other")) is None
    assert owner.gone(dataclasses.replace(me, started=0)) is None  # an older row
    assert owner.gone(me, proc=tmp_path / "no-proc") is None


async def _dashboard(data: Path, port: int) -> str:
    app = make_client_app(data, f"http://127.0.0.1:{port}/solr")
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:  # type: ignore[arg-type]
        await log_in(client)
        text: str = await (await client.get("/admin")).text()
    return text


def _progress_written(data: Path) -> bool:
    with FrontierView(data) as view:
        return bool(view.progress.all()) and view.runs()[-1].phase == "crawling"


@pytest.mark.solr
@ON_SESSION_LOOP
async def test_a_killed_crawl_reads_gone_and_resume_continues_it(
    solr_core: tuple[str, str], tmp_path: Path, free_port: int
) -> None:
    base, _core = solr_core
    data = tmp_path / "d"
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        args = crawl_args(base, data, "--delay", "0.3", f"{site}/")  # ≈ 10 s of fetching
        proc = start_crawl(args)
        try:
            wait_for(lambda: _progress_written(data), 120, "the crawl's first progress row")
            live: Any = overview(data).runs[0]
            assert live.running and live.live and not live.gone
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
        finally:
            reap(proc)
        assert last_run(data).phase == "crawling"  # the record itself could not be closed
        dead: Any = overview(data).runs[0]
        assert dead.running and dead.gone and not dead.live
        text = await _dashboard(data, free_port)
        assert text.count("stopped without closing (process gone)") == 2, text  # table+box
        assert "<code>indexer crawl --resume</code> continues it" in text
        assert "stopped without closing (process gone)" in _report(data)
        resumed = start_crawl([*args[:-1], "--delay", "0", "--resume"])
        try:
            _, err = resumed.communicate(timeout=240)
        finally:
            reap(resumed)
    assert resumed.returncode == 0, err[-2000:]
    assert last_run(data).id == dead.record.id and last_run(data).phase == "finished"
    assert outcomes(data) == {"indexed": PAGES + 1}
    assert "process gone" not in await _dashboard(data, free_port)
    assert "process gone" not in _report(data) and "finished" in _report(data)


def _report(data: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["report", "--data-dir", str(data)]) == 0
    return out.getvalue()
