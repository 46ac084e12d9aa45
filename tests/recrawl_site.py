"""A local site for multi-night reindex tests, its answers steered by a control file.

Pages are files under a folder; ``control.json`` beside it is read on every request, so a
test changes what the site answers between runs ("nights") without restarting it:

* ``{"mode": "normal"}``: files as they are (``/`` is ``/index.html``), 404 when missing;
* ``{"status": {"/p3.html": 404}}``: chosen paths answer that status (a broken deploy);
* ``{"mode": "maintenance", "since": EPOCH}``: every URL answers 200 with one maintenance
  page, ``Last-Modified`` ``since``;
* ``{"redirect": {"/docs/a.html": "/login.html"}}``: chosen paths answer 302 there;
* ``{"headers": {"/p3.html": {"X-Robots-Tag": "nosnippet"}}}``: extra response headers.

Conditional GET as static servers do it (RFC 9110 §13.1.3): a ``Last-Modified`` per
answer (the file's mtime) and ``304`` when ``If-Modified-Since`` is not older. So after a
maintenance night, a page asked with the maintenance page's date answers 304.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any

import requests
from aiohttp import web

MAINTENANCE = (
    "<html><head><title>メンテナンス中</title></head><body><article><h1>メンテナンス中</h1>"
    "<p>ただいまシステムメンテナンス中です。しばらくお待ちください。</p>"
    "<p>ご不便をおかけして申し訳ございません。再開までお待ちください。</p>"
    "</article></body></html>"
)
#: mtime given to every page file: well before any test's maintenance night.
PAGE_MTIME = 1_600_000_000


def write_page(root: Path, path: str, title: str, text: str, links: Sequence[str] = ()) -> None:
    """Write one page (an article with ``text`` twice and a list of ``links``)."""
    target = root / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    target.write_text(
        f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
        f"<p>{text}</p><p>{text}</p><ul>{items}</ul></article></body></html>",
        "utf-8",
    )
    os.utime(target, (PAGE_MTIME, PAGE_MTIME))


def write_listing(root: Path, prefix: str, count: int) -> list[str]:
    """``prefix/index.html`` linking ``prefix/p0.html`` … ; returns the pages' paths."""
    paths = [f"{prefix}/p{i}.html" for i in range(count)]
    for i, path in enumerate(paths):
        write_page(
            root, path, f"{prefix} {i}", f"{prefix}の第{i}号のお知らせです。手続きを説明します。"
        )
    write_page(root, f"{prefix}/index.html", f"{prefix} 一覧", f"{prefix}の一覧です。", paths)
    return [f"{prefix}/index.html", *paths]


class ControlledSite:
    """The site: serve ``root``; :meth:`set` writes the control file.

    Args:
        root: folder of pages.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.control = root.parent / f"{root.name}-control.json"
        self.set()
        self.base = ""

    def set(self, **control: Any) -> None:
        """Replace the control file (``mode``, ``status``, ``since``, ``redirect``,
        ``headers``)."""
        self.control.write_text(json.dumps(control), "utf-8")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one request as the control file says."""
        control = json.loads(self.control.read_text("utf-8"))
        path = "/" + request.match_info["path"]
        if path.endswith("/"):
            path += "index.html"
        if path in control.get("status", {}):
            return web.Response(status=control["status"][path], text="error")
        if path in control.get("redirect", {}):
            return web.Response(status=302, headers={"Location": control["redirect"][path]})
        if control.get("mode") == "maintenance":
            return _answer(request, MAINTENANCE.encode(), int(control["since"]))
        file = (self.root / path.lstrip("/")).resolve()
        if not file.is_relative_to(self.root.resolve()) or not file.is_file():
            return web.Response(status=404, text="not found")
        answer = _answer(request, file.read_bytes(), int(file.stat().st_mtime))
        answer.headers.update(control.get("headers", {}).get(path, {}))
        return answer


def _answer(request: web.Request, body: bytes, mtime: int) -> web.Response:
    since = request.headers.get("If-Modified-Since")
    if since:
        try:
            if parsedate_to_datetime(since).timestamp() >= mtime:
                return web.Response(status=304)
        except (TypeError, ValueError):
            pass
    headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Last-Modified": formatdate(mtime, usegmt=True),
    }
    return web.Response(body=body, headers=headers)


@contextmanager
def serve(site: ControlledSite) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (free port) in a thread; yields its base URL."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    runner_box: list[web.AppRunner] = []

    async def start() -> None:
        app = web.Application()
        app.router.add_get("/{path:.*}", site.handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        tcp = web.TCPSite(runner, "127.0.0.1", 0)
        await tcp.start()
        port = runner.addresses[0][1]
        site.base = f"http://127.0.0.1:{port}"
        runner_box.append(runner)

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        started.set()
        loop.run_forever()
        loop.run_until_complete(runner_box[0].cleanup())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("test site did not start")
    try:
        yield site.base
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m indexer ARGS`` (the tree on PYTHONPATH)."""
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args], capture_output=True, text=True, timeout=300
    )


def job_args(base: str, core: str, data_dir: Path) -> list[str]:
    """The flags every night's command shares: Solr, core, data directory, no delay."""
    return ["--solr", base, "--core", core, "--data-dir", str(data_dir), "--delay", "0", "-q"]


def solr_docs(base: str, core: str) -> dict[str, dict[str, Any]]:
    """Every document of the core, by id (committed state)."""
    requests.get(f"{base}/{core}/update", params={"commit": "true"}, timeout=30)
    resp = requests.get(
        f"{base}/{core}/select",
        params={"q": "*:*", "rows": 10000, "fl": "id,title,content"},
        timeout=30,
    )
    resp.raise_for_status()
    return {d["id"]: d for d in resp.json()["response"]["docs"]}


def frontier_outcomes(data_dir: Path) -> dict[str, str]:
    """``{url: outcome}`` of the frontier (read with sqlite3, as an operator would)."""
    db = sqlite3.connect(data_dir / "frontier.sqlite3")
    try:
        return {u: o for u, o in db.execute("SELECT url, outcome FROM urls") if o is not None}
    finally:
        db.close()


def plan_lines(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    """The JSON lines a ``reindex --dry-run`` printed."""
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


@dataclass
class Night:
    """A listing site crawled once into Solr (the first night).

    Attributes:
        site: the controlled site; url: its base URL; data: the data directory;
        args: the flags every night shares; paths: the listing's paths (listing first).
    """

    site: ControlledSite
    url: str
    data: Path
    args: list[str]
    paths: list[str]

    def reindex(self, *more: str) -> subprocess.CompletedProcess[str]:
        """One more night: ``indexer reindex``, which must succeed."""
        proc = cli("reindex", *self.args, *more)
        assert proc.returncode == 0, proc.stderr
        return proc


@contextmanager
def first_night(
    solr: tuple[str, str], tmp_path: Path, prefix: str, pages: int, *more: str
) -> Iterator[Night]:
    """Serve a listing of ``pages`` pages under ``prefix`` and crawl it into Solr."""
    site = ControlledSite(tmp_path / "site")
    paths = write_listing(site.root, prefix, pages)
    data = tmp_path / "data"
    with serve(site) as url:
        args = [*job_args(*solr, data), *more]
        crawl = cli("crawl", *args, f"{url}{prefix}/index.html")
        assert crawl.returncode == 0, crawl.stderr
        assert len(solr_docs(*solr)) == pages + 1
        yield Night(site, url, data, args, paths)


def lose_frontier_rows(data: Path, where: str, params: Sequence[Any]) -> None:
    """Delete the frontier rows matching ``where`` with sqlite3 (the database stays valid)
    and every stored outlink, as a frontier from before outlinks were kept."""
    db = sqlite3.connect(data / "frontier.sqlite3")
    try:
        with db:
            db.executemany(f"DELETE FROM urls WHERE {where}", [tuple(params)])
            db.execute("DELETE FROM outlinks")
    finally:
        db.close()
