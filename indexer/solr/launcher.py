"""Start and stop a real local Solr 9.10.1 (the Java launcher, ``solr.launcher_dir``).

The launcher's Maven project and our configset are found through the settings
``solr.launcher_dir`` and ``solr.configset_dir`` (defaults ``solr-launcher/`` and
``solr-config/`` of the working directory, a source checkout), never through this
module's own path: an installed package has no checkout around it.

The launcher runs in its own JVM and session; its pid goes to ``<solr_home>/solr-<port>.pid``
and its output to ``<solr_home>/solr-<port>.log``. The Java side (``SolrLauncher``) copies the
configset into ``<solr_home>/configsets/<name>`` on every start, creates missing cores and
exits non-zero when a core fails to load; this module builds it with Maven when its sources
are newer than the build outputs, then waits for ``/solr/<core>/admin/ping``.

SolrCloud (``cloud=True``): one JVM per node, each with its own Solr home. Without
``zk_host`` the node runs Solr's embedded ZooKeeper on ``zk_port`` (default port + 1000,
Solr's convention; system property ``zkRun`` in 9.10.1) and other nodes join it with
``zk_host="127.0.0.1:ZK_PORT"``. A node is ready when ``/solr/admin/info/health`` answers
OK (Ref Guide, "Ping and Health Checks": the node is live in ZooKeeper). A node stopped
with SIGTERM leaves the cluster cleanly; the node running ZooKeeper must stop last.

``security_json`` installs a ``security.json`` (Basic auth, Ref Guide "Basic Authentication
Plugin"); pass the matching ``auth`` so the readiness check can log in.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexer.errors import SolrError, SolrLaunchError
from indexer.settings import SolrSettings
from indexer.solr import runtime
from indexer.solr.connection import SolrConnection
from indexer.solr.maven import LOG_TAIL_LINES, build_launcher

log = logging.getLogger(__name__)

DEFAULT_SOLR_HOME = Path(".indexer/solr")
MAIN_CLASS = "indexer.launcher.SolrLauncher"
CONFIGSET_NAME = "pages"

Auth = tuple[str, str]


@dataclass(frozen=True)
class CloudOptions:
    """How a node joins SolrCloud.

    Attributes:
        zk_host: ``HOST:PORT`` of a running ZooKeeper to join; None runs the embedded one.
        zk_port: port of the embedded ZooKeeper; None means Solr port + 1000.
    """

    zk_host: str | None = None
    zk_port: int | None = None


# Children started by this Python process, kept so they can be reaped (no zombies).
_children: dict[int, subprocess.Popen[bytes]] = {}


def pid_file(port: int, solr_home: Path) -> Path:
    """Path of the pid file recording the launcher JVM for ``port``."""
    return solr_home / f"solr-{port}.pid"


def log_file(port: int, solr_home: Path) -> Path:
    """Path of the file receiving the launcher JVM's stdout and stderr."""
    return solr_home / f"solr-{port}.log"


def base_url(port: int) -> str:
    """Base URL of the local Solr on ``port``: ``http://127.0.0.1:PORT/solr``."""
    return f"http://127.0.0.1:{port}/solr"


def running_solr_url(
    port: int = 8983,
    solr_home: Path = DEFAULT_SOLR_HOME,
    core: str = CONFIGSET_NAME,
    *,
    cloud: bool = False,
    auth: Auth | None = None,
) -> str | None:
    """Base URL of our Solr on ``port`` if its pid file names a live process that is ready.

    Ready means ``core`` answers ping (standalone) or the node's health check is OK
    (``cloud``). A pid file naming a dead process is removed. Returns None when none of ours
    runs.
    """
    pid = _recorded_pid(port, solr_home)
    if pid is None:
        return None
    if not _alive(pid):
        pid_file(port, solr_home).unlink(missing_ok=True)
        return None
    url = base_url(port)
    return url if _ready(url, core, cloud, auth) else None


def start_solr(
    port: int = 8983,
    solr_home: Path = DEFAULT_SOLR_HOME,
    core: str = CONFIGSET_NAME,
    configset_dir: Path | None = None,
    timeout: float = 180,
    *,
    launcher_dir: Path | None = None,
    log_level: str = "WARN",
    heap: str = "512m",
    cloud: CloudOptions | None = None,
    security_json: Path | None = None,
    auth: Auth | None = None,
) -> str:
    """Start the local Solr in the background and wait until it is ready; return its base
    URL ``http://127.0.0.1:PORT/solr`` (also when our Solr already runs there).

    Args: ``port`` on 127.0.0.1; ``solr_home`` (created; solr.xml, configsets, cores, pid,
    log; one per cloud node); ``core`` to create if missing and to ping (standalone);
    ``configset_dir`` and ``launcher_dir`` (default: the ``solr.configset_dir`` and
    ``solr.launcher_dir`` defaults); ``timeout`` in seconds for build and readiness; the
    JVM's Log4j ``log_level`` and max ``heap``; ``cloud`` for a SolrCloud node (no core);
    ``security_json`` to install (:func:`basic_auth_security`) and the ``auth`` pair the
    readiness check then uses (never logged).

    Raises:
        SolrLaunchError: a port is held by another process, the build failed, the JVM exited
            early (a core failed to load: the message has the log tail), or it was not
            ready within ``timeout`` (the JVM is then stopped).
    """
    solr_home = solr_home.resolve()
    if (running := _ours_running(port, solr_home, core, cloud, auth)) is not None:
        return running
    deadline = time.monotonic() + timeout
    classpath = build_launcher(launcher_dir)
    configset = configset_dir or SolrSettings().configset_dir
    cmd = _launcher_args(port, solr_home, core, configset, log_level, cloud, security_json)
    proc = _spawn(port, solr_home, classpath, heap, cmd)
    _wait_ready(proc, port, solr_home, (core, cloud is not None, auth), deadline)
    return base_url(port)


def _ours_running(
    port: int, solr_home: Path, core: str, cloud: CloudOptions | None, auth: Auth | None
) -> str | None:
    """The URL of our ready Solr on ``port``, or None when the ports are free to start one.

    Raises:
        SolrLaunchError: our Solr runs but is not ready, or a port is held by another process.
    """
    running = running_solr_url(port, solr_home, core, cloud=cloud is not None, auth=auth)
    if running is not None:
        log.info("Solr already runs at %s (pid file %s)", running, pid_file(port, solr_home))
        return running
    if _recorded_pid(port, solr_home) is not None:
        raise SolrLaunchError(f"Solr on port {port} runs but is not ready; stop it first")
    _check_port_free(port)
    if cloud is not None and cloud.zk_host is None:
        _check_port_free(cloud.zk_port or port + 1000)
    return None


def basic_auth_security(user: str, password: str) -> dict[str, Any]:
    """A ``security.json`` document: Basic auth for ``user``, who may do everything.

    The credential is Solr's ``Sha256AuthenticationProvider`` format: base64 of
    sha256(sha256(salt + password)), a space, base64 of the salt (Ref Guide, "Basic
    Authentication Plugin"). ``blockUnknown`` makes every request authenticate.
    """
    salt = os.urandom(32)
    digest = hashlib.sha256(hashlib.sha256(salt + password.encode("utf-8")).digest()).digest()
    credential = f"{base64.b64encode(digest).decode()} {base64.b64encode(salt).decode()}"
    return {
        "authentication": {
            "class": "solr.BasicAuthPlugin",
            "blockUnknown": True,
            "credentials": {user: credential},
            "forwardCredentials": False,
        },
        "authorization": {
            "class": "solr.RuleBasedAuthorizationPlugin",
            "user-role": {user: ["admin"]},
            "permissions": [{"name": "all", "role": "admin"}],
        },
    }


def _check_port_free(port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # Same option as Jetty's connector, so TIME_WAIT leftovers do not count as busy.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise SolrLaunchError(f"port {port} is held by another process") from exc
            raise SolrLaunchError(f"cannot bind port {port}: {exc}") from exc


def _launcher_args(
    port: int,
    solr_home: Path,
    core: str,
    configset_dir: Path,
    log_level: str,
    cloud: CloudOptions | None,
    security_json: Path | None,
) -> list[str]:
    args = [
        "--port",
        str(port),
        "--solr-home",
        str(solr_home),
        "--configset",
        str(configset_dir.resolve()),
        "--configset-name",
        CONFIGSET_NAME,
        "--log-level",
        log_level,
    ]
    if security_json is not None:
        args += ["--security-json", str(security_json.resolve())]
    if cloud is None:
        return [*args, "--core", core]
    args += ["--cloud", "true"]
    if cloud.zk_host is not None:
        return [*args, "--zk-host", cloud.zk_host]
    return [*args, "--zk-port", str(cloud.zk_port or port + 1000)]


def _spawn(
    port: int, solr_home: Path, classpath: list[Path], heap: str, launcher_args: list[str]
) -> subprocess.Popen[bytes]:
    java = shutil.which("java", path=_java_path())
    if java is None:
        raise SolrLaunchError("cannot start Solr: java is not on PATH (nor in JAVA_HOME/bin)")
    solr_home.mkdir(parents=True, exist_ok=True)
    cmd = [
        java,
        f"-Xmx{heap}",
        f"-Dsolr.log.dir={solr_home}",
        "-cp",
        os.pathsep.join(str(p) for p in classpath),
        MAIN_CLASS,
        *launcher_args,
    ]
    with log_file(port, solr_home).open("wb") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True
        )
    _children[proc.pid] = proc
    pid_file(port, solr_home).write_text(f"{proc.pid}\n", encoding="ascii")
    runtime.record(port, proc.pid, solr_home)  # stop --port without --solr-home finds it
    return proc


def _java_path() -> str | None:
    java_home = os.environ.get("JAVA_HOME")
    if not java_home:
        return None
    return os.pathsep.join([str(Path(java_home) / "bin"), os.environ.get("PATH", "")])


def _wait_ready(
    proc: subprocess.Popen[bytes],
    port: int,
    solr_home: Path,
    check: tuple[str, bool, Auth | None],
    deadline: float,
) -> None:
    url = base_url(port)
    core, cloud, auth = check
    what = "the node" if cloud else f"core {core!r}"
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            _forget(port, solr_home, proc.pid)
            raise SolrLaunchError(
                f"Solr on port {port} exited with code {code} before {what} answered:\n"
                f"{log_tail(port, solr_home)}"
            )
        if _ready(url, core, cloud, auth):
            return
        time.sleep(0.5)
    stop_solr(port, solr_home)
    raise SolrLaunchError(
        f"Solr on port {port}: {what} did not answer in time:\n{log_tail(port, solr_home)}"
    )


def _ready(url: str, core: str, cloud: bool, auth: Auth | None) -> bool:
    if cloud:
        return _status_ok(url, "/admin/info/health", auth)
    return ping(url, core, auth=auth)


def ping(url: str, core: str, timeout: float = 2.0, *, auth: Auth | None = None) -> bool:
    """True when ``{url}/{core}/admin/ping`` answers HTTP 200 with status OK."""
    return _status_ok(url, f"/{core}/admin/ping", auth, timeout)


def _status_ok(url: str, path: str, auth: Auth | None, timeout: float = 2.0) -> bool:
    conn = SolrConnection(url, auth, timeout)
    try:
        return conn.get(path).get("status") == "OK"
    except SolrError:
        return False
    finally:
        conn.close()


def log_tail(port: int, solr_home: Path, lines: int = LOG_TAIL_LINES) -> str:
    """The last ``lines`` lines of the launcher log for ``port`` (empty if none)."""
    path = log_file(port, solr_home)
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8", errors="replace")
    return "\n".join(text.splitlines()[-lines:])


def stop_solr(port: int = 8983, solr_home: Path = DEFAULT_SOLR_HOME, timeout: float = 30) -> bool:
    """Stop our Solr on ``port`` by its recorded pid: SIGTERM, then SIGKILL after ``timeout``.

    Returns True if a running Solr was stopped, False when none ran (a no-op). The pid file is
    removed in both cases. Never signals a process whose command line is not our launcher.
    """
    solr_home = solr_home.resolve()
    pid = _recorded_pid(port, solr_home)
    if pid is None or not _alive(pid):
        _forget(port, solr_home, pid)
        return False
    _signal(pid, signal.SIGTERM)
    if not _wait_gone(pid, timeout):
        log.warning("Solr pid %d ignored SIGTERM for %.0f s; sending SIGKILL", pid, timeout)
        _signal(pid, signal.SIGKILL)
        _wait_gone(pid, 10)
    _forget(port, solr_home, pid)
    return True


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)
    return True


def _forget(port: int, solr_home: Path, pid: int | None) -> None:
    pid_file(port, solr_home).unlink(missing_ok=True)
    if pid is not None:
        _children.pop(pid, None)
        runtime.forget(port, pid)


def _recorded_pid(port: int, solr_home: Path) -> int | None:
    try:
        return int(pid_file(port, solr_home).read_text(encoding="ascii").strip())
    except (FileNotFoundError, ValueError):
        return None


def _alive(pid: int) -> bool:
    """True if ``pid`` is a live (not zombie) process running our launcher class."""
    child = _children.get(pid)
    if child is not None:
        return child.poll() is None
    proc = Path(f"/proc/{pid}")
    if proc.exists():
        try:
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = (proc / "cmdline").read_bytes()
        except (OSError, IndexError):
            return False
        return state != "Z" and MAIN_CLASS.encode() in cmdline
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
