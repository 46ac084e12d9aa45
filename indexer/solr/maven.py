"""Build the Java launcher of the local Solr (``solr.launcher_dir``) with Maven.

The launcher (``SolrLauncher``, JettySolrRunner from solr-test-framework 9.10.1) is built
with ``mvn package`` when its sources are newer than its outputs; its runtime classpath
comes from ``dependency:build-classpath``. Maven Central serves the dependencies.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from indexer.errors import SolrLaunchError
from indexer.settings import SolrSettings

log = logging.getLogger(__name__)

LOG_TAIL_LINES = 40  #: lines of a failed build's (or JVM's) output quoted in the error


def build_launcher(launcher_dir: Path | None = None) -> list[Path]:
    """Build the Java launcher when stale and return its classpath (jar first).

    Runs ``mvn -B -q package dependency:build-classpath`` in ``launcher_dir`` when
    ``pom.xml`` or anything under ``src/`` is newer than ``target/solr-launcher-1.0.jar`` or
    ``target/classpath.txt``. Concurrent callers serialize on a lock file in ``target/``.

    Args:
        launcher_dir: the Maven project; default ``solr.launcher_dir``'s default.

    Raises:
        SolrLaunchError: Maven is missing or the build failed (with the tail of its output).
    """
    launcher_dir = launcher_dir or SolrSettings().launcher_dir
    return build_project(launcher_dir, "solr-launcher-1.0.jar", "the Solr launcher")


def build_project(
    project: Path,
    jar: str,
    what: str,
    error: Callable[[str], Exception] = SolrLaunchError,
) -> list[Path]:
    """Build the Maven project ``project`` when stale; its classpath, ``target/jar`` first.

    The rule of :func:`build_launcher`, for any of our Java programs (``what`` names it in
    errors; ``error`` makes the exception raised when Maven is missing or fails).
    """
    target = project / "target"
    target.mkdir(parents=True, exist_ok=True)
    outputs = [target / jar, target / "classpath.txt"]
    with (target / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _is_stale(project, outputs):
            _run_maven(project, what, error)
            for out in outputs:
                out.touch()
    deps = outputs[1].read_text(encoding="utf-8").strip().split(os.pathsep)
    return [outputs[0], *(Path(p) for p in deps if p)]


def _is_stale(launcher_dir: Path, outputs: list[Path]) -> bool:
    if not all(out.exists() for out in outputs):
        return True
    inputs = [launcher_dir / "pom.xml", *(p for p in (launcher_dir / "src").rglob("*"))]
    newest_input = max(p.stat().st_mtime for p in inputs if p.is_file())
    return newest_input > min(out.stat().st_mtime for out in outputs)


def _run_maven(launcher_dir: Path, what: str, error: Callable[[str], Exception]) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise error(f"cannot build {what}: mvn is not on PATH")
    cmd = [
        mvn,
        "-B",
        "-q",
        "package",
        "dependency:build-classpath",
        "-Dmdep.outputFile=target/classpath.txt",
    ]
    log.info("building %s in %s", what, launcher_dir)
    done = subprocess.run(cmd, cwd=launcher_dir, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-LOG_TAIL_LINES:])
        raise error(f"building {what} failed (mvn exit {done.returncode}):\n{tail}")
