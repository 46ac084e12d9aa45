"""Standalone Solr administration over HTTP: status, create and reload cores, push a configset.

Solr Ref Guide: "CoreAdmin API" (STATUS, CREATE with ``configSet``, RELOAD), "System
Information" (``mode``, ``solr_home``), "Config Sets" (standalone configsets live in
``<solr_home>/configsets/<name>/conf``). SolrCloud lives in :mod:`indexer.solr.cloud`.
Errors come from :class:`indexer.solr.connection.SolrConnection`.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexer.errors import SolrError, SolrUnavailableError
from indexer.solr.connection import SolrConnection

log = logging.getLogger(__name__)

CONFIGSET_SKIP = ("README.md",)


@dataclass(frozen=True)
class InitResult:
    """What ``indexer solr init`` did.

    Attributes:
        created: True when the core or collection was created, False when it already existed.
        message: one line for the user.
    """

    created: bool
    message: str


def system_info(conn: SolrConnection) -> dict[str, Any]:
    """``/admin/info/system`` of the node: ``mode`` ("std" or "solrcloud"), ``solr_home``..."""
    return conn.get("/admin/info/system")


def is_cloud(conn: SolrConnection) -> bool:
    """True when the node runs in SolrCloud mode."""
    return system_info(conn).get("mode") == "solrcloud"


def solr_version(info: dict[str, Any]) -> str:
    """The Solr version (``lucene.solr-spec-version``) from :func:`system_info`'s answer."""
    return str(info.get("lucene", {}).get("solr-spec-version", ""))


def solr_status(
    base_url: str, core: str, timeout: float = 5, *, auth: tuple[str, str] | None = None
) -> dict[str, Any]:
    """Status of ``core`` on the Solr at ``base_url`` (``http://HOST:PORT/solr``).

    Returns:
        ``{"url": base_url, "core": core, "numDocs": int, "solr_version": str}``; numDocs
        counts the documents visible to the current searcher (Cores API STATUS).

    Raises:
        SolrUnavailableError: Solr does not answer, answers 5xx or non-JSON, or does not
            have ``core`` loaded.
        SolrAuthError: Solr refused the credentials.
    """
    conn = SolrConnection(base_url.rstrip("/"), auth, timeout)
    index = (core_status(conn, core) or {}).get("index")
    if not isinstance(index, dict):
        failure = _init_failures(conn).get(core, "core not found")
        raise SolrUnavailableError(f"{conn.base_url}: core {core!r} is not loaded: {failure}")
    return {
        "url": conn.base_url,
        "core": core,
        "numDocs": int(index.get("numDocs", 0)),
        "solr_version": solr_version(system_info(conn)),
    }


def core_status(conn: SolrConnection, core: str) -> dict[str, Any] | None:
    """The Cores API STATUS entry of ``core`` (``instanceDir``, ``index``...), None if absent."""
    data = conn.get("/admin/cores", {"action": "STATUS", "core": core})
    entry = data.get("status", {}).get(core)
    return entry if isinstance(entry, dict) and entry else None


def _init_failures(conn: SolrConnection) -> dict[str, str]:
    data = conn.get("/admin/cores", {"action": "STATUS"})
    return {k: str(v) for k, v in data.get("initFailures", {}).items()}


def init_core(conn: SolrConnection, core: str, configset: str) -> InitResult:
    """Create ``core`` from the server's configset ``configset`` unless it exists.

    The configset must already sit in ``<solr_home>/configsets/<configset>/conf`` on the
    server (the local launcher and docker-compose install ours as ``pages``).

    Raises:
        SolrError: the node runs SolrCloud (use a collection), or Solr refused the CREATE
            (its message, e.g. a missing configset).
    """
    if is_cloud(conn):
        raise SolrError(f"{conn.base_url} runs SolrCloud: create a collection (--collection)")
    if core_status(conn, core) is not None:
        return InitResult(False, f"core {core!r} already exists on {conn.base_url}; left alone")
    conn.get("/admin/cores", {"action": "CREATE", "name": core, "configSet": configset})
    return InitResult(True, f"created core {core!r} from configset {configset!r}")


def reload_core(conn: SolrConnection, core: str) -> None:
    """Reload ``core`` so it reads its configset again (Cores API RELOAD)."""
    conn.get("/admin/cores", {"action": "RELOAD", "core": core})


def local_config_dir(conn: SolrConnection, core: str) -> Path:
    """Where the live ``core`` reads its configuration, when that path is on this machine.

    ``configSet=NAME`` in the core's ``core.properties`` means
    ``<solr_home>/configsets/NAME/conf``; otherwise ``<instanceDir>/conf``.

    Raises:
        SolrError: the core does not exist, or its files are not reachable from here (a
            remote server: copy the configset there and use ``--reload-only``).
    """
    status = core_status(conn, core)
    if status is None:
        raise SolrError(f"core {core!r} does not exist on {conn.base_url}")
    instance = Path(str(status.get("instanceDir", "")))
    props = instance / "core.properties"
    if not props.is_file():
        raise SolrError(
            f"the files of core {core!r} ({instance}) are not on this machine: copy the "
            "configset into the core's configset folder on the Solr server, then run "
            "update-config --reload-only"
        )
    configset = _read_properties(props).get("configSet")
    if not configset:
        return instance / "conf"
    home = Path(str(system_info(conn).get("solr_home", instance.parent)))
    return home / "configsets" / configset / "conf"


def _read_properties(path: Path) -> dict[str, str]:
    """``key=value`` lines of a Java properties file (comments and blanks skipped)."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")) and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def update_core_config(
    conn: SolrConnection, core: str, configset_dir: Path, *, reload_only: bool = False
) -> str:
    """Copy ``configset_dir`` over the live core's configuration, then RELOAD the core.

    Every other core sharing that configset picks the change up on its next reload or
    restart. The local launcher copies ``solr-config/`` in again on its next start.

    Returns:
        One line for the user saying what was copied where and what was reloaded.

    Raises:
        SolrError: as :func:`local_config_dir`, or the RELOAD failed (Solr's message, e.g.
            a malformed analyzer file; the previous configuration then stays live).
    """
    if not reload_only:
        if not (configset_dir / "solrconfig.xml").is_file():
            raise SolrError(f"no solrconfig.xml in {configset_dir}")
        target = local_config_dir(conn, core)
        copy_configset(configset_dir, target)
    reload_core(conn, core)
    if reload_only:
        return f"reloaded core {core!r}"
    return f"copied {configset_dir} to {target}; reloaded core {core!r}"


def copy_configset(source: Path, target: Path) -> None:
    """Copy the files of ``source`` over ``target`` (README.md left out; nothing deleted)."""
    skip = shutil.ignore_patterns(*CONFIGSET_SKIP)
    shutil.copytree(source, target, ignore=skip, dirs_exist_ok=True)
    log.info("copied configset %s to %s", source, target)
