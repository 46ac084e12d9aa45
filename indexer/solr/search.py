"""Queries: the configset's ``/search`` handler (edismax, unified highlighter) and id listing."""

from __future__ import annotations

from typing import Any

import requests

from indexer.errors import SolrError, SolrUnavailableError
from indexer.settings import SolrSettings


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


def host_ids(cfg: SolrSettings, host: str, page: int = 1000) -> list[str]:
    """Every document id whose ``host`` field is ``host``, paged with cursorMark
    (Solr Reference Guide, "Pagination of Results").

    Raises:
        SolrUnavailableError: Solr does not answer.
        SolrError: Solr answers with an error.
    """
    ids: list[str] = []
    cursor = "*"
    while True:
        params: dict[str, str | int] = {
            "q": f'host:"{host}"',
            "fl": "id",
            "rows": page,
            "sort": "id asc",
            "cursorMark": cursor,
        }
        data = _request(cfg, "select", params)
        ids.extend(doc["id"] for doc in data["response"]["docs"])
        if data.get("nextCursorMark", cursor) == cursor:
            return ids
        cursor = data["nextCursorMark"]


def _request(cfg: SolrSettings, handler: str, params: dict[str, str | int]) -> dict[str, Any]:
    auth = None
    if cfg.user:
        auth = (cfg.user, cfg.password.get_secret_value() if cfg.password else "")
    url = f"{cfg.url.rstrip('/')}/{cfg.target}/{handler}"
    try:
        resp = requests.get(url, params={**params, "wt": "json"}, timeout=cfg.timeout, auth=auth)
    except requests.RequestException as exc:
        reason = f"Solr at {cfg.url} does not answer: {type(exc).__name__}"
        raise SolrUnavailableError(reason) from None
    if resp.status_code != 200:
        raise SolrError(f"Solr answered HTTP {resp.status_code}: {resp.text[:300]}")
    result: dict[str, Any] = resp.json()
    return result
