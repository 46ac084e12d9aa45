"""A small static web server for a folder of pages (the sample site, tests, demos).

Files are served as they are, byte for byte: ``.html`` as ``text/html`` with a charset
parameter only when ``charsets`` names one for that path (so pages can be served without
one, or with a wrong one, on purpose). Binds 127.0.0.1 on a free port unless told.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from aiohttp import web

_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".txt": "text/plain",
    ".xml": "application/xml",
    ".jpg": "image/jpeg",
    ".png": "image/png",
}


class SiteHost:
    """Serves ``root`` over HTTP on 127.0.0.1.

    Args:
        root: the folder served at ``/``.
        charsets: optional ``{relative path: charset label}`` sent in Content-Type.
        port: TCP port; 0 picks a free one (read :attr:`base_url` after :meth:`start`).
    """

    def __init__(
        self, root: Path, charsets: Mapping[str, str] | None = None, port: int = 0
    ) -> None:
        self.root = root.resolve()
        self.charsets = dict(charsets or {})
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (valid after :meth:`start`)."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> str:
        """Start serving; returns :attr:`base_url`."""
        app = web.Application()
        app.router.add_get("/{path:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        server = site._server
        if self.port == 0 and server is not None:
            self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self.base_url

    async def stop(self) -> None:
        """Stop serving and close connections."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _handle(self, request: web.Request) -> web.Response:
        rel = request.match_info["path"] or "index.html"
        path = (self.root / rel).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return web.Response(status=404, text="not found")
        media = _TYPES.get(path.suffix.lower(), "application/octet-stream")
        charset = self.charsets.get(rel)
        content_type = f"{media}; charset={charset}" if charset else media
        return web.Response(body=path.read_bytes(), headers={"Content-Type": content_type})
