"""A loopback HTTP proxy in front of a real Solr that can delay requests or answer a chosen
status, for fault tests; it runs in a thread of the test process.

Usage::

    with SolrProxy(solr_base_url) as proxy:     # proxy.url: http://127.0.0.1:PORT/solr
        proxy.force(404, seconds=10, path="/update")
        proxy.delay = 3.0                       # every matched request waits 3 s first
        proxy.commit_delay = 30.0               # updates without commitWithin (commits) too

Requests whose path contains ``path`` are the ones affected (default ``/update``); the rest
pass straight through. ``proxy.log`` lists ``(method, path, status)`` of each answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from types import TracebackType

from aiohttp import ClientSession, ClientTimeout, web

from tests.conftest import _free_port

_HOP = {"host", "content-length", "transfer-encoding", "connection", "keep-alive"}


class SolrProxy:
    """Forwards ``http://127.0.0.1:PORT/solr/...`` to ``target`` (a Solr base URL)."""

    def __init__(self, target: str) -> None:
        self.target = target.rstrip("/")
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/solr"
        self.path = "/update"
        self.delay = 0.0
        self.commit_delay = 0.0
        self.status: int | None = None
        self.status_until = 0.0
        self.body: str | None = None
        self.remaining: int | None = None
        self.log: list[tuple[str, str, int]] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self._closing: asyncio.Event | None = None

    def force(
        self,
        status: int | None,
        seconds: float = 3600.0,
        path: str = "/update",
        body: str | None = None,
        times: int | None = None,
    ) -> None:
        """Answer ``status`` to matched requests for ``seconds`` (None: stop forcing), with
        ``body`` as a JSON answer (as Solr's error object) or a plain-text line; with
        ``times``, to the next ``times`` matched requests instead, however late they come
        (a loaded machine may start the crawl after any time window closed)."""
        self.path = path
        self.status = status
        self.body = body
        self.status_until = time.monotonic() + seconds
        self.remaining = times

    def forced(self) -> list[tuple[str, str, int]]:
        """The answers the proxy made up itself (not Solr's)."""
        return [entry for entry in self.log if entry[2] == -1]

    def __enter__(self) -> SolrProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(30)
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _start(self) -> None:
        self._closing = asyncio.Event()
        self._session = ClientSession(timeout=ClientTimeout(total=600), auto_decompress=False)
        app = web.Application(client_max_size=1 << 30)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def _stop(self) -> None:
        if self._closing is not None:
            self._closing.set()  # delayed requests end now
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def _forcing(self) -> bool:
        """Whether this matched request gets the forced status (counts one of ``times``)."""
        if self.status is None:
            return False
        if self.remaining is None:
            return time.monotonic() < self.status_until
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        matched = self.path in request.path
        delay = self.delay
        if matched and "commitWithin" not in request.query:
            delay = max(delay, self.commit_delay)
        if matched and delay and self._closing is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), delay)
        if matched and self._forcing():
            self.log.append((request.method, request.path, -1))
            if self.body is not None:
                return web.Response(
                    status=self.status, text=self.body, content_type="application/json"
                )
            return web.Response(status=self.status, text=f"forced {self.status} by the proxy")
        assert self._session is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        upstream = self.target + request.path_qs.removeprefix("/solr")
        async with self._session.request(
            request.method, upstream, headers=headers, data=await request.read()
        ) as resp:
            body = await resp.read()
            self.log.append((request.method, request.path, resp.status))
            out = {k: v for k, v in resp.headers.items() if k.lower() not in _HOP}
            return web.Response(status=resp.status, body=body, headers=out)
