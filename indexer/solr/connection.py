"""The one Solr client: HTTP to one node over requests, Basic auth, errors translated by status.

Writer (:mod:`indexer.index.writer`), queries (:mod:`indexer.solr.search`) and administration
(:mod:`indexer.solr.admin`, :mod:`indexer.solr.cloud`) all talk to Solr through
:class:`SolrConnection`; :func:`basic_auth` is the one place credentials are read and
:func:`http_error` the one place an HTTP status becomes an exception.

Credentials travel in the ``Authorization`` header only, never in URLs, so no message built
here (which may name the URL) can carry them. The translation (Solr Ref Guide, "Response
Writers": the JSON error object ``error.msg``; RFC 9110 §15 for the classes):

- no answer (connect error, timeout): ``SolrUnavailableError``
- 401, 403: ``SolrAuthError``
- 400 with Solr's own error naming an unknown field: ``SolrSchemaError``
- 400 with Solr's own error otherwise: ``SolrDocumentError`` (a bad document)
- any other 4xx (404 of a reloading core or a misrouting proxy, a 400 without Solr's error
  object): ``SolrRejectedError`` with its status; writers retry these as an outage
- 5xx or a non-JSON success: ``SolrUnavailableError``
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import requests

from indexer.errors import (
    SolrAuthError,
    SolrDocumentError,
    SolrError,
    SolrRejectedError,
    SolrSchemaError,
    SolrUnavailableError,
)
from indexer.loopback import proxies_for
from indexer.settings import SolrSettings

AUTH_HINT = "check solr.user and solr.password (INDEXER_SOLR_USER, INDEXER_SOLR_PASSWORD)"
SCHEMA_HINT = "the core's configset is older than this indexer: run `indexer solr update-config`"
_UNKNOWN_FIELD = re.compile(r"unknown field", re.IGNORECASE)


def basic_auth(cfg: SolrSettings) -> tuple[str, str] | None:
    """``(solr.user, solr.password)`` for Basic auth, or None without ``solr.user``."""
    if not cfg.user:
        return None
    return (cfg.user, cfg.password.get_secret_value() if cfg.password else "")


@dataclass(frozen=True)
class SolrConnection:
    """HTTP access to one Solr node.

    Attributes:
        base_url: ``http://HOST:PORT/solr`` (no trailing slash, no credentials).
        auth: ``(user, password)`` for Basic auth, or None.
        timeout: seconds per request.
        session: a ``requests.Session`` to keep connections alive (writers), or None.
    """

    base_url: str
    auth: tuple[str, str] | None = field(default=None, repr=False)
    timeout: float = 60.0
    session: requests.Session | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_settings(
        cls, cfg: SolrSettings, url: str | None = None, *, keep_alive: bool = False
    ) -> SolrConnection:
        """A connection to ``url`` (default ``solr.url``) with ``solr.user``/``password``."""
        session = requests.Session() if keep_alive else None
        return cls((url or cfg.url).rstrip("/"), basic_auth(cfg), cfg.timeout, session)

    def get(self, path: str, params: dict[str, str] | None = None) -> dict[str, Any]:
        """GET ``{base_url}{path}`` with ``wt=json``; returns the JSON object.

        Raises:
            SolrUnavailableError: no answer, 5xx or a non-JSON answer.
            SolrAuthError: 401 or 403.
            SolrRejectedError: other 4xx (a subclass for a 400 from Solr, see the module).
        """
        return self._send("GET", path, params or {}, None)

    def post(
        self, path: str, params: dict[str, str], body: bytes, content_type: str
    ) -> dict[str, Any]:
        """POST ``body`` to ``{base_url}{path}``; errors as :meth:`get`."""
        return self._send("POST", path, params, (body, content_type))

    def post_json(self, path: str, params: dict[str, str], payload: Any) -> dict[str, Any]:
        """POST ``payload`` as a UTF-8 JSON body (real UTF-8, not ``\\u`` escapes, which would
        double Japanese payloads); errors as :meth:`get`."""
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        return self._send("POST", path, params, (body, "application/json; charset=utf-8"))

    def _send(
        self, method: str, path: str, params: dict[str, str], body: tuple[bytes, str] | None
    ) -> dict[str, Any]:
        url = f"{self.base_url}{path}"
        headers = {"Content-Type": body[1]} if body else {}
        send = self.session.request if self.session is not None else requests.request
        try:
            resp = send(
                method,
                url,
                params={**params, "wt": "json"},
                data=body[0] if body else None,
                headers=headers,
                auth=self.auth,
                timeout=self.timeout,
                proxies=proxies_for(url),
            )
        except requests.RequestException as exc:
            raise SolrUnavailableError(f"{url}: no answer ({_no_answer(exc)})") from None
        return _check(url, resp)


def _no_answer(exc: requests.RequestException) -> str:
    if isinstance(exc, requests.Timeout):
        return "timed out"
    if isinstance(exc, requests.ConnectionError):
        return "cannot connect"
    return type(exc).__name__


def _check(url: str, resp: requests.Response) -> dict[str, Any]:
    try:
        data = resp.json()
    except ValueError:
        data = None
    if resp.status_code >= 300 or not isinstance(data, dict):
        raise http_error(url, resp.status_code, data if isinstance(data, dict) else None, resp)
    return data


def http_error(
    url: str, status: int, data: dict[str, Any] | None, resp: requests.Response | None = None
) -> SolrError:
    """The exception for an HTTP answer: ``status``, Solr's JSON answer ``data`` (or None
    when the body was not a JSON object); see the module docstring for the table."""
    if status in (401, 403):
        return SolrAuthError(f"{url}: Solr refused the credentials (HTTP {status}); {AUTH_HINT}")
    message = solr_message(data) if data is not None else ""
    if status == 400 and message:
        if _UNKNOWN_FIELD.search(message):
            return SolrSchemaError(f"{url}: HTTP 400: {message}; {SCHEMA_HINT}", status)
        return SolrDocumentError(f"{url}: HTTP 400: {message}", status)
    if not message:
        message = _non_json_reason(status, resp)
    text = f"{url}: HTTP {status}: {message}"
    if 400 <= status < 500:
        return SolrRejectedError(text, status)
    return SolrUnavailableError(text)


def _non_json_reason(status: int, resp: requests.Response | None) -> str:
    if status == 404:
        return "not found: is the base URL right (it ends in /solr) and does the core exist?"
    body = resp.text if resp is not None else ""
    text = " ".join(re.sub(r"<[^>]+>", " ", body).split())
    return f"not a Solr answer: {text[:200]!r}"


def solr_message(data: dict[str, Any]) -> str:
    """Solr's error text from a JSON answer: ``error.msg``, else ``failure``, else ''."""
    error = data.get("error")
    if isinstance(error, dict) and error.get("msg"):
        return str(error["msg"])
    failure = data.get("failure")
    if failure:
        return str(failure)[:500]
    return ""
