"""A scripted HTTP test server: aiohttp.web on several loopback addresses, one per "host".

Each host is ``127.0.0.N`` on one shared port, served from a background thread with its
own event loop, so that in-process crawls and CLI subprocesses can both use it. Every
request is logged (:class:`Hit`: host, path, start and end on ``time.monotonic()``, request
headers, status) and requests in flight are counted per host and in total: the tests'
assertions read this log, not the crawler's view of itself.

Routes are ``(host index, path-with-query)`` → a :class:`Reply`, a list of replies served in
turn (the last one repeats), or an async handler ``(request) -> StreamResponse``. Unrouted
paths answer 404 (so robots.txt allows everything unless a test routes it). The fault
handlers below (resets, trickles, lies about lengths, broken chunking, gzip bombs) write to
the raw transport where aiohttp itself would refuse to misbehave.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import signal
import socket
import subprocess
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from indexer import RunStats, run_crawl
from indexer.crawl.frontier import Frontier
from indexer.settings import load_settings

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Reply:
    """A scripted answer: status, body, headers, and seconds to wait before answering."""

    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    content_type: str = "text/html; charset=utf-8"


@dataclass
class Hit:
    """One request as the server saw it (times are ``time.monotonic()`` seconds)."""

    host: int
    path: str
    start: float
    headers: dict[str, str]
    end: float = 0.0
    status: int = 0


Route = Reply | list[Reply] | Handler


def html(title: str, text: str = "", links: Sequence[str] = (), head: str = "") -> str:
    """A small HTML page with a title, a paragraph of text and links."""
    anchors = "".join(f'<li><a href="{u}">{u}</a></li>' for u in links)
    filler = f"This is the page called {title}, written with enough words to count as content. "
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title>{head}</head>"
        f"<body><main><h1>{title}</h1><p>{text} {filler * 3}</p><ul>{anchors}</ul></main>"
        "</body></html>"
    )


class FaultServer:
    """The server; use as a context manager (``with FaultServer(3) as srv``).

    Args:
        hosts: number of loopback addresses served (127.0.0.1 … 127.0.0.N).
    """

    def __init__(self, hosts: int = 1) -> None:
        self.n_hosts = hosts
        self.port = 0
        self.routes: dict[tuple[int, str], Route] = {}
        self.hits: list[Hit] = []
        self.max_in_flight: dict[int, int] = {}
        self.max_in_flight_total = 0
        self._in_flight: dict[int, int] = {}
        self._served: dict[tuple[int, str], int] = {}
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    # -- addressing --------------------------------------------------------------------------

    def addr(self, i: int = 0) -> str:
        """The address of host ``i`` (0-based): ``127.0.0.{i+1}``."""
        return f"127.0.0.{i + 1}"

    def host(self, i: int = 0) -> str:
        """``127.0.0.N:PORT`` of host ``i`` (the crawler's host key)."""
        return f"{self.addr(i)}:{self.port}"

    def base(self, i: int = 0) -> str:
        """``http://127.0.0.N:PORT`` of host ``i``."""
        return f"http://{self.host(i)}"

    def url(self, path: str, i: int = 0) -> str:
        """Absolute URL of ``path`` on host ``i``."""
        return self.base(i) + path

    # -- scripting and log -------------------------------------------------------------------

    def route(self, path: str, reply: Route, host: int = 0) -> None:
        """Answer ``path`` (with its query, if any) on host ``host`` with ``reply``."""
        self.routes[(host, path)] = reply

    def page(
        self,
        path: str,
        title: str,
        links: Sequence[str] = (),
        host: int = 0,
        head: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        """Route an HTML page with the given links."""
        self.route(
            path, Reply(body=html(title, links=links, head=head), headers=headers or {}), host
        )

    def star_site(self, hosts: int, pages: int, delay: float = 0.0) -> list[str]:
        """On each of ``hosts`` hosts a home page ``/`` linking to ``/p0`` … ``/p{pages-1}``
        (each answered after ``delay`` seconds); returns the homes' URLs (the seeds)."""
        for h in range(hosts):
            self.page("/", f"home {h}", [f"/p{i}" for i in range(pages)], host=h)
            for i in range(pages):
                self.route(f"/p{i}", Reply(body=html(f"page {h}-{i}"), delay=delay), host=h)
        return [self.url("/", h) for h in range(hosts)]

    def star_pages(self, hosts: int, pages: int) -> list[str]:
        """Every URL of :meth:`star_site` with these ``hosts`` and ``pages``, sorted."""
        paths = ["/", *[f"/p{i}" for i in range(pages)]]
        return sorted(self.url(p, h) for h in range(hosts) for p in paths)

    def kill_when_served(
        self, proc: subprocess.Popen[Any], count: int, prefix: str = "/p", settle: float = 0.0
    ) -> None:
        """Wait (at most 60 s) until ``count`` requests for paths starting with ``prefix``
        came while ``proc`` runs, wait ``settle`` seconds more, then kill it with -9 by its
        pid (also when the wait fails).

        Raises:
            AssertionError: ``proc`` ended first, or the 60 s passed.
        """
        try:
            deadline = time.monotonic() + 60
            while len([p for p in self.paths() if p.startswith(prefix)]) < count:
                assert proc.poll() is None and time.monotonic() < deadline, "crawl ended early"
                time.sleep(0.02)
            time.sleep(settle)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)

    def log(self, host: int | None = None, path: str | None = None) -> list[Hit]:
        """Hits in arrival order, optionally only of one host and/or one path."""
        with self._lock:
            return [
                h
                for h in self.hits
                if (host is None or h.host == host) and (path is None or h.path == path)
            ]

    def paths(self, host: int | None = None) -> list[str]:
        """Requested paths in arrival order."""
        return [h.path for h in self.log(host)]

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> FaultServer:
        started = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            try:
                self._loop.run_until_complete(self._start())
            except BaseException as exc:  # reported to the starting thread
                errors.append(exc)
                started.set()
                return
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        if not started.wait(10) or errors:
            raise RuntimeError(f"fault server did not start: {errors}")
        return self

    def __exit__(self, *exc: object) -> None:
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
        with suppress(Exception):
            fut.result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self._loop.close()

    async def _shutdown(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        # handlers of connections the client gave up on may still sleep: end them
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    async def _start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        for _attempt in range(20):
            self.port = _free_port()
            try:
                for i in range(self.n_hosts):
                    await web.TCPSite(self._runner, self.addr(i), self.port).start()
                return
            except OSError:
                for site in list(self._runner.sites):
                    await site.stop()
        raise RuntimeError("no port free on every loopback address")

    # -- serving -----------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        host = _host_index(request)
        hit = Hit(host, request.path_qs, time.monotonic(), dict(request.headers))
        with self._lock:
            self.hits.append(hit)
            self._in_flight[host] = self._in_flight.get(host, 0) + 1
            self.max_in_flight[host] = max(self.max_in_flight.get(host, 0), self._in_flight[host])
            total = sum(self._in_flight.values())
            self.max_in_flight_total = max(self.max_in_flight_total, total)
        try:
            resp = await handler(request)
            hit.status = resp.status
            return resp
        finally:
            hit.end = time.monotonic()
            with self._lock:
                self._in_flight[host] -= 1

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        host = _host_index(request)
        key = (host, request.path_qs)
        route = self.routes.get(key) or self.routes.get((-1, request.path_qs))
        if route is None:
            return web.Response(status=404, text="not found")
        if isinstance(route, Reply | list):
            with self._lock:
                n = self._served.get(key, 0)
                self._served[key] = n + 1
            reply = route if isinstance(route, Reply) else route[min(n, len(route) - 1)]
            return await _answer(reply)
        return await route(request)


def _host_index(request: web.Request) -> int:
    """0 for 127.0.0.1, 1 for 127.0.0.2, …; -1 when the socket is gone."""
    sock = request.transport.get_extra_info("sockname") if request.transport else None
    return int(sock[0].rsplit(".", 1)[1]) - 1 if sock else -1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def _answer(reply: Reply) -> web.Response:
    if reply.delay:
        await asyncio.sleep(reply.delay)
    body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
    headers = {"Content-Type": reply.content_type, **reply.headers}
    return web.Response(status=reply.status, body=body, headers=headers)


# -- fault handlers ---------------------------------------------------------------------------


async def _raw(request: web.Request, data: bytes, then_close: bool = True) -> web.StreamResponse:
    """Write ``data`` straight to the socket (bypassing aiohttp's framing), then hang up."""
    transport = request.transport
    assert transport is not None
    transport.write(data)
    if then_close:
        await asyncio.sleep(0.05)
        transport.close()
    else:
        await asyncio.sleep(3600)  # cancelled when the client gives up or the server stops
    return web.Response(status=599)  # never sent: the transport is closed


async def reset(request: web.Request) -> web.StreamResponse:
    """Close the connection without answering (a reset as the client sees it)."""
    transport = request.transport
    assert transport is not None
    sock = transport.get_extra_info("socket")
    if sock is not None:  # RST instead of FIN: SO_LINGER with a zero timeout
        with suppress(OSError):
            sock.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
            )
    transport.abort()
    return web.Response(status=599)


async def never_finished_headers(request: web.Request) -> web.StreamResponse:
    """Send a status line and one header, then nothing, for an hour."""
    return await _raw(request, b"HTTP/1.1 200 OK\r\nX-Slow: yes\r\n", then_close=False)


async def content_length_lie(request: web.Request) -> web.StreamResponse:
    """Announce 10,000 bytes, send 20 and hang up."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10000\r\n\r\n"
    return await _raw(request, head + b"<html><body>short...")


async def malformed_chunked(request: web.Request) -> web.StreamResponse:
    """A chunked body whose chunk size line is not hexadecimal."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
    return await _raw(request, head + b"5\r\n<html\r\nZZZ\r\nnot a chunk\r\n0\r\n\r\n")


def trickle(body: bytes, every: float) -> Handler:
    """A handler sending ``body`` one byte every ``every`` seconds."""

    async def handler(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/html"})
        resp.content_length = len(body)
        await resp.prepare(request)
        for i in range(len(body)):
            await resp.write(body[i : i + 1])
            await asyncio.sleep(every)
        await resp.write_eof()
        return resp

    return handler


def gzipped(text: str, encoding: str = "gzip") -> Reply:
    """An HTML reply compressed with ``gzip`` or ``deflate``."""
    raw = text.encode("utf-8")
    body = gzip.compress(raw) if encoding == "gzip" else zlib.compress(raw)
    return Reply(body=body, headers={"Content-Encoding": encoding})


def gzip_bomb(decompressed_mib: int) -> Reply:
    """A gzip body of a few KiB that decompresses to ``decompressed_mib`` MiB of spaces."""
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b" " * (1024 * 1024)
    parts = [comp.compress(b"<html><body>")]
    parts += [comp.compress(chunk) for _ in range(decompressed_mib)]
    parts.append(comp.flush())
    return Reply(body=b"".join(parts), headers={"Content-Encoding": "gzip"})


# -- running a crawl against it ---------------------------------------------------------------

#: Seconds a request's logged start may come after its arrival: the server's event loop
#: logs it when it gets to it, on a loaded machine (a parallel test run) late: the
#: benchmark's server saw its own reads up to 45 ms after the kernel's receive time under
#: load (``scripts/bench/throughput_site.py``), so a per-host gap in the log can be that
#: much shorter than the one the crawler kept. Gap checks allow it; a politeness failure (a
#: skipped delay) shows far shorter gaps.
LOG_JITTER = 0.05

#: Settings that keep test crawls short: small delays and backoffs, one extraction process.
FAST = {
    "fetch.delay": 0.0,
    "fetch.backoff_base": 0.05,
    "fetch.backoff_max": 0.2,
    "fetch.timeout": 5.0,
    "fetch.connect_timeout": 2.0,
    "fetch.robots_retry": 0.3,
    "extract.workers": 1,
}


@dataclass
class CrawlRun:
    """What an in-process crawl left behind: its stats, the per-URL outcomes, the documents."""

    stats: RunStats
    outcomes: dict[str, tuple[str, str]]  # url -> (outcome, reason)
    docs: list[dict[str, object]]

    def outcome(self, url: str) -> str:
        """The outcome recorded for ``url`` (KeyError when the URL is unknown)."""
        return self.outcomes[url][0]


async def crawl(seeds: Sequence[str], data_dir: Path, **flags: object) -> CrawlRun:
    """Crawl ``seeds`` in this process without Solr (documents go to ``data_dir/out.jsonl``),
    through the public :func:`indexer.run_crawl`.

    ``flags`` are settings keys with ``.`` written as ``__`` (``fetch__delay=0.2``); they
    override :data:`FAST`.
    """
    values: dict[str, object] = {**FAST, "crawl.seeds": tuple(seeds), "crawl.data_dir": data_dir}
    values.update({k.replace("__", "."): v for k, v in flags.items()})
    settings = load_settings(None, values, environ={}).settings
    out = data_dir / "out.jsonl"
    data_dir.mkdir(parents=True, exist_ok=True)
    stats = await run_crawl(settings, out=out, use_solr=False)
    with Frontier(data_dir) as frontier:
        outcomes = {u: (o, r) for u, _h, o, r in frontier.outcomes()}
    docs = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    return CrawlRun(stats, outcomes, docs)
