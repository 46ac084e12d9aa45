"""docker-compose.yml and Dockerfile agree with the local launcher and the configset."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from tests.conftest import CONFIGSET_DIR, LAUNCHER_DIR, REPO_ROOT


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    return data


def launcher_solr_version() -> str:
    pom = (LAUNCHER_DIR / "pom.xml").read_text(encoding="utf-8")
    match = re.search(r"<solr\.version>([^<]+)</solr\.version>", pom)
    assert match is not None, "solr.version missing from solr-launcher/pom.xml"
    return match.group(1)


def configset_mount(service: dict[str, Any]) -> tuple[Path, PurePosixPath]:
    """The (host dir, container dir) of the volume that holds our solrconfig.xml."""
    for volume in service["volumes"]:
        host, container, *_ = volume.split(":")
        host_path = (REPO_ROOT / host).resolve()
        if (host_path / "solrconfig.xml").is_file():
            return host_path, PurePosixPath(container)
    raise AssertionError("no volume mounts a configset")


def test_solr_image_matches_launcher_version() -> None:
    image = compose()["services"]["solr"]["image"]
    name, _, tag = image.partition(":")
    assert name == "solr"
    assert tag == launcher_solr_version()


def test_configset_is_mounted_and_precreated_as_pages() -> None:
    solr = compose()["services"]["solr"]
    host, container = configset_mount(solr)
    assert host == CONFIGSET_DIR.resolve()
    assert (host / "schema.xml").is_file()
    # solr-precreate copies the given configset dir, which must hold conf/.
    assert container.name == "conf"
    assert solr["command"] == ["solr-precreate", "pages", str(container.parent)]


def test_icu_module_enabled_when_schema_uses_icu() -> None:
    schema = (CONFIGSET_DIR / "schema.xml").read_text(encoding="utf-8")
    modules = compose()["services"]["solr"]["environment"].get("SOLR_MODULES", "")
    uses_icu = re.search(r'name="icu\w*"', schema) is not None
    assert uses_icu == ("analysis-extras" in modules.split(","))


def test_indexer_service_builds_python_image() -> None:
    indexer = compose()["services"]["indexer"]
    context = REPO_ROOT / (indexer["build"] if isinstance(indexer["build"], str) else ".")
    dockerfile = (context / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.MULTILINE)
    assert re.search(r"^RUN pip install \.$", dockerfile, re.MULTILINE)
    assert indexer["environment"]["INDEXER_SOLR_URL"].startswith("http://solr:8983/")
