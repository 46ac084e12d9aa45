"""Queries: the configset's ``/search`` handler (edismax, unified highlighter) and id listing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from indexer.errors import SolrUnavailableError
from indexer.settings import SolrSettings
from indexer.solr.connection import SolrConnection


def search(cfg: SolrSettings, query: str, rows: int = 10) -> dict[str, Any]:
    """Run ``query`` against ``/search``.

    Returns:
        ``{"numFound": int, "hits": [{"id", "url", "title", "score", "snippets": [str]}]}``;
        snippets mark hits as ``【…】``.

    Raises:
        SolrUnavailableError: Solr does not answer.
        SolrError: Solr answers with an error (its message included).
    """
    params: dict[str, str | int] = {
        "q": query,
        "rows": rows,
        "fl": "id,url,title,score",
        "hl.tag.pre": "【",
        "hl.tag.post": "】",
    }
    data = _request(cfg, "search", params)
    highlighting = data.get("highlighting", {})
    hits = []
    for doc in data["response"]["docs"]:
        snippets = highlighting.get(doc["id"], {}).get("content", [])
        title = doc.get("title")
        hits.append(
            {
                "id": doc["id"],
                "url": doc.get("url", doc["id"]),
                "title": title[0] if isinstance(title, list) else title,
                "score": doc.get("score"),
                "snippets": [s.replace("\n", " ") for s in snippets],
            }
        )
    return {"numFound": data["response"]["numFound"], "hits": hits}


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


def host_documents(
    cfg: SolrSettings, host: str, fields: tuple[str, ...], page: int = 1000
) -> Iterator[dict[str, Any]]:
    """The stored ``fields`` of every document whose ``host`` field is ``host``, by id,
    paged with cursorMark (Solr Reference Guide, "Pagination of Results").

    Raises:
        SolrUnavailableError, SolrError: as :func:`host_ids`.
    """
    cursor = "*"
    while True:
        params: dict[str, str | int] = {
            "q": term_query("host", host),
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
    """GET ``{node}/{target}/{handler}`` on the first node that answers (``solr.urls``)."""
    failure: SolrUnavailableError | None = None
    for node in cfg.node_urls:
        conn = SolrConnection.from_settings(cfg, node)
        try:
            return conn.get(f"/{cfg.target}/{handler}", {k: str(v) for k, v in params.items()})
        except SolrUnavailableError as exc:
            failure = exc
    assert failure is not None
    raise failure
