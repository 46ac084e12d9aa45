"""One HTTP exchange with limits: redirects, conditional GET, size cap, content-type filter.

aiohttp errors are translated here into :class:`indexer.errors.FetchError` subclasses and
never leave this module. Redirects are followed by us (``fetch.max_redirects`` hops), each
hop re-checked by the caller's ``check_hop`` (scope and robots.txt). The body cap applies
to the decompressed body while it streams: we decompress ourselves (RFC 9110 §8.4.1 gzip and
deflate, the only codings we ask for; :mod:`indexer.crawl.contentcoding`), so a gzip bomb
costs at most the cap plus one network chunk. Credentials (``fetch.auth``) are sent only to
their own host and never appear in a reason or a log line.
"""

from __future__ import annotations

import asyncio
import base64
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import aiohttp
from yarl import URL

from indexer.crawl.bodyspool import BodySpool
from indexer.crawl.contentcoding import ContentDecoder
from indexer.crawl.membudget import Reservation
from indexer.crawl.retry import RETRYABLE_STATUS, parse_retry_after
from indexer.crawl.urls import host_of, normalize_url
from indexer.errors import (
    FetchError,
    InvalidURLError,
    PermanentFetchError,
    RetryableFetchError,
)
from indexer.models import FetchResult
from indexer.outcomes import Outcome, http_outcome
from indexer.settings import FetchSettings

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_SMALL_REDIRECTS = 6  # robots.txt and sitemaps: five redirects followed (RFC 9309 §2.3.1.2)

#: ``check_hop(url) -> None``: raises FetchError when a redirect target may not be fetched.
HopCheck = Callable[[str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Validators:
    """Stored validators for a conditional GET (RFC 9110 §13.1)."""

    etag: str | None = None
    last_modified: str | None = None


def _tls(cfg: FetchSettings) -> ssl.SSLContext | bool:
    """TLS for the session: False without verification, else the default context plus
    ``fetch.ca_bundle``."""
    if not cfg.verify_tls:
        return False
    context = ssl.create_default_context()
    if cfg.ca_bundle:
        context.load_verify_locations(cafile=str(cfg.ca_bundle))
    return context


def build_session(
    cfg: FetchSettings, on_request_sent: Callable[[str], None] | None = None
) -> aiohttp.ClientSession:
    """The crawl's HTTP session: timeouts, TLS, headers and connection limits from ``cfg``.

    Bodies are not decompressed by aiohttp (see :class:`_Decoder`). Must be called inside a
    running event loop; the caller closes it.

    Args:
        cfg: the fetch settings.
        on_request_sent: called with the host (``host[:port]``) the moment a request's
            headers are written, so that politeness can space requests from when they
            really left, not from when they were scheduled.
    """
    connector = aiohttp.TCPConnector(
        limit=cfg.concurrency, limit_per_host=max(cfg.per_host, 2), ssl=_tls(cfg)
    )
    timeout = aiohttp.ClientTimeout(
        total=cfg.timeout, connect=cfg.connect_timeout, sock_read=cfg.timeout
    )
    headers = {"User-Agent": cfg.user_agent, "Accept-Encoding": "gzip, deflate", **cfg.headers}
    session = aiohttp.ClientSession(
        connector=connector,
        timeout=timeout,
        headers=headers,
        auto_decompress=False,
        max_line_size=64 * 1024,
        max_field_size=64 * 1024,
        trace_configs=[_sent_trace(on_request_sent)] if on_request_sent else None,
    )
    # aiohttp silently repeats a request at once when a reused keep-alive connection is
    # reset; that second start would break the per-host delay. Retries are ours to decide.
    session._retry_connection = False
    return session


def _sent_trace(callback: Callable[[str], None]) -> aiohttp.TraceConfig:
    async def sent(
        _session: aiohttp.ClientSession,
        _ctx: object,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        callback(host_of(str(params.url)))

    trace = aiohttp.TraceConfig()
    trace.on_request_headers_sent.append(sent)
    return trace


class Fetcher:
    """Makes single requests with the crawl's limits.

    Args:
        session: from :func:`build_session`.
        cfg: the fetch settings.
        strip_params: query parameters removed from redirect targets, as from links
            (``crawl.strip_params``).
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        cfg: FetchSettings,
        strip_params: tuple[str, ...] = (),
    ) -> None:
        self._session = session
        self._cfg = cfg
        self._strip_params = strip_params

    def _auth(self, url: str) -> dict[str, str]:
        """The ``Authorization`` header for ``url``'s host (RFC 7617 Basic, UTF-8), if any."""
        parsed = URL(url)
        host = parsed.host or ""
        creds = self._cfg.auth.get(f"{host}:{parsed.port}") or self._cfg.auth.get(host)
        if not creds:
            return {}
        pair = f"{creds['user'].get_secret_value()}:{creds['password'].get_secret_value()}"
        return {"Authorization": "Basic " + base64.b64encode(pair.encode("utf-8")).decode()}

    async def get_text(
        self,
        url: str,
        max_bytes: int = 512 * 1024,
        truncate: bool = False,
        before_hop: HopCheck | None = None,
    ) -> tuple[int, bytes]:
        """GET a small resource (robots.txt, sitemap), following up to 5 redirects.

        Returns ``(status, body)``, the body decompressed (Content-Encoding); a sixth
        redirect is returned as it is (status 3xx).

        Args:
            max_bytes: body cap; beyond it the body is cut (``truncate``) or refused.
            before_hop: awaited with each redirect target first; a FetchError it raises stops.

        Raises:
            RetryableFetchError: network failure or timeout.
            PermanentFetchError: body over ``max_bytes`` (not ``truncate``), bad redirect.
        """
        for hop in range(_SMALL_REDIRECTS):
            if hop and before_hop is not None:
                await before_hop(url)
            async with (
                _ErrorTranslation(url),
                self._session.get(
                    url, allow_redirects=False, proxy=self._cfg.proxy, headers=self._auth(url)
                ) as resp,
            ):
                if resp.status not in _REDIRECTS or not resp.headers.get("Location"):
                    return resp.status, await self._read_capped(url, resp, max_bytes, truncate)
                url = self._redirect_target(url, resp)
        return resp.status, b""

    async def fetch(
        self,
        url: str,
        validators: Validators,
        check_hop: HopCheck,
        before_request: Callable[[str], Awaitable[None]],
        reservation: Reservation | None = None,
    ) -> FetchResult:
        """Fetch ``url``, following redirects, with a conditional GET when validators exist.

        Args:
            url: normalized absolute URL.
            validators: stored ETag / Last-Modified (If-None-Match / If-Modified-Since).
            check_hop: awaited for each redirect target; raises FetchError to stop.
            before_request: awaited before every request (politeness turn), given the URL.
            reservation: the visit's share of the memory budget, the body counted on it
                (:mod:`indexer.crawl.bodyspool`). None: no budget.

        Returns:
            FetchResult with status 200-299 or 304 (not modified: empty body).

        Raises:
            RetryableFetchError: timeouts, network errors, 408/429/5xx (with Retry-After).
            PermanentFetchError: other statuses, too large, wrong type, redirect errors.
        """
        seen = {url}
        current = url
        for _hop in range(self._cfg.max_redirects + 1):
            await before_request(current)
            result = await self._one(url, current, validators, reservation)
            if isinstance(result, FetchResult):
                return result
            if result in seen:
                raise PermanentFetchError(url, Outcome.REDIRECT_ERROR, f"redirect loop at {result}")
            seen.add(result)
            await check_hop(result)
            current = result
        raise PermanentFetchError(
            url, Outcome.REDIRECT_ERROR, f"more than {self._cfg.max_redirects} redirects"
        )

    async def _one(
        self, first: str, url: str, validators: Validators, reservation: Reservation | None
    ) -> FetchResult | str:
        """One request; a redirect returns the normalized target URL."""
        headers = self._auth(url)
        if validators.etag:
            headers["If-None-Match"] = validators.etag
        if validators.last_modified:
            headers["If-Modified-Since"] = validators.last_modified
        spool = BodySpool(None, None)  # a 304's empty body
        async with (
            _ErrorTranslation(url),
            self._session.get(
                url,
                headers=headers,
                allow_redirects=False,
                proxy=self._cfg.proxy,
            ) as resp,
        ):
            if resp.status in _REDIRECTS:
                return self._redirect_target(url, resp)
            self._check_status(url, resp)
            hdrs = {k.lower(): v for k, v in resp.headers.items()}
            if resp.status != 304:
                self._check_type(url, hdrs.get("content-type"))
                cap = self._body_cap(hdrs.get("content-type"))
                spool = await self._read_spooled(url, resp, cap, False, reservation)
            status = resp.status
        try:  # a spooled body waits its turn with the connection back in the pool
            body = await spool.value()
        finally:
            spool.close()
        return FetchResult(
            url=first,
            final_url=url,
            status=status,
            headers=hdrs,
            body=body,
            fetched_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )

    def _redirect_target(self, url: str, resp: aiohttp.ClientResponse) -> str:
        location = resp.headers.get("Location")
        if not location:
            raise PermanentFetchError(
                url, Outcome.REDIRECT_ERROR, f"{resp.status} without Location"
            )
        try:
            return normalize_url(str(URL(url).join(URL(location))), self._strip_params)
        except (InvalidURLError, ValueError) as exc:
            raise PermanentFetchError(
                url, Outcome.REDIRECT_ERROR, f"bad redirect target: {exc}"
            ) from None

    def _check_status(self, url: str, resp: aiohttp.ClientResponse) -> None:
        status = resp.status
        if 200 <= status < 300 or status == 304:
            return
        reason = f"HTTP {status} {resp.reason or ''}".strip()
        if status in RETRYABLE_STATUS:
            retry_after = parse_retry_after(resp.headers.get("Retry-After"))
            raise RetryableFetchError(url, http_outcome(status), reason, retry_after)
        raise PermanentFetchError(url, http_outcome(status), reason)

    def _body_cap(self, content_type: str | None) -> int:
        """``fetch.max_body_bytes`` for a declared HTML page, else ``fetch.max_document_bytes``
        (the format is decided from the bytes later; HTML over the page cap ends there)."""
        media = (content_type or "").split(";", 1)[0].strip().lower()
        if media in _HTML_TYPES:
            return self._cfg.max_body_bytes
        return max(self._cfg.max_document_bytes, self._cfg.max_body_bytes)

    def _check_type(self, url: str, content_type: str | None) -> None:
        """``fetch.content_types``, when set, filters by the declared type (before the body
        is read); empty, everything is fetched and the bytes decide."""
        if not content_type or not self._cfg.content_types:
            return  # no header or no filter: decide from the bytes later
        media = content_type.split(";", 1)[0].strip().lower()
        if media not in self._cfg.content_types:
            raise PermanentFetchError(url, Outcome.WRONG_TYPE, f"content type {media}")

    async def _read_capped(
        self, url: str, resp: aiohttp.ClientResponse, max_bytes: int, truncate: bool = False
    ) -> bytes:
        """The decoded body of a small resource, in memory (no budget)."""
        spool = await self._read_spooled(url, resp, max_bytes, truncate, None)
        return await spool.value()

    async def _read_spooled(
        self,
        url: str,
        resp: aiohttp.ClientResponse,
        max_bytes: int,
        truncate: bool,
        reservation: Reservation | None,
    ) -> BodySpool:
        """Stream the decoded body into a :class:`BodySpool` on ``reservation``, at most
        ``max_bytes`` (beyond: cut when ``truncate``, else ``too-large``)."""
        coding = resp.headers.get("Content-Encoding", "identity").strip().lower()
        declared = resp.content_length
        if declared is not None and declared > max_bytes and coding == "identity" and not truncate:
            raise PermanentFetchError(
                url, Outcome.TOO_LARGE, f"Content-Length {declared} > {max_bytes}"
            )
        decoder = ContentDecoder(url, coding)
        spool = BodySpool(reservation, declared if coding == "identity" else None)
        try:
            async for raw in resp.content.iter_chunked(_CHUNK):
                chunk = decoder.feed(raw, max_bytes - spool.size)
                over = spool.size + len(chunk) - max_bytes
                if over > 0:
                    if truncate:
                        spool.write(chunk[: len(chunk) - over])
                        return spool
                    raise PermanentFetchError(
                        url, Outcome.TOO_LARGE, f"body over {max_bytes} bytes"
                    )
                spool.write(chunk)
            decoder.finish()
        except BaseException:
            spool.close()
            raise
        return spool


class _ErrorTranslation:
    """Translates aiohttp and asyncio errors into FetchError subclasses."""

    def __init__(self, url: str) -> None:
        self._url = url

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: object
    ) -> None:
        if ev is None or isinstance(ev, FetchError):
            return
        url = self._url
        detail = " ".join(str(ev).split())  # aiohttp messages span lines
        if isinstance(ev, asyncio.TimeoutError | aiohttp.ServerTimeoutError):
            raise RetryableFetchError(url, Outcome.TIMEOUT, "timed out", unreachable=True) from None
        if isinstance(ev, aiohttp.ClientConnectorError):  # refused, unroutable, no such host
            reason = f"cannot connect: {type(ev).__name__}: {detail}"[:200]
            raise RetryableFetchError(url, Outcome.CONNECTION_ERROR, reason, unreachable=True)
        if isinstance(ev, aiohttp.InvalidURL | aiohttp.NonHttpUrlClientError):
            raise PermanentFetchError(url, Outcome.INVALID_URL, detail[:200]) from None
        if isinstance(ev, aiohttp.ClientResponseError):
            message = " ".join(ev.message.split())
            raise RetryableFetchError(
                url, Outcome.CONNECTION_ERROR, f"bad response: {message}"[:200]
            ) from None
        if isinstance(ev, aiohttp.ClientError | ConnectionError | OSError):
            reason = f"{type(ev).__name__}: {detail}"[:200]
            raise RetryableFetchError(url, Outcome.CONNECTION_ERROR, reason) from None
        if isinstance(ev, ValueError | UnicodeError | LookupError):
            raise PermanentFetchError(url, Outcome.INVALID_URL, detail[:200]) from None
