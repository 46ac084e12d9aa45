"""Bundles the project's non-Python parts into the package when a wheel is built.

``pip install .`` (not editable) installs only ``indexer/``; the configset (``solr-config/``)
and our two Maven projects (``solr-launcher/``, ``tika-service/``) sit beside it in the
checkout. This copies them, without their build outputs, to ``indexer/bundled/`` in the
wheel, where :func:`indexer.settings_fields.project_dir` finds them. Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The checkout's directories the package needs at run time (kept in step with
#: ``indexer.settings_fields.BUNDLED``; tests/test_release.py checks both, and the Dockerfile).
BUNDLED = ("solr-config", "solr-launcher", "tika-service")


class BuildWithBundled(build_py):
    """``build_py`` that also copies :data:`BUNDLED` into ``indexer/bundled/``."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        for name in BUNDLED:
            target = Path(self.build_lib) / "indexer" / "bundled" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(here / name, target, ignore=shutil.ignore_patterns("target"))


setup(cmdclass={"build_py": BuildWithBundled})
