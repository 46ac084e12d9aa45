"""Build the Java launcher of the local Solr (``solr.launcher_dir``) with Maven.

The launcher (``SolrLauncher``, JettySolrRunner from solr-test-framework 9.10.1) is built
with ``mvn package`` when its sources are newer than its outputs; its runtime classpath
comes from ``dependency:build-classpath``. Maven Central serves the dependencies.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from threading import Event

from indexer.errors import SolrLaunchError
from indexer.settings import SolrSettings

log = logging.getLogger(__name__)

LOG_TAIL_LINES = 40  #: lines of a failed build's (or JVM's) output quoted in the error
STOP_POLL = 0.2  #: seconds between looks at a build's stop event


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
    stop: Event | None = None,
) -> list[Path]:
    """Build the Maven project ``project`` when stale; its classpath, ``target/jar`` first.

    The rule of :func:`build_launcher`, for any of our Java programs (``what`` names it in
    errors; ``error`` makes the exception raised when Maven is missing, fails or is stopped
    by ``stop``). Built where :func:`build_home` says.
    """
    project = build_home(project)
    target = project / "target"
    target.mkdir(parents=True, exist_ok=True)
    outputs = [target / jar, target / "classpath.txt"]
    with (target / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _is_stale(project, outputs):
            if not (project / "pom.xml").is_file():
                raise error(f"{what} is not built and cannot be: {project}/pom.xml is missing")
            _run_maven(project, what, error, stop)
            for out in outputs:
                out.touch()
    deps = outputs[1].read_text(encoding="utf-8").strip().split(os.pathsep)
    return [outputs[0], *(Path(p) for p in deps if p)]


def build_home(project: Path) -> Path:
    """Where ``project`` is built: itself when writable (a checkout, a venv's package), else
    a copy of its ``pom.xml`` and ``src/`` under ``$XDG_CACHE_HOME/indexer/`` (default
    ``~/.cache``; a package installed by root and run by another user), refreshed when the
    sources change. A missing ``project`` is returned as it is (the build names it)."""
    if not project.is_dir() or os.access(project, os.W_OK):
        return project
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    home = cache / "indexer" / project.resolve().name
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy2(project / "pom.xml", home / "pom.xml")
    shutil.copytree(project / "src", home / "src", dirs_exist_ok=True)
    return home


def _is_stale(launcher_dir: Path, outputs: list[Path]) -> bool:
    """Whether the outputs are missing or older than ``pom.xml`` or a file under ``src/``;
    built outputs without sources (an image that copied ``target/`` only) are current."""
    if not all(out.exists() for out in outputs):
        return True
    inputs = [launcher_dir / "pom.xml", *(p for p in (launcher_dir / "src").rglob("*"))]
    times = [p.stat().st_mtime for p in inputs if p.is_file()]
    return bool(times) and max(times) > min(out.stat().st_mtime for out in outputs)


def _run_maven(
    launcher_dir: Path, what: str, error: Callable[[str], Exception], stop: Event | None
) -> None:
    """``mvn package dependency:build-classpath`` in ``launcher_dir``, logged with its time.

    Maven runs in a session of its own, so a Ctrl-C meant for a crawl does not cut a build
    in half; once ``stop`` is set it is killed by its pid (its process group) within
    :data:`STOP_POLL` seconds and ``error`` is raised.
    """
    mvn = shutil.which("mvn")
    if mvn is None:
        raise error(f"cannot build {what}: mvn is not on PATH (it needs Java 17 and Maven)")
    cmd = [mvn, "-B", "-q", "package", "dependency:build-classpath"]
    cmd.append("-Dmdep.outputFile=target/classpath.txt")
    log.info(
        "building %s with Maven in %s (the first build downloads its jars)", what, launcher_dir
    )
    started = time.monotonic()
    with tempfile.TemporaryFile() as out:
        build = subprocess.Popen(
            cmd, cwd=launcher_dir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        code = _wait(build, stop)
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").splitlines()
    if code is None:
        raise error(f"building {what} was stopped")
    if code != 0:
        tail = "\n".join(lines[-LOG_TAIL_LINES:])
        raise error(f"building {what} failed (mvn exit {code}): {_cause(lines)}\n{tail}")
    log.info("built %s in %.0f s", what, time.monotonic() - started)


def _cause(lines: list[str]) -> str:
    """The first line of Maven's output that says what went wrong: its first non-empty
    ``[ERROR]`` line without the prefix (``Failed to execute goal …``, ``Could not resolve
    dependencies …``), else its last non-empty line; ``no output`` when it printed nothing."""
    errors = [ln.removeprefix("[ERROR]").strip() for ln in lines if ln.startswith("[ERROR]")]
    said = [ln for ln in errors if ln] or [ln.strip() for ln in lines if ln.strip()][-1:]
    return said[0] if said else "no output"


def _wait(build: subprocess.Popen[bytes], stop: Event | None) -> int | None:
    """The build's exit code; None when ``stop`` was set first. A stopped or interrupted
    (Ctrl-C) wait kills the build by its pid before it returns or raises."""
    try:
        while True:
            try:
                return build.wait(STOP_POLL)
            except subprocess.TimeoutExpired:
                if stop is not None and stop.is_set():
                    return None
    finally:
        if build.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(build.pid, signal.SIGKILL)
            build.wait()
