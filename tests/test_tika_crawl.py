"""Crawls of a local site with DOC, XLS, PPT, RTF, ODT, ODS and ODP files beside part 1's
documents: into the real Solr with their Japanese titles and text, while the Tika JVM is
killed (kill -9) under the first document it parses; and without java, where those formats
end ``unsupported-format`` and everything else is indexed."""

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
from tests.tika_fixtures import EXPECTED, TIKA, built_service, path_without_java, site

ROOT = Path(__file__).resolve().parents[1]
FIRST = "/first/big.rtf"  # the first document the JVM parses: it is killed under it
TIKA_MAIN = "indexer.tika.TikaService"


def _big_rtf() -> bytes:
    """About 30 MB of RTF (cp932 escapes): seconds of parsing even for a warm JVM on a
    quiet machine (the JVM is killed 0.3 s after it listens: under this document)."""
    line = "".join(f"\\'{b:02x}" for b in "年次報告書の本文です。".encode("cp932"))
    return b"{\\rtf1\\ansi\\ansicpg932 " + (line + "\\par\n").encode() * 200_000 + b"}"


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
    """``/`` → the big RTF and ``/later/`` → every document; Tika files held till
    ``released`` (when given). Returns the document paths."""
    documents = {**part_one_site(), **site()}
    srv.page("/", "資料室", [FIRST, "/later/"])
    srv.route(FIRST, Reply(body=_big_rtf(), content_type="application/rtf"))
    srv.page("/later/", "資料一覧", list(documents))
    for path, (body, media) in documents.items():
        if released is not None and path.startswith("/tika/"):
            srv.route(path, _held(body, media, released))
        else:
            srv.route(path, Reply(body=body, content_type=media))
    return list(documents)


class JvmKiller:
    """Watch the crawl's children for the Tika JVM; kill -9 the first one shortly after it
    listens (its first document in flight), then release the held routes."""

    def __init__(self, crawl_pid: int, released: threading.Event) -> None:
        self.pids: set[int] = set()
        self.killed: int | None = None
        self._root, self._released = psutil.Process(crawl_pid), released
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _jvms(self) -> list[psutil.Process]:
        found = []
        try:
            for child in self._root.children(recursive=True):
                if TIKA_MAIN in " ".join(child.cmdline()):
                    found.append(child)
        except psutil.Error:
            pass
        return found

    def _run(self) -> None:
        while not self._done.wait(0.05):
            for jvm in self._jvms():
                self.pids.add(jvm.pid)
                if self.killed is None and self._busy(jvm):
                    self._done.wait(0.2)  # a health check is over by then; the document not
                    if self._busy(jvm):
                        os.kill(jvm.pid, signal.SIGKILL)
                        self.killed = jvm.pid
                        self._released.set()

    @staticmethod
    def _busy(jvm: psutil.Process) -> bool:
        """Whether a client is connected to the JVM (a document in flight)."""
        try:
            return any(c.status == psutil.CONN_ESTABLISHED for c in jvm.net_connections("tcp"))
        except psutil.Error:
            return False

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
@pytest.mark.xfail(
    strict=False,
    reason="timing: the kill does not always land while the first document is in the JVM "
    "(passed and failed in CI on the same code); the replacement itself is what #15 needs",
)
def test_every_format_is_indexed_while_the_jvm_is_killed_and_replaced(
    solr_core: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built_service()
    base_url, core = solr_core
    released = threading.Event()
    with FaultServer() as srv:
        paths = _serve(srv, released)
        proc = _crawl(srv, tmp_path / "data", "--solr", base_url, "--core", core)
        sampler, killer = RssSampler(proc.pid), JvmKiller(proc.pid, released)
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
    assert killer.killed is not None and len(killer.pids) >= 2, killer.pids  # a new JVM
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
