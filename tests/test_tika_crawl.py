"""Crawls of a local site with DOC, XLS, PPT, RTF, ODT, ODS and ODP files beside part 1's
documents: into the real Solr with their Japanese titles and text, while the Tika JVM is
killed (kill -9) as the service's test hook holds a marked document in flight; and without
java, where those formats end ``unsupported-format`` and everything else is indexed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import psutil
import pytest
import requests
from aiohttp import web

from indexer.cli import main
from indexer.crawl.frontier import Frontier
from tests.faultserver import FaultServer, Handler, Reply
from tests.formats_fixtures import EXPECTED as PART_ONE
from tests.formats_fixtures import site as part_one_site
from tests.test_formats_crawl import RSS_LIMIT, RssSampler
from tests.tika_fixtures import (
    EXPECTED,
    TIKA,
    built_service,
    held_pids,
    hold_env,
    marked_rtf,
    path_without_java,
    site,
)

ROOT = Path(__file__).resolve().parents[1]
FIRST = "/first/held.rtf"  # the first document the JVM parses: held, and killed under it
TIKA_MAIN = "indexer.tika.TikaService"


def _held(body: bytes, media: str, released: threading.Event) -> Handler:
    """A route that answers only once ``released`` is set (at most 120 s)."""

    async def handler(_request: web.Request) -> web.StreamResponse:
        for _ in range(2400):
            if released.is_set():
                break
            await asyncio.sleep(0.05)
        return web.Response(body=body, content_type=media)

    return handler


def _serve(srv: FaultServer, released: threading.Event | None) -> list[str]:
    """``/`` → the marked RTF and ``/later/`` → every document; Tika files held till
    ``released`` (when given). Returns the document paths."""
    documents = {**part_one_site(), **site()}
    srv.page("/", "資料室", [FIRST, "/later/"])
    srv.route(FIRST, Reply(body=marked_rtf("年次報告書"), content_type="application/rtf"))
    srv.page("/later/", "資料一覧", list(documents))
    for path, (body, media) in documents.items():
        if released is not None and path.startswith("/tika/"):
            srv.route(path, _held(body, media, released))
        else:
            srv.route(path, Reply(body=body, content_type=media))
    return list(documents)


class JvmKiller:
    """Kill -9 each Tika JVM of the crawl that holds the marked document (the service's
    test hook: ``held-PID-N`` in ``folder``), so the kill lands while that document is
    certainly in flight; after ``kills`` kills, release the held routes."""

    def __init__(self, crawl_pid: int, folder: Path, kills: int, released: threading.Event):
        self.pids: set[int] = set()
        self.killed: list[int] = []
        self._root, self._folder, self._kills = psutil.Process(crawl_pid), folder, kills
        self._released, self._done = released, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _jvms(self) -> dict[int, psutil.Process]:
        found = {}
        try:
            for child in self._root.children(recursive=True):
                if TIKA_MAIN in " ".join(child.cmdline()):
                    found[child.pid] = child
        except psutil.Error:
            pass
        return found

    def _run(self) -> None:
        while not self._done.wait(0.02):
            jvms = self._jvms()
            self.pids.update(jvms)
            for pid in held_pids(self._folder):
                if pid in jvms and pid not in self.killed:  # the crawl's own JVM only
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
            if len(self.killed) >= self._kills:
                self._released.set()

    def stop(self) -> None:
        self._done.set()
        self._released.set()
        self._thread.join(5)


def _crawl(srv: FaultServer, data: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "indexer", "crawl", "--data-dir", str(data), "--delay", "0"]
    cmd += ["--timeout", "120", "-q", *args, srv.url("/")]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "INDEXER_EXTRACT_WORKERS": "2", **env}
    return subprocess.Popen(cmd, cwd=ROOT, env=full_env, stderr=subprocess.PIPE, text=True)


def _outcomes(data: Path, base: str) -> dict[str, tuple[str, str]]:
    with Frontier(data) as frontier:
        return {url.removeprefix(base): (o, r) for url, _h, o, r in frontier.outcomes()}


@pytest.mark.solr
@pytest.mark.slow
def test_every_format_is_indexed_while_the_jvm_is_killed_and_replaced(
    solr_core: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built_service()
    base_url, core = solr_core
    released, hold = threading.Event(), tmp_path / "hold"
    with FaultServer() as srv:
        paths = _serve(srv, released)
        args = ("--solr", base_url, "--core", core)
        proc = _crawl(srv, tmp_path / "data", *args, **hold_env(hold))
        # the held document is asked again of the new JVM (it cannot be told from the other
        # documents in flight), held again and killed again: then it ends parse-error
        sampler, killer = RssSampler(proc.pid), JvmKiller(proc.pid, hold, 2, released)
        try:
            _out, err = proc.communicate(timeout=400)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            peak = sampler.stop()
            killer.stop()
    assert proc.returncode == 0, err[-2000:]
    assert peak < RSS_LIMIT, f"summed RSS peaked at {peak / 2**20:.0f} MiB (JVM counted)"
    got = _outcomes(tmp_path / "data", srv.base())
    assert got[FIRST] == ("parse-error", "Tika service died (exit code -9) while parsing")
    assert len(killer.killed) == 2 and held_pids(hold) == killer.killed, killer.killed
    assert len(killer.pids) >= 3, killer.pids  # a new JVM parsed the rest
    assert not any(psutil.pid_exists(pid) for pid in killer.pids)  # stopped by its pid
    for path in paths:
        assert got[path][0] == "indexed", (path, got[path])
    _check_index(base_url, core, srv.base(), capsys)
    print(f"summed RSS peak {peak / 2**20:.0f} MiB, JVMs {sorted(killer.pids)}")  # for -s


def _check_index(base_url: str, core: str, site: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Stored title and format of each document, and each found by ``indexer search``."""
    stored = requests.get(
        f"{base_url}/{core}/select",
        params={"q": "format:*", "rows": 100, "fl": "url,title,format"},
        timeout=30,
    ).json()["response"]["docs"]
    by_path = {d["url"].removeprefix(site): d for d in stored}
    wanted = {path: (title, phrase) for path, (title, phrase) in PART_ONE.items()}
    for name, (fmt, title, phrases) in EXPECTED.items():
        wanted[f"/tika/{name}"] = (title, phrases[-1])
        assert by_path[f"/tika/{name}"]["format"] == fmt
    for path, (title, phrase) in wanted.items():
        assert by_path[path]["title"] == title, by_path[path]
        assert main(["search", "--solr", base_url, "--core", core, "--json", f'"{phrase}"']) == 0
        hits = json.loads(capsys.readouterr().out)["hits"]
        assert site + path in [hit["url"] for hit in hits], (phrase, hits)


@pytest.mark.slow
def test_without_java_the_tika_formats_end_unsupported_and_the_rest_is_indexed(
    tmp_path: Path,
) -> None:
    with FaultServer() as srv:
        paths = _serve(srv, None)
        out = tmp_path / "out.jsonl"
        proc = _crawl(srv, tmp_path / "data", "--out", str(out), PATH=path_without_java(tmp_path))
        try:
            _out, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err[-2000:]
    got = _outcomes(tmp_path / "data", srv.base())
    for path in [FIRST, *paths]:
        outcome, reason = got[path]
        fmt = path.rsplit(".", 1)[-1]
        if fmt in TIKA:
            assert outcome == "unsupported-format", (path, got[path])
            assert "extract.tika_java=java is not on PATH" in reason, reason
        else:
            assert outcome == "indexed", (path, got[path])
    written = {json.loads(line)["url"] for line in out.read_text("utf-8").splitlines()}
    assert srv.url("/tika/sample.odt") in written and srv.url("/rules/ryohi.docx") in written
