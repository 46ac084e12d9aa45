"""The HTTP server's runner, with requests that cannot be parsed logged in one line.

aiohttp answers a request it cannot parse (a request line or header longer than its
limit, a malformed line) with 400 itself, before any handler runs, and logs it with a
whole traceback on ``aiohttp.server`` (``RequestHandler.handle_error``). That is a
client's mistake or a probe, not a fault of ours: :class:`QuietParseErrors` logs it as one
warning line naming the client and what was wrong; any other exception keeps its
traceback.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError, LineTooLong

#: Characters of aiohttp's message kept in the line (it quotes the start of the request).
MESSAGE_SHOWN = 120


class QuietParseErrors(logging.LoggerAdapter):  # type: ignore[type-arg]
    """``aiohttp.server``'s logger, but a request that could not be parsed is one warning
    line ("refused a request from 127.0.0.1 (HTTP 400): request line or header over
    36000 bytes") instead of an error with a traceback."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        super().__init__(logger or logging.getLogger("aiohttp.server"), {})

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, Any]:
        """Pass ``msg`` and ``kwargs`` on unchanged (no extra context)."""
        return msg, kwargs

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kw: Any) -> None:
        """Log ``msg`` with its traceback, unless the exception is a parse error."""
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(exc, HttpProcessingError):
            client = args[0] if args else "?"
            self.warning("refused a request from %s (HTTP %d): %s", client, exc.code, _what(exc))
            return
        self.error(msg, *args, exc_info=exc_info, **kw)


def _what(exc: HttpProcessingError) -> str:
    """What was wrong with the request, in one short line."""
    if isinstance(exc, LineTooLong):
        return f"request line or header over {exc.args[1]} bytes"
    text = " ".join(str(exc.message or type(exc).__name__).split())
    return text[:MESSAGE_SHOWN]


def make_runner(app: web.Application, max_line_size: int) -> web.AppRunner:
    """The runner ``indexer serve`` listens with: no access log, request lines up to
    ``max_line_size`` bytes, parse errors logged by :class:`QuietParseErrors`."""
    return web.AppRunner(
        app, access_log=None, max_line_size=max_line_size, logger=QuietParseErrors()
    )
