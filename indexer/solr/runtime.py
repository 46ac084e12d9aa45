"""Where the launcher records the Solr processes it starts, by port, for this user.

``indexer solr stop --port N`` must find a Solr that was started with another
``--solr-home`` (or from another directory): the pid file lives in the Solr home, which
the stopping command may not know. So each start also writes ``solr-<port>.json``
(``{"pid": …, "solr_home": …}``) into a per-user runtime directory:
``$XDG_RUNTIME_DIR/indexer`` (XDG Base Directory Specification), else
``/tmp/indexer-<uid>``, created with mode 0700 and refused when another user owns it.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path


def runtime_dir() -> Path:
    """The per-user directory for process records (created, mode 0700).

    Raises:
        PermissionError: the directory exists but belongs to another user, or is a link.
    """
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and Path(xdg).is_dir():
        path = Path(xdg) / "indexer"
    else:
        path = Path(tempfile.gettempdir()) / f"indexer-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid():
        raise PermissionError(f"{path} is not this user's own directory")
    return path


def _record_path(port: int) -> Path:
    return runtime_dir() / f"solr-{port}.json"


def record(port: int, pid: int, solr_home: Path) -> None:
    """Remember that ``pid`` serves ``port`` with ``solr_home`` (absolute).

    A record that cannot be written is skipped (stopping then needs ``--solr-home``).
    """
    data = {"pid": pid, "solr_home": str(solr_home.resolve())}
    with contextlib.suppress(OSError):
        target = _record_path(port)
        temp = target.with_suffix(".tmp")
        temp.write_text(json.dumps(data), "utf-8")
        temp.replace(target)


def lookup(port: int) -> tuple[int, Path] | None:
    """``(pid, solr_home)`` recorded for ``port``, or None (no record, or an unreadable one)."""
    try:
        data = json.loads(_record_path(port).read_text("utf-8"))
        return int(data["pid"]), Path(data["solr_home"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def forget(port: int, pid: int | None = None) -> None:
    """Drop the record of ``port`` (only when it names ``pid``, if given)."""
    with contextlib.suppress(OSError):
        found = lookup(port)
        if found is not None and (pid is None or found[0] == pid):
            _record_path(port).unlink(missing_ok=True)
