"""A real HTTP server on 127.0.0.1 in a background thread, for tests that run the CLI."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from indexer.demo.sitehost import SiteHost


@contextmanager
def serve_folder(root: Path, charsets: Mapping[str, str] | None = None) -> Iterator[str]:
    """Serve ``root`` on a free port; yields the base URL; stops the server on exit."""
    loop = asyncio.new_event_loop()
    host = SiteHost(root, charsets)
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(host.start())
        started.set()
        loop.run_forever()
        loop.run_until_complete(host.stop())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("test web server did not start")
    try:
        yield host.base_url
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
