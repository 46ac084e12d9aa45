"""A release as a user installs it (issue #29): the Dockerfile's install step run in a clean
venv (no dev extras, no checkout on the path), from the files the Dockerfile copies; its CLI,
every module imported, no undeclared import; and a crawl from that install of DOC, XLS, PPT
and RTF with no Tika service built beforehand, into the real Solr."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from indexer import settings_fields
from tests.faultserver import FaultServer, Reply
from tests.tika_fixtures import EXPECTED, TIKA, site

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
UNDECLARED = ROOT.parent / "shared" / "tools" / "undeclared_imports.py"
#: What the package must carry at run time, relative to the installed ``indexer/``.
RUNTIME_FILES = (
    "web/templates/search.html",
    "web/static",
    "demo/sample_site",
    "bundled/solr-config/solrconfig.xml",
    "bundled/solr-launcher/pom.xml",
    "bundled/tika-service/pom.xml",
)
IMPORT_ALL = """
import importlib, json, pkgutil, indexer
failed = {}
for mod in pkgutil.walk_packages(indexer.__path__, "indexer."):
    if mod.name.endswith(".__main__"):  # runs the CLI
        continue
    try:
        importlib.import_module(mod.name)
    except Exception as exc:
        failed[mod.name] = f"{type(exc).__name__}: {exc}"
print(json.dumps({"file": indexer.__file__, "failed": failed,
                  "count": len(list(pkgutil.walk_packages(indexer.__path__, "indexer.")))}))
"""


@dataclass(frozen=True)
class Dockerfile:
    """The final stage of the Dockerfile: its build-context COPY sources and its RUN lines."""

    copied: tuple[str, ...]
    runs: tuple[str, ...]

    @classmethod
    def read(cls) -> Dockerfile:
        text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
        final = re.split(r"^FROM ", text, flags=re.MULTILINE)[-1]
        copied: list[str] = []
        runs: list[str] = []
        for line in final.splitlines():
            words = line.split()
            if words[:1] == ["COPY"] and not any(w.startswith("--from") for w in words):
                copied += [w.rstrip("/") for w in words[1:-1]]
            elif words[:1] == ["RUN"]:
                runs.append(" ".join(words[1:]))
        return cls(tuple(copied), tuple(runs))

    def install_command(self) -> list[str]:
        """The ``pip install`` of the image, as its words (``pip`` first)."""
        installs = [r for r in self.runs if r.startswith("pip install")]
        assert len(installs) == 1, self.runs
        return installs[0].split()


@dataclass(frozen=True)
class Venv:
    """A clean venv with the package installed from the Dockerfile's files."""

    bin: Path
    source: Path
    elsewhere: Path  # a working directory with no checkout in it

    def run(self, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
        clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            cwd=self.elsewhere,
            env={**clean, **env},
            capture_output=True,
            text=True,
            timeout=timeout,
        )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    root = tmp_path_factory.mktemp("release")
    source, elsewhere = root / "source", root / "elsewhere"
    elsewhere.mkdir()
    source.mkdir()
    skip = shutil.ignore_patterns("target", "__pycache__", "*.egg-info")
    for name in Dockerfile.read().copied:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=skip)
        else:
            shutil.copy2(path, source / name)
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(root / "v")], check=True, timeout=120)
    bin_dir = root / "v" / "bin"
    pip, *rest = Dockerfile.read().install_command()
    assert pip == "pip"
    install = subprocess.run(
        [str(bin_dir / "pip"), *rest, "--quiet", "--disable-pip-version-check"],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    print(f"clean venv and `pip install .`: {time.monotonic() - started:.0f} s")
    yield Venv(bin_dir, source, elsewhere)


def test_the_dockerfile_copies_what_the_package_is_built_from() -> None:
    docker = Dockerfile.read()
    needed = {"pyproject.toml", "README.md", "setup.py", "MANIFEST.in", "indexer"}
    needed |= set(settings_fields.BUNDLED)
    assert needed <= set(docker.copied), sorted(needed - set(docker.copied))
    assert docker.install_command() == ["pip", "install", "."]
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    match = re.search(r"^BUNDLED = \(([^)]*)\)", setup, re.MULTILINE)
    assert match is not None
    assert tuple(re.findall(r'"([^"]+)"', match.group(1))) == settings_fields.BUNDLED
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert "/app/tika-service/target/" in text, "the built Tika service is not copied"
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert "**/target" in ignored, "build outputs of the checkout would enter the image"


def test_a_clean_install_runs_its_cli_and_imports_every_module(venv: Venv) -> None:
    helped = venv.run("indexer", "--help")
    assert helped.returncode == 0, helped.stderr[-2000:]
    assert "crawl" in helped.stdout
    imported = venv.run("python", "-c", IMPORT_ALL)
    assert imported.returncode == 0, imported.stderr[-2000:]
    report = json.loads(imported.stdout)
    package = Path(report["file"]).parent
    assert package.is_relative_to(venv.bin.parent), f"imported {package}, not the venv's"
    assert report["failed"] == {} and report["count"] > 100, report
    for name in RUNTIME_FILES:
        assert (package / name).exists(), f"the installed package has no {name}"
    assert not (package / "bundled" / "tika-service" / "target").exists()


def test_no_import_of_the_package_is_undeclared(venv: Venv) -> None:
    if not UNDECLARED.is_file():
        pytest.skip(f"{UNDECLARED} is not on this machine")
    found = subprocess.run(
        [str(venv.bin / "python"), str(UNDECLARED)],
        cwd=venv.source,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.returncode == 0 and found.stdout == "", found.stdout + found.stderr


@pytest.mark.solr
@pytest.mark.slow
def test_a_clean_install_builds_tika_at_first_need_and_indexes_old_office_files(
    venv: Venv, solr_core: tuple[str, str], tmp_path: Path
) -> None:
    if shutil.which("java") is None or shutil.which("mvn") is None:
        pytest.skip("the Tika service needs java and mvn on PATH")
    base_url, core = solr_core
    documents = {p: b for p, b in site().items() if EXPECTED[p.rsplit("/", 1)[1]][0] in TIKA}
    with FaultServer() as srv:
        srv.page("/", "資料室", list(documents))
        for path, (body, media) in documents.items():
            srv.route(path, Reply(body=body, content_type=media))
        args = ["crawl", "--solr", base_url, "--core", core, "--delay", "0"]
        args += ["--data-dir", str(tmp_path / "data"), srv.url("/")]
        crawled = venv.run("indexer", *args, timeout=600)
    assert crawled.returncode == 0, crawled.stderr[-3000:]
    built = re.search(r"built the Tika service in \d+ s", crawled.stderr)
    assert built, f"no build line with its time: {crawled.stderr[-2000:]}"
    stored = requests.get(
        f"{base_url}/{core}/select",
        params={"q": "format:*", "rows": 100, "fl": "url,format,content"},
        timeout=30,
    ).json()["response"]["docs"]
    by_path = {d["url"].removeprefix(srv.base()): d for d in stored}
    for path in documents:
        fmt, _title, phrases = EXPECTED[path.rsplit("/", 1)[1]]
        doc = by_path.get(path)
        assert doc is not None and doc["format"] == fmt, (path, sorted(by_path))
        content = "".join(doc["content"]) if isinstance(doc["content"], list) else doc["content"]
        for phrase in phrases:
            assert phrase in content, (path, phrase, content[:300])
    again = venv.run("indexer", "tika", "build")
    assert again.returncode == 0, again.stderr[-2000:]
