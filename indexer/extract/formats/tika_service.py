"""The Tika service's JVM: built by Maven, started as our child, stopped by its pid.

``tika-service/`` (``extract.tika_service_dir``) is a Maven project of ours: Apache Tika
3.3.1's standard parsers (``tika-parsers-standard-package``, junrar excluded: its licence
is not open source) behind a loopback HTTP endpoint (:mod:`.tika` is its client). HTTP was
chosen over stdin/stdout framing: several document workers can ask one JVM at once, a
service someone already runs can be named instead (``extract.tika_url``), and a hung parse
is cut by a client-side timeout without a framing protocol to resynchronise.

A :class:`TikaProcess` is one JVM (``-Xmx`` from ``extract.tika_heap``, exits on
OutOfMemoryError) in a session of its own, so a Ctrl-C or SIGTERM sent to the crawl's
process group does not kill it mid-document; it binds 127.0.0.1 on a free port, prints
that port, and exits by itself when its standard input (a pipe from us) closes, so a
crawl killed with SIGKILL leaves no JVM behind.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import select
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from indexer.errors import TikaServiceError
from indexer.settings_tika import TikaSettings
from indexer.solr.maven import LOG_TAIL_LINES, build_home, build_project

log = logging.getLogger(__name__)

JAR = "tika-service-1.0.jar"
MAIN_CLASS = "indexer.tika.TikaService"
#: Seconds a new JVM may take to load Tika's parsers and listen.
START_TIMEOUT = 60.0
#: HotSpot's exit code after ``-XX:+ExitOnOutOfMemoryError``.
OOM_EXIT_CODE = 3
_LISTENING = re.compile(rb"tika-service listening on (127\.0\.0\.1:\d+)")


def build_tika_service(
    service_dir: Path | None = None, stop: threading.Event | None = None
) -> list[Path]:
    """Build the service with Maven when stale (:func:`indexer.solr.maven.build_project`),
    logging a progress line and the build's time; ``indexer tika build`` and the first
    document that needs the service call it.

    Args:
        service_dir: the Maven project; default ``extract.tika_service_dir``'s default
            (the checkout's ``tika-service/``, else the installed package's copy).
        stop: once set, a build under way is killed by its pid and this raises.

    Returns:
        Its classpath, the service's jar first.

    Raises:
        TikaServiceError: ``missing``: Maven is not on PATH, or the build failed or was
            stopped (the message's first line says which; then the build's last lines).
    """
    service_dir = service_dir or TikaSettings().tika_service_dir
    return build_project(service_dir, JAR, "the Tika service", _missing, stop)


def _missing(message: str) -> TikaServiceError:
    return TikaServiceError("missing", message)


def service_classpath(service_dir: Path) -> list[Path]:
    """The built service's classpath (jar first), as Maven wrote it (where
    :func:`indexer.solr.maven.build_home` builds ``service_dir``).

    Raises:
        TikaServiceError: ``missing``, naming the file not built
            (``extract.tika_service_dir``).
    """
    target = build_home(service_dir) / "target"
    jar, listing = target / JAR, target / "classpath.txt"
    for path in (jar, listing):
        if not path.is_file():
            raise _missing(
                f"the Tika service is not built: {path} is missing "
                f"(extract.tika_service_dir={service_dir}; `indexer tika build` builds it)"
            )
    deps = listing.read_text(encoding="utf-8").strip().split(os.pathsep)
    return [jar, *(Path(p) for p in deps if p)]


def ready_classpath(service_dir: Path, stop: threading.Event | None = None) -> list[Path]:
    """The service's classpath, built first when it is not built or older than its sources
    (the first DOC/XLS/PPT/RTF of an install: a minute or two); a build already there is
    used as it is when Maven is not on PATH (an image that ships ``target/`` only).

    Raises:
        TikaServiceError: ``missing``, one line naming what to install or the build's
            failure (its output is logged at WARNING).
    """
    try:
        return build_tika_service(service_dir, stop)
    except TikaServiceError as exc:
        if shutil.which("mvn") is None:
            with contextlib.suppress(TikaServiceError):
                return service_classpath(service_dir)
        first, _, rest = str(exc).partition("\n")
        if rest:
            log.warning("%s", exc)
        raise _missing(f"{first} (extract.tika_service_dir={service_dir})") from None


def find_java(java: str) -> str:
    """The java executable that ``extract.tika_java`` names (a path, or a name on PATH).

    Raises:
        TikaServiceError: ``missing``, naming the setting and what was not found.
    """
    if os.sep in java:
        if os.access(java, os.X_OK) and Path(java).is_file():
            return java
        raise _missing(f"java not found: extract.tika_java={java} is not an executable file")
    found = shutil.which(java)
    if found is None:
        raise _missing(f"java not found: extract.tika_java={java} is not on PATH")
    return found


class TikaProcess:
    """One running service JVM.

    Args:
        java: the java executable (:func:`find_java`).
        classpath: the service's classpath (:func:`service_classpath`).
        heap: ``-Xmx`` value (``extract.tika_heap``, e.g. ``512m``).
        threads: requests parsed at once.
        stop: once set, a JVM still starting is given up at once (a crawl's 5 s stop).

    Raises:
        TikaServiceError: ``missing`` when the JVM exits or does not listen within
            :data:`START_TIMEOUT` seconds (with the tail of its output), or ``stop`` was set
            before it listened.
    """

    def __init__(
        self,
        java: str,
        classpath: list[Path],
        heap: str,
        threads: int,
        stop: threading.Event | None = None,
    ) -> None:
        self._stop = stop or threading.Event()
        self.heap = heap
        cmd = [java, f"-Xmx{heap}", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseSerialGC"]
        cmd += ["-cp", os.pathsep.join(map(str, classpath)), MAIN_CLASS, "0", str(threads)]
        self._log = tempfile.TemporaryFile()  # noqa: SIM115  (closed by stop())
        self.process = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            start_new_session=True,
        )
        self.pid = self.process.pid
        self._said = b""  # its standard output before it listened (the JVM's own errors)
        try:
            self.url = f"http://{self._wait_listening()}"
        except TikaServiceError:
            self.stop()
            raise

    def _wait_listening(self) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            if self._stop.is_set():
                raise _missing("the Tika service was stopped before it listened")
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                self._said += os.read(self.process.stdout.fileno(), 4096)
                match = _LISTENING.search(self._said)
                if match:
                    return match.group(1).decode("ascii")
        code = self.process.poll()
        self._read_rest()
        state = f"exited with code {code}" if code is not None else "did not listen in time"
        said = self.output_tail() or "it printed nothing: not a Java runtime?"
        raise _missing(f"the Tika service {state} before it listened ({said})")

    def _read_rest(self) -> None:
        """Keep what an exited JVM printed on standard output after the last read (HotSpot
        prints its start errors there: "Too small maximum heap")."""
        assert self.process.stdout is not None
        if self.process.poll() is not None:
            self._said += self.process.stdout.read()

    def output_tail(self) -> str:
        """The last lines the JVM printed before it listened (standard output), then the
        last of its standard error, on one line ("" once stopped)."""
        try:
            self._log.seek(0)
            text = self._log.read().decode("utf-8", "replace")
        except ValueError:  # stopped: the log is closed
            return ""
        said = self._said.decode("utf-8", "replace").splitlines()[-LOG_TAIL_LINES:]
        lines = [*said, *text.splitlines()[-LOG_TAIL_LINES:]]
        return " | ".join(line.strip() for line in lines if line.strip())[-600:]

    def death(self, seconds: float) -> str | None:
        """Why the JVM ended, once it has exited within ``seconds``; None while it runs.

        An OutOfMemoryError (``-XX:+ExitOnOutOfMemoryError`` exits with code 3 after
        printing it) names ``extract.tika_heap``; any other end gives its exit code
        (negative: the signal that killed it).
        """
        code = self.wait_exit(seconds)
        if code is None:
            return None
        if code == OOM_EXIT_CODE or "OutOfMemoryError" in self.output_tail():
            return f"Tika service ran out of memory (extract.tika_heap={self.heap})"
        return f"Tika service died (exit code {code})"

    def alive(self) -> bool:
        """Whether the JVM still runs."""
        return self.process.poll() is None

    def wait_exit(self, seconds: float) -> int | None:
        """The JVM's exit code (negative: the signal that killed it) once it has exited
        within ``seconds``, else None (it still runs)."""
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """Kill the JVM by its pid (it holds no state worth a graceful stop) and reap it."""
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        self._log.close()
