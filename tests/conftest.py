"""Shared fixtures: a real local Solr (our launcher and configset) for tests marked ``solr``.

``solr_base_url`` (session): starts Solr on a free port with a temporary solr home, yields
``http://127.0.0.1:PORT/solr`` and stops the JVM by its pid at session end, also on failure.
``solr_core`` (function): empties core ``pages`` (delete ``*:*`` + commit), yields
``(base_url, "pages")``. ``free_port`` (function): an unused TCP port on 127.0.0.1.

The tests run in the source checkout: :data:`CONFIGSET_DIR` and :data:`LAUNCHER_DIR` are
its ``solr-config/`` and ``solr-launcher/``, and the settings ``solr.configset_dir`` /
``solr.launcher_dir`` point there for commands run as subprocesses from other folders.
"""

from __future__ import annotations

import os
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from indexer.solr.launcher import start_solr, stop_solr
from tests.pg_fixtures import (  # noqa: F401
    frontier_cli,
    frontier_kind,
    open_frontier,
    pg_cluster,
    pg_url,
)

SOLR_CORE = "pages"
REPO_ROOT = Path(__file__).resolve().parents[1]
CONFIGSET_DIR = REPO_ROOT / "solr-config"
LAUNCHER_DIR = REPO_ROOT / "solr-launcher"
os.environ.setdefault("INDEXER_SOLR_CONFIGSET_DIR", str(CONFIGSET_DIR))
os.environ.setdefault("INDEXER_SOLR_LAUNCHER_DIR", str(LAUNCHER_DIR))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released)."""
    return _free_port()


@pytest.fixture(scope="session")
def solr_base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a real Solr 9.10.1 with core ``pages`` from ``solr-config/``."""
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the local Solr needs java and mvn on PATH")
    home: Path = tmp_path_factory.mktemp("solr-home")
    port = _free_port()
    try:
        yield start_solr(
            port=port,
            solr_home=home,
            core=SOLR_CORE,
            configset_dir=CONFIGSET_DIR,
            launcher_dir=LAUNCHER_DIR,
        )
    finally:
        stop_solr(port, home)


@pytest.fixture
def solr_core(solr_base_url: str) -> Iterator[tuple[str, str]]:
    """``(base_url, "pages")`` with every document of the core deleted and committed."""
    resp = requests.post(
        f"{solr_base_url}/{SOLR_CORE}/update",
        params={"commit": "true"},
        json={"delete": {"query": "*:*"}},
        timeout=30,
    )
    resp.raise_for_status()
    yield solr_base_url, SOLR_CORE
