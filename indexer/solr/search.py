"""Queries the configset's ``/search`` handler (edismax, unified highlighter)."""

from __future__ import annotations

import re
from typing import Any

import requests

from indexer.errors import SolrError, SolrUnavailableError
from indexer.settings import SolrSettings

_EM = re.compile(r"</?em>")


def search(cfg: SolrSettings, query: str, rows: int = 10) -> dict[str, Any]:
    """Run ``query`` against ``/search``.

    Returns:
        ``{"numFound": int, "hits": [{"id", "url", "title", "score", "snippets": [str]}]}``;
        snippets mark hits as ``【…】``.

    Raises:
        SolrUnavailableError: Solr does not answer.
        SolrError: Solr answers with an error (its message included).
    """
    auth = (cfg.user, cfg.password.get_secret_value() if cfg.password else "") if cfg.user else None
    url = f"{cfg.url.rstrip('/')}/{cfg.core}/search"
    params: dict[str, str | int] = {
        "q": query,
        "rows": rows,
        "wt": "json",
        "fl": "id,url,title,score",
        "hl.tag.pre": "【",
        "hl.tag.post": "】",
    }
    try:
        resp = requests.get(url, params=params, timeout=cfg.timeout, auth=auth)
    except requests.RequestException as exc:
        raise SolrUnavailableError(
            f"Solr at {cfg.url} does not answer: {type(exc).__name__}"
        ) from None
    if resp.status_code != 200:
        raise SolrError(f"Solr answered HTTP {resp.status_code}: {resp.text[:300]}")
    data = resp.json()
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
