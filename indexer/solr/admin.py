"""Solr admin calls over HTTP: core status and Solr version (Solr Ref Guide, "CoreAdmin API",
"System Information"). requests errors are translated into ``SolrUnavailableError`` here."""

from __future__ import annotations

from typing import Any

import requests

from indexer.errors import SolrUnavailableError


def solr_status(base_url: str, core: str, timeout: float = 5) -> dict[str, Any]:
    """Status of ``core`` on the Solr at ``base_url`` (``http://HOST:PORT/solr``).

    Returns:
        ``{"url": base_url, "core": core, "numDocs": int, "solr_version": str}``; numDocs
        counts the documents visible to the current searcher (Cores API STATUS).

    Raises:
        SolrUnavailableError: Solr does not answer, answers non-2xx or non-JSON, or does not
            have ``core`` loaded.
    """
    base_url = base_url.rstrip("/")
    cores = _get_json(f"{base_url}/admin/cores", {"action": "STATUS", "core": core}, timeout)
    index = cores.get("status", {}).get(core, {}).get("index")
    if not isinstance(index, dict):
        failure = cores.get("initFailures", {}).get(core, "core not found")
        raise SolrUnavailableError(f"{base_url}: core {core!r} is not loaded: {failure}")
    system = _get_json(f"{base_url}/admin/info/system", {}, timeout)
    return {
        "url": base_url,
        "core": core,
        "numDocs": int(index.get("numDocs", 0)),
        "solr_version": str(system.get("lucene", {}).get("solr-spec-version", "")),
    }


def _get_json(url: str, params: dict[str, str], timeout: float) -> dict[str, Any]:
    try:
        resp = requests.get(url, params={**params, "wt": "json"}, timeout=timeout)
        resp.raise_for_status()
        data = resp.json()
    except requests.RequestException as exc:
        raise SolrUnavailableError(f"{url}: {exc}") from exc
    except ValueError as exc:
        raise SolrUnavailableError(f"{url}: answer is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SolrUnavailableError(f"{url}: unexpected answer {data!r:.200}")
    return data
