"""The one Solr client: pysolr on a requests Session, Basic auth, errors translated by status.

Writer (:mod:`indexer.index.writer`), queries (:mod:`indexer.solr.search`) and administration
(:mod:`indexer.solr.admin`, :mod:`indexer.solr.cloud`) all talk to Solr through
:class:`SolrConnection`, which carries the requests over pysolr (``Solr.add``, ``delete``,
``commit``, ``search``; ``ping``'s handler call for the handlers that take no ``q``: system
info, real-time get, schema), except the CoreAdmin, Collections and Configsets APIs, which
go on the same session (:data:`NODE_ADMIN`, :meth:`SolrConnection.upload`).
pysolr gets our ``requests.Session``; a response hook on it (:func:`raise_for_solr_status`)
turns the real HTTP status into our exception before pysolr sees the answer, so
:func:`http_error` is the one place a status becomes an exception and pysolr's own
``SolrError`` is left only for "no answer". :func:`basic_auth` is the one place credentials
are read.

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

import contextlib
import json
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pysolr
import requests

from indexer.errors import (
    SolrAuthError,
    SolrDocumentError,
    SolrError,
    SolrRejectedError,
    SolrSchemaError,
    SolrUnavailableError,
)
from indexer.loopback import is_loopback
from indexer.settings import SolrSettings

AUTH_HINT = "check solr.user and solr.password (INDEXER_SOLR_USER, INDEXER_SOLR_PASSWORD)"
SCHEMA_HINT = "the core's configset is older than this indexer: run `indexer solr update-config`"
_UNKNOWN_FIELD = re.compile(r"unknown field", re.IGNORECASE)
#: The CoreAdmin, Collections and Configsets APIs: called on the session, not through
#: pysolr, whose handler calls end the path in ``/`` (Solr 9.10 answers these v1 paths so
#: with 404) and whose ``SolrCoreAdmin`` leaves out the session, auth and timeout.
NODE_ADMIN = ("admin/cores", "admin/collections", "admin/configs")
#: pysolr logs a traceback for every refused connection; the exception we raise says it once.
logging.getLogger("pysolr").setLevel(logging.CRITICAL)
#: Real UTF-8 in update bodies, not ``\u`` escapes (which would double Japanese payloads).
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def basic_auth(cfg: SolrSettings) -> tuple[str, str] | None:
    """``(solr.user, solr.password)`` for Basic auth, or None without ``solr.user``."""
    if not cfg.user:
        return None
    return (cfg.user, cfg.password.get_secret_value() if cfg.password else "")


def _decoded(decoded: dict[str, Any], next_page_query: object = None) -> dict[str, Any]:
    """pysolr's ``results_cls``: Solr's JSON answer as it is (cursorMark paging is ours)."""
    return decoded


class SolrConnection:
    """Access to one Solr node through pysolr.

    Args:
        base_url: ``http://HOST:PORT/solr`` (no credentials; a trailing slash is dropped).
        auth: ``(user, password)`` for Basic auth, or None.
        timeout: seconds per request.
        session: the ``requests.Session`` to use (connections kept alive), or None for a new
            one; :func:`prepare_session` adds the status hook to it. A loopback node is
            reached directly, never through an environment proxy (:mod:`indexer.loopback`).
    """

    def __init__(
        self,
        base_url: str,
        auth: tuple[str, str] | None = None,
        timeout: float = 60.0,
        session: requests.Session | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.auth = auth
        self.timeout = timeout
        self.session = prepare_session(session or requests.Session(), self.base_url)
        self._solrs: dict[str, pysolr.Solr] = {}

    def __repr__(self) -> str:
        return f"SolrConnection({self.base_url!r}, timeout={self.timeout})"

    @classmethod
    def from_settings(cls, cfg: SolrSettings, url: str | None = None) -> SolrConnection:
        """A connection to ``url`` (default ``solr.url``) with ``solr.user``/``password``."""
        return cls((url or cfg.url).rstrip("/"), basic_auth(cfg), cfg.timeout)

    def solr(self, target: str = "") -> pysolr.Solr:
        """The pysolr client of ``{base_url}/{target}`` (the node itself for ``""``), on
        this connection's session; one per target."""
        if target not in self._solrs:
            url = f"{self.base_url}/{target}" if target else self.base_url
            self._solrs[target] = pysolr.Solr(
                url,
                timeout=self.timeout,
                auth=self.auth,
                session=self.session,
                results_cls=_decoded,
                encoder=_ENCODER,
            )
        return self._solrs[target]

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> dict[str, Any]:
        """Call the handler at ``{base_url}{path}`` with ``params`` and ``wt=json``; a query
        (``q`` given) through ``Solr.search``, a call without ``q`` through ``Solr.ping``'s
        handler call (pysolr sends a form by POST when the encoded parameters pass 1 KiB,
        so long queries fit); the node-level :data:`NODE_ADMIN` APIs on the session.

        Returns:
            Solr's JSON object.

        Raises:
            SolrUnavailableError: no answer, 5xx or a non-JSON answer.
            SolrAuthError: 401 or 403.
            SolrRejectedError: other 4xx (a subclass for a 400 from Solr, see the module).
        """
        handler = path.strip("/")
        form = {k: str(v) for k, v in (params or {}).items()}
        if handler.startswith(NODE_ADMIN):
            return self._send("GET", path, form, None)
        url = f"{self.base_url}/{handler}"
        solr = self.solr()
        with _translated(url):
            if "q" in form:
                q = form.pop("q")
                return dict(solr.search(q, search_handler=handler, **form))
            text = solr.ping(handler=handler, wt="json", **form)
        return _json_object(url, text)

    def add(self, target: str, docs: Sequence[Mapping[str, Any]], commit_within_ms: int) -> None:
        """Add (replace by id) ``docs`` to ``target`` as one JSON array with ``commitWithin``
        (``Solr.add``); errors as :meth:`get`, plus ``SolrDocumentError``/``SolrSchemaError``
        for a 400 naming a document problem or an unknown field."""
        with _translated(f"{self.base_url}/{target}/update"):
            self.solr(target).add(list(docs), commitWithin=commit_within_ms)

    def delete(self, target: str, ids: Sequence[str]) -> None:
        """Delete ``ids`` from ``target`` and open a soft commit, so they leave search at
        once (``Solr.delete``; Ref Guide, "Commits and Transaction Logs"); errors as
        :meth:`add`."""
        with _translated(f"{self.base_url}/{target}/update"):
            self.solr(target).delete(id=list(ids), softCommit=True)

    def delete_query(self, target: str, query: str) -> None:
        """Delete what ``query`` (Lucene syntax) matches in ``target``, with a hard commit;
        errors as :meth:`add`."""
        with _translated(f"{self.base_url}/{target}/update"):
            self.solr(target).delete(q=query, commit=True)

    def commit(self, target: str) -> None:
        """A hard commit of ``target`` that waits for the new searcher; errors as :meth:`add`."""
        with _translated(f"{self.base_url}/{target}/update"):
            self.solr(target).commit(waitSearcher=True)

    def upload(
        self, path: str, params: Mapping[str, str], body: bytes, content_type: str
    ) -> dict[str, Any]:
        """POST ``body`` to ``{base_url}{path}`` on the session (a configset upload: pysolr
        has no call for it); errors as :meth:`get`, by the same hook."""
        return self._send("POST", path, params, (body, content_type))

    def _send(
        self,
        method: str,
        path: str,
        params: Mapping[str, str],
        body: tuple[bytes, str] | None,
    ) -> dict[str, Any]:
        url = f"{self.base_url}{path}"
        with _translated(url):
            resp = self.session.request(
                method,
                url,
                params={**params, "wt": "json"},
                data=body[0] if body else None,
                headers={"Content-Type": body[1]} if body else {},
                auth=self.auth,
                timeout=self.timeout,
            )
        return _json_object(url, resp.text)

    def close(self) -> None:
        """Close the session's pooled connections."""
        self.session.close()


def prepare_session(session: requests.Session, base_url: str) -> requests.Session:
    """Add :func:`raise_for_solr_status` to ``session``'s response hooks (once) and, for a
    loopback ``base_url``, stop it from taking proxies from the environment; returns it."""
    hooks = session.hooks.setdefault("response", [])
    if raise_for_solr_status not in hooks:
        hooks.append(raise_for_solr_status)
    if is_loopback(base_url):
        session.trust_env = False
    return session


def raise_for_solr_status(resp: requests.Response, *args: Any, **kwargs: Any) -> None:
    """requests response hook: raise :func:`http_error`'s exception for a status of 300 or
    more that requests will not follow, and ``SolrUnavailableError`` for a success that is
    not Solr's (a proxy's page), before pysolr reads the answer.

    Raises:
        SolrError: as :func:`http_error`.
    """
    url = resp.url.split("?", 1)[0].rstrip("/")
    if resp.is_redirect:
        return
    if resp.status_code >= 300:
        data = _json_or_none(resp)
        raise http_error(url, resp.status_code, data, resp)
    if not _solr_answer(resp):
        raise SolrUnavailableError(f"{url}: HTTP {resp.status_code}: {_non_json_reason(0, resp)}")


def _solr_answer(resp: requests.Response) -> bool:
    """Whether a success is Solr's own answer: JSON, or the XML ``<response>`` Solr gives
    to an XML update (pysolr's deletes and commits), not a proxy's page."""
    kind = resp.headers.get("Content-Type", "")
    if "json" in kind:
        return True
    if "xml" in kind:
        return b"<response" in resp.content[:200]
    return _json_or_none(resp) is not None


def _json_or_none(resp: requests.Response) -> dict[str, Any] | None:
    try:
        data = resp.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _json_object(url: str, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise SolrUnavailableError(f"{url}: not a Solr answer: {text[:200]!r}")
    return data


@contextlib.contextmanager
def _translated(url: str) -> Iterator[None]:
    """pysolr's ``SolrError`` (no answer), requests' errors and an answer that does not
    decode become ``SolrUnavailableError`` naming ``url``; ours pass through."""
    try:
        yield
    except (pysolr.SolrError, requests.RequestException) as exc:
        raise SolrUnavailableError(f"{url}: no answer ({_no_answer(exc)})") from None
    except ValueError as exc:  # pysolr's JSON decoding of a select answer
        raise SolrUnavailableError(f"{url}: not a Solr answer ({exc})") from None


def _no_answer(exc: BaseException) -> str:
    cause = exc if isinstance(exc, requests.RequestException) else exc.__context__
    if isinstance(cause, requests.Timeout):
        return "timed out"
    if isinstance(cause, requests.ConnectionError):
        return "cannot connect"
    if cause is None:
        return str(exc)[:200]
    return type(cause).__name__


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
