"""Queries: the configset's ``/search`` handler (edismax, unified highlighter) and id listing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from indexer.errors import QueryError, SolrRejectedError, SolrUnavailableError
from indexer.settings import SolrSettings
from indexer.solr import snippets
from indexer.solr.connection import SolrConnection
from indexer.solr.query import Note, QueryOptions, prepare

#: The stored field that withholds a document's snippets (schema.xml) and the ``/search``
#: handler's own ``fl`` (solrconfig.xml), used when a request names none.
NOSNIPPET = "nosnippet"
HANDLER_FIELDS = "id,url,title,score"
# How Solr 9 reports Lucene's clause limit (IndexSearcher.TooManyClauses, 400 or 500).
_TOO_COMPLEX = ("too many clauses", "maxClauseCount", "TooManyClauses", "TooManyNestedClauses")


def search(
    cfg: SolrSettings,
    query: str,
    rows: int = 10,
    extra: dict[str, str] | None = None,
    options: QueryOptions | None = None,
) -> dict[str, Any]:
    """Run what a user typed against ``/search`` (a POSTed form when long).

    The text goes through :func:`indexer.solr.query.prepare` (length bound, operators,
    fuzzy and wildcard syntax, one-character queries); ``extra`` adds or overrides request
    parameters (the evaluation's Kuromoji-only baseline sends ``qf=content``).

    Returns:
        ``{"numFound": int, "hits": [{"id", "url", "title", "score", "snippets": [str]}],
        "notes": [str]}`` (notes: what was searched otherwise than typed,
        :meth:`indexer.solr.query.Note.message`); snippets mark matches with
        ``<em>…</em>`` as the handler does (callers map them to their own marks) and are
        cut at clause ends (:mod:`indexer.solr.snippets`).

    Raises:
        QueryError: the query is empty, too long, or too complex for Solr (message for
            the user).
        SolrUnavailableError: Solr does not answer.
        SolrError: Solr answers with another error (its message included).
    """
    prepared = prepare(query, options)
    params: dict[str, str | int] = {
        "q": prepared.q,
        "rows": rows,
        "fl": "id,url,title,score",
        **prepared.params,
        **(extra or {}),
    }
    data = _search_request(cfg, params)
    highlighting = data.get("highlighting", {})
    hits = [_hit(doc, highlighting.get(doc["id"], {})) for doc in data["response"]["docs"]]
    notes = [note.message() for note in prepared.notes]
    return {"numFound": data["response"]["numFound"], "hits": hits, "notes": notes}


def search_page(
    cfg: SolrSettings,
    query: str,
    params: dict[str, str | int],
    options: QueryOptions | None = None,
) -> tuple[dict[str, Any], tuple[Note, ...]]:
    """Run what a user typed against ``/search`` with extra request parameters (filter
    query, JSON facets, paging, sort, highlighter encoder), prepared as :func:`search` does
    (length bound, operators, fuzzy and wildcard syntax).

    Returns:
        Solr's JSON answer as is (``response``, ``highlighting``, ``facets``) and the
        notes on what was searched otherwise than typed.

    Raises:
        QueryError, SolrUnavailableError, SolrError: as :func:`search`.
    """
    prepared = prepare(query, options)
    data = _search_request(cfg, {**prepared.params, **params, "q": prepared.q})
    return data, prepared.notes


def _hit(doc: dict[str, Any], highlighted: dict[str, list[str]]) -> dict[str, Any]:
    """One hit of :func:`search` from a Solr document and its highlighting entry."""
    title = doc.get("title")
    return {
        "id": doc["id"],
        "url": doc.get("url", doc["id"]),
        "title": title[0] if isinstance(title, list) else title,
        "score": doc.get("score"),
        "snippets": snippets.pick(highlighted),
    }


def _search_request(cfg: SolrSettings, params: dict[str, str | int]) -> dict[str, Any]:
    """Query ``/search`` and withhold the snippets of ``nosnippet`` documents
    (:func:`withhold_snippets`); Lucene's clause limit becomes a :class:`QueryError`."""
    fields = str(params.get("fl", HANDLER_FIELDS)).split(",")
    params = {**params, "fl": ",".join([*fields, NOSNIPPET] if NOSNIPPET not in fields else fields)}
    try:
        return withhold_snippets(_request(cfg, "search", params))
    except (SolrRejectedError, SolrUnavailableError) as exc:
        if any(sign in str(exc) for sign in _TOO_COMPLEX):
            raise QueryError(
                "query too complex for the index (too many words or fragments): "
                "search with fewer or shorter words"
            ) from None
        raise


def withhold_snippets(data: dict[str, Any]) -> dict[str, Any]:
    """Drop the highlighting of every hit whose document has ``nosnippet`` (the robots
    ``nosnippet`` / ``max-snippet:0`` of its page): it is listed with no snippet at all, no
    fragment and no alternate text. Returns ``data``, changed in place."""
    highlighting = data.get("highlighting")
    if not isinstance(highlighting, dict):
        return data
    for doc in data.get("response", {}).get("docs", []):
        if doc.get(NOSNIPPET):
            highlighting.pop(doc.get("id"), None)
    return data


def term_query(field: str, value: str) -> str:
    """A Lucene query matching ``value`` in ``field`` exactly, as a quoted phrase.

    Inside a phrase only ``\\`` and ``"`` are special (Solr Reference Guide, "The Standard
    Query Parser": escaping special characters): ``term_query("host", 'a"b')`` is
    ``host:"a\\"b"``.
    """
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'{field}:"{escaped}"'


def host_ids(cfg: SolrSettings, host: str, page: int = 1000) -> list[str]:
    """Every document id whose ``host`` field is ``host``, paged with cursorMark
    (Solr Reference Guide, "Pagination of Results").

    Raises:
        SolrUnavailableError: Solr does not answer.
        SolrError: Solr answers with an error.
    """
    return [str(doc["id"]) for doc in host_documents(cfg, host, ("id",), page)]


def ids_matching(cfg: SolrSettings, query: str, page: int = 1000) -> list[str]:
    """Every document id matching ``query`` (Lucene syntax); errors as :func:`host_ids`."""
    return [str(doc["id"]) for doc in documents_matching(cfg, query, ("id",), page)]


def host_documents(
    cfg: SolrSettings, host: str, fields: tuple[str, ...], page: int = 1000
) -> Iterator[dict[str, Any]]:
    """The stored ``fields`` of every document whose ``host`` field is ``host``, by id.

    Raises:
        SolrUnavailableError, SolrError: as :func:`host_ids`.
    """
    return documents_matching(cfg, term_query("host", host), fields, page)


def documents_matching(
    cfg: SolrSettings, query: str, fields: tuple[str, ...], page: int = 1000
) -> Iterator[dict[str, Any]]:
    """The stored ``fields`` of every document matching ``query``, by id, paged with
    cursorMark (Solr Reference Guide, "Pagination of Results").

    Raises:
        SolrUnavailableError, SolrError: as :func:`host_ids`.
    """
    cursor = "*"
    while True:
        params: dict[str, str | int] = {
            "q": query,
            "fl": ",".join(fields),
            "rows": page,
            "sort": "id asc",
            "cursorMark": cursor,
        }
        data = _request(cfg, "select", params)
        yield from data["response"]["docs"]
        if data.get("nextCursorMark", cursor) == cursor:
            return
        cursor = data["nextCursorMark"]


def count(cfg: SolrSettings, query: str) -> int:
    """Number of documents matching ``query`` (Lucene syntax).

    Raises:
        SolrUnavailableError, SolrError: as :func:`search`.
    """
    data = _request(cfg, "select", {"q": query, "rows": 0})
    return int(data["response"]["numFound"])


def check_target(cfg: SolrSettings) -> None:
    """Make sure the core or collection answers a query before a crawl starts.

    Raises:
        SolrUnavailableError: no node answers (message names the URL).
        SolrAuthError: the credentials are refused.
        SolrRejectedError: the core or collection does not exist there.
    """
    _request(cfg, "select", {"q": "*:*", "rows": 0})


def _request(cfg: SolrSettings, handler: str, params: dict[str, str | int]) -> dict[str, Any]:
    """Call ``{node}/{target}/{handler}`` on the first node that answers (``solr.urls``);
    pysolr posts the parameters as a form when they are long."""
    failure: SolrUnavailableError | None = None
    for node in cfg.node_urls:
        conn = SolrConnection.from_settings(cfg, node)
        try:
            return conn.get(f"/{cfg.target}/{handler}", params)
        except SolrUnavailableError as exc:
            failure = exc
        finally:
            conn.close()
    assert failure is not None
    raise failure
