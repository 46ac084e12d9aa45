"""SolrCloud administration over HTTP: configsets, collections and their shards and replicas.

Solr Ref Guide: "Configsets API" (UPLOAD takes a zip whose root holds ``solrconfig.xml``;
``overwrite=true&cleanup=true`` replaces a configset), "Collection Management Commands"
(CREATE with ``collection.configName`` and ``waitForFinalState``, RELOAD, LIST) and "Cluster
and Node Management Commands" (CLUSTERSTATUS). Any live node answers for the whole cluster.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

from indexer.errors import SolrError
from indexer.solr.admin import CONFIGSET_SKIP, InitResult, is_cloud, solr_version, system_info
from indexer.solr.connection import SolrConnection, solr_message

ZIP_TYPE = "application/octet-stream"


def configset_zip(directory: Path) -> bytes:
    """The files under ``directory`` as a zip with ``solrconfig.xml`` at its root.

    Hidden files and README.md are left out. Folders get their own entries: an upload with
    ``cleanup=true`` deletes every node not named in the zip, a folder's node included.

    Raises:
        SolrError: ``directory`` holds no ``solrconfig.xml``.
    """
    if not (directory / "solrconfig.xml").is_file():
        raise SolrError(f"no solrconfig.xml in {directory}")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(directory.rglob("*")):
            rel = path.relative_to(directory)
            if not _skipped(rel):
                archive.write(path, rel.as_posix())  # a folder is stored as "name/"
    return buf.getvalue()


def _skipped(rel: Path) -> bool:
    return rel.name in CONFIGSET_SKIP or any(part.startswith(".") for part in rel.parts)


def configset_names(conn: SolrConnection) -> list[str]:
    """Names of the configsets stored in ZooKeeper (Configsets API LIST)."""
    return [str(n) for n in conn.get("/admin/configs", {"action": "LIST"}).get("configSets", [])]


def upload_configset(
    conn: SolrConnection, name: str, directory: Path, *, overwrite: bool = False
) -> None:
    """Upload ``directory`` as configset ``name``; ``overwrite`` replaces it, stale files too.

    Raises:
        SolrError: Solr refused the upload (its message, e.g. the configset exists).
    """
    params = {"action": "UPLOAD", "name": name}
    if overwrite:
        params |= {"overwrite": "true", "cleanup": "true"}
    conn.upload("/admin/configs", params, configset_zip(directory), ZIP_TYPE)


def collection_names(conn: SolrConnection) -> list[str]:
    """Names of the collections of the cluster (Collections API LIST)."""
    data = conn.get("/admin/collections", {"action": "LIST"})
    return [str(n) for n in data.get("collections", [])]


def create_collection(
    conn: SolrConnection, name: str, shards: int, replicas: int, configset: str
) -> None:
    """Create collection ``name`` and wait until all its replicas are active.

    Raises:
        SolrError: Solr refused or failed the CREATE (its message).
    """
    params = {
        "action": "CREATE",
        "name": name,
        "numShards": str(shards),
        "replicationFactor": str(replicas),
        "collection.configName": configset,
        "waitForFinalState": "true",
    }
    data = conn.get("/admin/collections", params)
    if data.get("failure") or data.get("error"):
        raise SolrError(f"creating collection {name!r} failed: {solr_message(data)}")


def reload_collection(conn: SolrConnection, name: str) -> None:
    """Reload every replica of ``name`` (Collections API RELOAD).

    Raises:
        SolrError: a replica failed to reload (its message; it keeps its old config).
    """
    data = conn.get("/admin/collections", {"action": "RELOAD", "name": name})
    if data.get("failure") or data.get("error"):
        raise SolrError(f"reloading collection {name!r} failed: {solr_message(data)}")


def collection_state(conn: SolrConnection, name: str) -> dict[str, Any]:
    """The CLUSTERSTATUS entry of ``name`` plus ``live_nodes``.

    Raises:
        SolrError: no such collection.
    """
    data = conn.get("/admin/collections", {"action": "CLUSTERSTATUS", "collection": name})
    cluster = data.get("cluster", {})
    state = cluster.get("collections", {}).get(name)
    if not isinstance(state, dict):
        raise SolrError(f"collection {name!r} does not exist on {conn.base_url}")
    return {**state, "live_nodes": list(cluster.get("live_nodes", []))}


def collection_status(conn: SolrConnection, name: str) -> dict[str, Any]:
    """What ``indexer solr status --collection`` prints.

    Returns:
        ``{"url", "collection", "configset", "numDocs", "solr_version", "live_nodes",
        "shards": {shard: {"state", "replicas": [{"name", "node", "state", "leader"}]}}}``;
        a replica's state is ``down`` when its node is not live, whatever ZooKeeper says
        (CLUSTERSTATUS reports the last published state).
    """
    state = collection_state(conn, name)
    live = set(state["live_nodes"])
    found = conn.get(f"/{name}/select", {"q": "*:*", "rows": "0"})
    return {
        "url": conn.base_url,
        "collection": name,
        "configset": state.get("configName"),
        "numDocs": int(found.get("response", {}).get("numFound", 0)),
        "solr_version": solr_version(system_info(conn)),
        "live_nodes": sorted(live),
        "shards": {
            shard: _shard_summary(info, live) for shard, info in state.get("shards", {}).items()
        },
    }


def _shard_summary(info: dict[str, Any], live: set[str]) -> dict[str, Any]:
    replicas = []
    for replica_name, replica in sorted(info.get("replicas", {}).items()):
        node = replica.get("node_name")
        replicas.append(
            {
                "name": replica_name,
                "node": node,
                "state": replica.get("state") if node in live else "down",
                "leader": replica.get("leader") == "true",
            }
        )
    return {"state": info.get("state"), "replicas": replicas}


def init_collection(
    conn: SolrConnection,
    name: str,
    configset_dir: Path,
    *,
    shards: int = 1,
    replicas: int = 1,
    configset: str | None = None,
) -> InitResult:
    """Create collection ``name`` with our configset unless it exists.

    Uploads ``configset_dir`` as configset ``configset`` (default: the collection name)
    when ZooKeeper has no configset of that name; an existing one is used as it is (push
    changes with :func:`update_collection_config`).

    Raises:
        SolrError: the node runs standalone, or Solr refused the upload or the CREATE.
    """
    if not is_cloud(conn):
        raise SolrError(f"{conn.base_url} runs standalone: create a core (--core)")
    if name in collection_names(conn):
        return InitResult(False, f"collection {name!r} already exists; left alone")
    configset = configset or name
    note = f"configset {configset!r} already in ZooKeeper, used as is"
    if configset not in configset_names(conn):
        upload_configset(conn, configset, configset_dir)
        note = f"uploaded {configset_dir} as configset {configset!r}"
    create_collection(conn, name, shards, replicas, configset)
    return InitResult(
        True, f"{note}; created collection {name!r} ({shards} shards x {replicas} replicas)"
    )


def update_collection_config(conn: SolrConnection, name: str, configset_dir: Path) -> str:
    """Re-upload the configset collection ``name`` uses (overwrite) and RELOAD the collection.

    Returns:
        One line for the user.

    Raises:
        SolrError: no such collection, or Solr refused the upload or the reload.
    """
    configset = collection_state(conn, name).get("configName")
    if not configset:
        raise SolrError(f"collection {name!r} names no configset")
    upload_configset(conn, str(configset), configset_dir, overwrite=True)
    reload_collection(conn, name)
    return f"uploaded {configset_dir} as configset {configset!r}; reloaded collection {name!r}"
