"""One Solr node's admin HTTP APIs over requests, with Basic auth and error translation.

Credentials travel in the ``Authorization`` header only, never in URLs, so no message built
here (which may name the URL) can carry them. requests errors become
``SolrUnavailableError``; 401/403 become ``SolrAuthError``; other 4xx ``SolrRejectedError``
with Solr's own ``error.msg`` (Solr Ref Guide, "Response Writers": the JSON error object).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import requests

from indexer.errors import SolrAuthError, SolrError, SolrRejectedError, SolrUnavailableError
from indexer.settings import SolrSettings

AUTH_HINT = "check solr.user and solr.password (INDEXER_SOLR_USER, INDEXER_SOLR_PASSWORD)"


@dataclass(frozen=True)
class SolrConnection:
    """Admin access to one Solr node.

    Attributes:
        base_url: ``http://HOST:PORT/solr`` (no trailing slash, no credentials).
        auth: ``(user, password)`` for Basic auth, or None.
        timeout: seconds per request.
    """

    base_url: str
    auth: tuple[str, str] | None = field(default=None, repr=False)
    timeout: float = 60.0

    @classmethod
    def from_settings(cls, cfg: SolrSettings, url: str | None = None) -> SolrConnection:
        """A connection to ``url`` (default ``solr.url``) with ``solr.user``/``password``."""
        auth = None
        if cfg.user:
            auth = (cfg.user, cfg.password.get_secret_value() if cfg.password else "")
        return cls((url or cfg.url).rstrip("/"), auth, cfg.timeout)

    def get(self, path: str, params: dict[str, str] | None = None) -> dict[str, Any]:
        """GET ``{base_url}{path}`` with ``wt=json``; returns the JSON object.

        Raises:
            SolrUnavailableError: no answer, 5xx or a non-JSON answer.
            SolrAuthError: 401 or 403.
            SolrRejectedError: other 4xx (message: Solr's ``error.msg``).
        """
        return self._send("GET", path, params or {}, None)

    def post(
        self, path: str, params: dict[str, str], body: bytes, content_type: str
    ) -> dict[str, Any]:
        """POST ``body`` to ``{base_url}{path}``; errors as :meth:`get`."""
        return self._send("POST", path, params, (body, content_type))

    def _send(
        self, method: str, path: str, params: dict[str, str], body: tuple[bytes, str] | None
    ) -> dict[str, Any]:
        url = f"{self.base_url}{path}"
        headers = {"Content-Type": body[1]} if body else {}
        try:
            resp = requests.request(
                method,
                url,
                params={**params, "wt": "json"},
                data=body[0] if body else None,
                headers=headers,
                auth=self.auth,
                timeout=self.timeout,
            )
        except requests.RequestException as exc:
            raise SolrUnavailableError(f"{url}: no answer ({type(exc).__name__})") from None
        return _check(url, resp)


def _check(url: str, resp: requests.Response) -> dict[str, Any]:
    if resp.status_code in (401, 403):
        raise SolrAuthError(
            f"{url}: Solr refused the credentials (HTTP {resp.status_code}); {AUTH_HINT}"
        )
    try:
        data = resp.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise _http_error(url, resp.status_code, _non_json_reason(resp))
    if resp.status_code >= 300:
        raise _http_error(url, resp.status_code, solr_message(data))
    return data


def _non_json_reason(resp: requests.Response) -> str:
    if resp.status_code == 404:
        return "not found: is the base URL right (it ends in /solr) and does the core exist?"
    text = " ".join(re.sub(r"<[^>]+>", " ", resp.text).split())
    return f"not a Solr answer: {text[:200]!r}"


def _http_error(url: str, status: int, message: str) -> SolrError:
    text = f"{url}: HTTP {status}: {message}"
    if 400 <= status < 500:
        return SolrRejectedError(text, status)
    return SolrUnavailableError(text)


def solr_message(data: dict[str, Any]) -> str:
    """Solr's error text from a JSON answer: ``error.msg``, else ``failure``, else ''."""
    error = data.get("error")
    if isinstance(error, dict) and error.get("msg"):
        return str(error["msg"])
    failure = data.get("failure")
    if failure:
        return str(failure)[:500]
    return ""
