"""A throwaway PostgreSQL cluster for tests: Debian's ``postgresql`` binaries, a temp directory.

:func:`start_cluster` runs ``initdb`` and ``pg_ctl start`` in a new temporary directory,
listening on 127.0.0.1 only (a free port) and on a unix socket in that directory, with
trust authentication for the superuser ``indexer``. PostgreSQL refuses to run as root, so
under root the cluster runs as the unprivileged system user :data:`PG_USER` (created when
missing) and the directory is handed to it. :meth:`Cluster.stop` stops the postmaster by the
pid in its ``postmaster.pid`` (SIGINT: fast shutdown; SIGKILL after a timeout) and removes
the directory; the fixture calls it also on failure.

Clusters outlive an owner that cannot run its clean-up, so two more ways stop them, both by
the pid in ``postmaster.pid`` and never by name: a SIGTERM to the owner (a ``timeout``, a
stopped benchmark) stops every cluster it started before the owner dies of it
(:func:`_on_sigterm`, installed by the first :func:`start_cluster` when SIGTERM has no
handler yet); and each :func:`start_cluster` first stops the clusters left in the temporary
directory by owners that are gone (``owner.pid``, written beside ``data/``; a SIGKILLed
pytest), see :func:`stop_orphans`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: The system user the cluster runs as when the tests run as root.
PG_USER = "indexer-pg"
#: The cluster's superuser (trust authentication on loopback and the socket).
SUPERUSER = "indexer"
#: Prefix of the clusters' temporary directories.
PREFIX = "indexer-pg-"
#: The clusters this process started and has not stopped yet (for :func:`_on_sigterm`).
_RUNNING: list[Cluster] = []
#: initdb or pg_ctl running now (a SIGTERM stops it first: initdb, left running, went on
#: writing into a cluster directory the handler had just removed).
_TOOLS: list[subprocess.Popen[bytes]] = []


def pg_bindir() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` that has ``initdb``, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
    return Path(found[-1]).parent if found else None


def _version_key(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _run_as() -> str | None:
    """The user to run the server as: :data:`PG_USER` under root (created if missing)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER],
            check=True,
        )
    return PG_USER


@dataclass
class Cluster:
    """A running cluster.

    Attributes:
        root: its temporary directory (data in ``data/``, socket and log beside it).
        port: the TCP port on 127.0.0.1.
        bindir: the PostgreSQL binaries used.
    """

    root: Path
    port: int
    bindir: Path

    def url(self, dbname: str = "postgres", password: str = "") -> str:
        """A ``postgresql://`` URL of database ``dbname`` (the password is ignored: trust)."""
        auth = f"{SUPERUSER}:{password}" if password else SUPERUSER
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{dbname}"

    def pid(self) -> int | None:
        """The postmaster's pid from ``postmaster.pid``, or None when it is not running (a
        negative pid there is initdb's standalone backend, not a postmaster)."""
        try:
            pid = int((self.root / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if pid > 0 else None

    def stop(self, timeout: float = 20.0) -> None:
        """Stop the postmaster by its pid (fast shutdown, then SIGKILL) and remove the dir."""
        pid = self.pid()
        if pid is not None and _is_postmaster_of(pid, self.root):
            _signal_and_wait(pid, timeout)
        shutil.rmtree(self.root, ignore_errors=True)
        if self in _RUNNING:
            _RUNNING.remove(self)

    def start(self) -> None:
        """Start the postmaster again after it was stopped (any shutdown mode, or killed
        with -9: a few tries while its old backends exit).

        Raises:
            subprocess.CalledProcessError: ``pg_ctl start`` failed 20 times, 0.5 s apart
                (the last failure, its output attached).
        """
        for attempt in range(20):
            try:
                _pg_ctl_start(self, _run_as())
                return
            except subprocess.CalledProcessError:
                if attempt == 19:
                    raise
                time.sleep(0.5)

    def processes(self) -> list[int]:
        """The postmaster's pid and its children's (the backends), from ``/proc``."""
        pid = self.pid()
        if pid is None:
            return []
        return [pid, *_children_of(pid)]


def stop_processes(pids: list[int]) -> list[int]:
    """SIGSTOP each of ``pids`` that still exists (a backend may end between the listing
    and the signal); returns those stopped, for :func:`continue_processes`."""
    stopped = []
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
    return stopped


def continue_processes(pids: list[int]) -> None:
    """SIGCONT each of ``pids`` that still exists."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _is_postmaster_of(pid: int, root: Path) -> bool:
    """Whether ``pid`` is a postgres server of the data directory under ``root`` (its command
    line names it): a pid from a stale ``postmaster.pid`` may belong to anything by now."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return str(root / "data").encode() in cmdline


def stop_orphans(tmp: Path | None = None) -> list[Path]:
    """Stop the clusters under ``tmp`` (default: the temporary directory) whose owner (the
    pid in ``owner.pid``) is gone, by the pid in their ``postmaster.pid``; return their
    directories (removed). A directory without ``owner.pid`` is left alone."""
    stopped = []
    for root in Path(tmp or tempfile.gettempdir()).glob(f"{PREFIX}*"):
        try:
            owner = int((root / "owner.pid").read_text().strip())
        except (OSError, ValueError):
            continue
        if owner == os.getpid() or _alive(owner):
            continue
        Cluster(root, 0, Path()).stop()
        stopped.append(root)
    return stopped


def _on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM: stop the initdb or pg_ctl running now, then this process's clusters, by pid;
    then die of the signal as before."""
    for tool in list(_TOOLS):  # initdb removes its data directory on SIGTERM
        tool.terminate()
        try:
            tool.wait(10)
        except subprocess.TimeoutExpired:
            tool.kill()
            tool.wait()
    for cluster in list(_RUNNING):
        cluster.stop(timeout=5.0)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _install_sigterm() -> None:
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_and_wait(pid: int, timeout: float) -> None:
    for sig, wait in ((signal.SIGINT, timeout), (signal.SIGKILL, 5.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if not _alive(pid):
                return
            time.sleep(0.05)


def start_cluster() -> Cluster:
    """Make and start a cluster in a new temporary directory (see the module docstring).

    Raises:
        RuntimeError: no PostgreSQL binaries (``apt-get install postgresql``).
        subprocess.CalledProcessError: ``initdb`` or ``pg_ctl`` failed (its output attached).
    """
    bindir = pg_bindir()
    if bindir is None:
        raise RuntimeError("no /usr/lib/postgresql/*/bin/initdb: apt-get install postgresql")
    stop_orphans()
    user = _run_as()
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    (root / "owner.pid").write_text(f"{os.getpid()}\n")
    if user is not None:
        shutil.chown(root, user)
    cluster = Cluster(root, _free_port(), bindir)
    if threading.current_thread() is threading.main_thread():
        _install_sigterm()
    _RUNNING.append(cluster)
    try:
        _initdb(cluster, user)
        _pg_ctl_start(cluster, user)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _run(cmd: list[str], user: str | None) -> None:
    """Run ``cmd`` as ``user``, known to the SIGTERM handler while it runs.

    Raises:
        subprocess.CalledProcessError: it failed (its output attached).
    """
    tool = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, user=user, cwd="/")
    _TOOLS.append(tool)
    try:
        out, err = tool.communicate()
    finally:
        _TOOLS.remove(tool)
    if tool.returncode != 0:
        raise subprocess.CalledProcessError(tool.returncode, cmd, out, err)


def _initdb(cluster: Cluster, user: str | None) -> None:
    _run(
        [
            str(cluster.bindir / "initdb"),
            "-D",
            str(cluster.root / "data"),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        ],
        user,
    )


def _pg_ctl_start(cluster: Cluster, user: str | None) -> None:
    options = (
        f"-p {cluster.port} -h 127.0.0.1 -k {cluster.root} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100"
    )
    _run(
        [
            str(cluster.bindir / "pg_ctl"),
            "-D",
            str(cluster.root / "data"),
            "-l",
            str(cluster.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        ],
        user,
    )
