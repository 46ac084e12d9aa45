"""Helpers of the web-interface tests: crawl the generated sites, run ``indexer serve``,
launch Debian's Chromium on loopback only."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from tests.web_site import HOSTILE_QUERY, page_count, write_sites
from tests.webhost import serve_folder

CHROMIUM = Path("/usr/bin/chromium")
# Loopback only: every name but 127.0.0.1 fails to resolve inside the browser, and the
# background services that would call home are off (issue 21).
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
# Documents indexed directly: values no crawl can produce (the crawler percent-encodes URLs).
RAW_HOSTILE_DOCS = [
    {
        "id": "raw-hostile-url",
        "url": 'http://127.0.0.1:9/"><img src=x onerror=alert(4)>',
        "host": '"><script>alert(5)</script>',
        "title": "生のURLの" + HOSTILE_QUERY,
        "content": f"{HOSTILE_QUERY}の資料です。",
        "lang": "ja",
        "content_type": "text/html",
    },
    {
        "id": "raw-script-url",
        "url": "javascript:alert(6)",
        "host": "127.0.0.1:9",
        "title": "スクリプトURLの" + HOSTILE_QUERY,
        "content": f"{HOSTILE_QUERY}の資料その二です。",
        "lang": "ja",
        "content_type": "text/html",
    },
]


@contextmanager
def serving_sites(tmp: Path) -> Iterator[dict[str, str]]:
    """Write the generated sites under ``tmp/sites`` and serve each on its own port while
    the block runs; yields ``{site name: base URL}``."""
    folders = write_sites(tmp / "sites")
    with ExitStack() as stack:
        yield {name: stack.enter_context(serve_folder(path)) for name, path in folders.items()}


def crawl_sites(
    solr_url: str, core: str, tmp: Path, bases: dict[str, str] | None = None
) -> dict[str, str]:
    """Crawl the generated sites (served by :func:`serving_sites` unless ``bases`` says
    where they are served already) into ``core`` with the data directory ``tmp/crawl``,
    add :data:`RAW_HOSTILE_DOCS` and commit; returns ``{site name: base URL}``."""
    if bases is None:
        with serving_sites(tmp) as served:
            return crawl_sites(solr_url, core, tmp, served)
    cmd = [sys.executable, "-m", "indexer", "crawl", "--solr", solr_url, "--core", core]
    cmd += ["--data-dir", str(tmp / "crawl"), "--delay", "0", "--max-depth", "1", "-q"]
    cmd += ["--summary-json", str(tmp / "summary.json")]
    proc = subprocess.run(
        [*cmd, *(f"{base}/index.html" for base in bases.values())],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    resp = requests.post(
        f"{solr_url}/{core}/update", params={"commit": "true"}, json=RAW_HOSTILE_DOCS, timeout=30
    )
    resp.raise_for_status()
    summary: dict[str, dict[str, int]] = json.loads((tmp / "summary.json").read_text("utf-8"))
    # every page and each site's index page: at least 25 Japanese pages (issue 21)
    assert page_count() >= 25
    assert summary["outcomes"].get("indexed", 0) == page_count() + len(bases), summary
    return bases


@contextmanager
def indexed_server(solr_url: str, tmp: Path) -> Iterator[Server]:
    """Empty core ``pages``, crawl the generated sites into it, run ``indexer serve`` on a
    free port over it."""
    requests.post(
        f"{solr_url}/pages/update",
        params={"commit": "true"},
        json={"delete": {"query": "*:*"}},
        timeout=30,
    ).raise_for_status()
    crawl_sites(solr_url, "pages", tmp)
    with run_serve(["--port", "0", "--solr", solr_url]) as running:
        yield running


@dataclass
class Server:
    """A running ``indexer serve``: its URL, the password it printed, its process, and all
    it printed (complete once the server has stopped)."""

    url: str
    password: str
    proc: subprocess.Popen[str]
    output: list[str]


_BANNER = re.compile(r"(https?://127\.0\.0\.1:\d+/)")  # https with --tls-cert
_PASSWORD = re.compile(r"admin password \(generated[^)]*\): (\S+)")


@contextmanager
def run_serve(args: list[str], env: dict[str, str] | None = None) -> Iterator[Server]:
    """Start ``indexer serve ARGS`` in a child process, wait for its banner, yield it; stop it
    by its pid (SIGTERM, then SIGKILL) on exit, also on failure."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "indexer", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )
    output: list[str] = []
    try:
        url, password = _read_banner(proc, output)
        yield Server(url, password, proc, output)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        assert proc.stdout is not None
        output.append(proc.stdout.read())
        proc.stdout.close()


def _read_banner(proc: subprocess.Popen[str], seen: list[str]) -> tuple[str, str]:
    assert proc.stdout is not None
    url = password = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not url:  # the URL line comes last
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"indexer serve ended: {''.join(seen)}")
        seen.append(line)
        if match := _BANNER.search(line):
            url = match.group(1)
        if match := _PASSWORD.search(line):
            password = match.group(1)
    assert url, "".join(seen)
    return url, password
