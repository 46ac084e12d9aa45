"""Streaming Content-Encoding decoding with a limit (RFC 9110 §8.4.1): gzip and deflate.

zlib's ``max_length`` bounds each step, so a compressed body never inflates past the
caller's room: a gzip bomb costs at most the cap plus one network chunk.
"""

from __future__ import annotations

import zlib

from indexer.errors import PermanentFetchError
from indexer.outcomes import Outcome


class ContentDecoder:
    """Streaming Content-Encoding decoder (RFC 9110 §8.4.1) that never inflates past a limit.

    ``deflate`` is the zlib format (RFC 1950) but some servers send raw deflate (RFC 1951):
    both are accepted, as browsers do.

    Raises:
        PermanentFetchError: ``wrong-type`` for a coding we did not ask for,
            ``bad-response`` for corrupt compressed data.
    """

    def __init__(self, url: str, coding: str) -> None:
        self._url = url
        self._coding = coding
        self._zlib: zlib._Decompress | None = None
        if coding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self._zlib = None  # chosen on the first bytes
        elif coding != "identity":
            raise PermanentFetchError(url, Outcome.WRONG_TYPE, f"content coding {coding[:40]}")

    def feed(self, data: bytes, room: int) -> bytes:
        """Decoded bytes of ``data``; at most ``room + 1`` of them (enough to see the cap)."""
        if self._coding == "identity":
            return data
        if self._zlib is None:
            zlib_header = (
                len(data) >= 2 and (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0
            )
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        try:
            return self._zlib.decompress(data, max(room, 0) + 1)
        except zlib.error as exc:
            raise PermanentFetchError(
                self._url, Outcome.BAD_RESPONSE, f"corrupt {self._coding} body: {exc}"[:200]
            ) from None

    def finish(self) -> None:
        """Check that a compressed body was complete.

        Raises:
            PermanentFetchError: ``bad-response`` for a truncated compressed stream.
        """
        if self._zlib is not None and not self._zlib.eof:
            raise PermanentFetchError(
                self._url, Outcome.BAD_RESPONSE, f"truncated {self._coding} body"
            )
