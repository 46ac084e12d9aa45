"""The data directory: where a crawl's state lives, and the one way its SQLite files open.

Three state files live under ``crawl.data_dir`` beside an advisory lock file:

* ``frontier.sqlite3``: every URL the crawl knows (:mod:`indexer.crawl.frontier`);
* ``outbox.sqlite3``: changes not yet acknowledged by Solr (:mod:`indexer.index.outbox`);
* ``missed.sqlite3``: reindex's missed-run counts (:mod:`indexer.pipeline.reindex`);
* ``lock``: held (``flock``) by the one process that writes the state.

Each state file carries its kind in ``PRAGMA application_id`` and its schema version in
``PRAGMA user_version`` (SQLite's file header, https://sqlite.org/fileformat.html §1.3),
both written when the file is created. On open the header and the tables are checked: a
file without its schema (an empty or zero-byte database), of a foreign application or
kind, of a newer version, or malformed raises :class:`~indexer.errors.StateError`, whose
one-line message names the file and the way out. Files written before versions existed
(``user_version`` 0 with the expected tables) are adopted once as version 1.

A new file is built under a temporary name and renamed into place, so a crash while it is
created never leaves a zero-byte file behind.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from indexer.crawl.sqlite_errors import StateConnection, translate
from indexer.errors import CrawlLockedError, StateError

#: ``PRAGMA application_id`` of every state file: "IDXR" as a big-endian 32-bit integer.
APPLICATION_ID = 0x49445852


@dataclass(frozen=True, slots=True)
class StateKind:
    """One kind of state file.

    Attributes:
        name: file name under the data directory.
        version: the schema version this code writes and reads (``PRAGMA user_version``).
        tables: ``{table: required columns}`` that a file of this kind must hold.
        schema: SQL script creating the tables (idempotent: ``IF NOT EXISTS``).
        remedy: what the operator should do when the file is broken.
    """

    name: str
    version: int
    tables: dict[str, tuple[str, ...]]
    schema: str
    remedy: str


class DataDir:
    """Paths, lock and SQLite connections of one crawl data directory.

    Args:
        root: the directory (``crawl.data_dir``); created by :meth:`ensure` or a writable open.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock_fd: int | None = None

    @property
    def frontier(self) -> Path:
        """Path of ``frontier.sqlite3``."""
        return self.root / "frontier.sqlite3"

    @property
    def outbox(self) -> Path:
        """Path of ``outbox.sqlite3``."""
        return self.root / "outbox.sqlite3"

    @property
    def missed(self) -> Path:
        """Path of ``missed.sqlite3``."""
        return self.root / "missed.sqlite3"

    @property
    def lock_path(self) -> Path:
        """Path of the lock file."""
        return self.root / "lock"

    def path(self, kind: StateKind) -> Path:
        """The file of ``kind`` in this directory."""
        return self.root / kind.name

    def ensure(self) -> None:
        """Create the directory (and parents) if missing.

        Raises:
            StateError: it cannot be created (names the directory and the OS error).
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StateError(
                self.root, f"cannot create the data directory: {exc.strerror}"
            ) from None

    # -- the lock -----------------------------------------------------------------------

    def lock(self) -> None:
        """Take the exclusive lock on the directory (non-blocking; creates the directory).

        Raises:
            CrawlLockedError: another process holds it.
        """
        self.ensure()
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CrawlLockedError(
                f"another crawl is using {self.root} (lock held); wait for it or use --data-dir"
            ) from None
        self._lock_fd = fd

    def unlock(self) -> None:
        """Release the lock taken by :meth:`lock` (no-op when not held)."""
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> DataDir:
        self.lock()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.unlock()

    # -- connections --------------------------------------------------------------------

    def open(
        self, kind: StateKind, *, create: bool, missing_hint: str = "", threads: bool = False
    ) -> sqlite3.Connection:
        """Open the state file of ``kind`` in this directory: see :func:`open_state`."""
        if create:
            self.ensure()
        return open_state(
            self.path(kind), kind, create=create, missing_hint=missing_hint, threads=threads
        )

    def open_read_only(self, kind: StateKind, *, missing_hint: str = "") -> sqlite3.Connection:
        """Open the state file of ``kind`` read-only (no lock needed; works during a crawl).

        Raises:
            StateError: missing, without its schema, foreign, newer or malformed.
        """
        path = self.path(kind)
        _must_be_file(path, kind)
        if not path.exists():
            raise StateError(path, f"missing: {missing_hint or kind.remedy}")
        db = _connect(path, kind.remedy, read_only=True)
        try:
            check(db, path, kind, adopt=False)
        except BaseException:
            db.close()
            raise
        return db

    def verify(self, kinds: tuple[StateKind, ...], *, read_only: bool = False) -> None:
        """Check every existing state file of ``kinds`` before anything else is contacted
        (``read_only``: without writing, so without the lock: ``indexer report``).

        Raises:
            StateError: one of them is broken, foreign or newer, or not a file (the first
                found).
        """
        for kind in kinds:
            if not self.path(kind).exists():
                continue
            if read_only:
                self.open_read_only(kind).close()
            else:
                self.open(kind, create=False).close()

    def set_aside(self, kind: StateKind) -> Path | None:
        """Rename a broken file of ``kind`` (and its ``-wal``/``-shm``) to ``NAME.broken-N``.

        Returns the new path of the main file, or None when there was none.
        """
        path = self.path(kind)
        if not path.exists():
            return None
        n = 1
        while path.with_name(f"{path.name}.broken-{n}").exists():
            n += 1
        target = path.with_name(f"{path.name}.broken-{n}")
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        path.rename(target)
        return target


def open_state(
    path: Path, kind: StateKind, *, create: bool, missing_hint: str = "", threads: bool = False
) -> sqlite3.Connection:
    """Open the state file ``path`` of ``kind`` for writing, creating it when ``create``.

    The connection is in autocommit mode (``isolation_level=None``), WAL journal,
    ``synchronous=NORMAL`` and a 5 s busy timeout; SQLite errors it raises later are
    translated (:mod:`indexer.crawl.sqlite_errors`).

    Args:
        path: the file (its directory must exist when it is created).
        kind: which kind of state file it must be.
        create: a missing file is created (a new crawl); otherwise it is an error.
        missing_hint: the way out named when a missing file is an error.
        threads: the connection may be used from other threads (``check_same_thread``).

    Raises:
        StateError: missing (and not ``create``), without its schema, foreign, newer or
            malformed.
        StorageError: it cannot be created (disk full).
    """
    _must_be_file(path, kind)
    if not path.exists():
        if not create:
            raise StateError(path, f"missing: {missing_hint or kind.remedy}")
        _create(path, kind)
    db = _connect(path, kind.remedy, threads=threads)
    try:
        check(db, path, kind, adopt=True)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        db.close()
        raise
    return db


def backup(source: sqlite3.Connection, target: Path) -> None:
    """Write a consistent copy of the database behind ``source`` to ``target`` (replaced).

    Uses SQLite's online backup API, so the copy is consistent even while ``source`` is in
    use; the copy keeps the header (application id, version).

    Raises:
        StateError: the copy cannot be written (names ``target``).
    """
    dst = sqlite3.connect(target)
    try:
        source.backup(dst)
    except sqlite3.Error as exc:
        raise translate(exc, target) from None
    finally:
        dst.close()


def check(db: sqlite3.Connection, path: Path, kind: StateKind, *, adopt: bool) -> None:
    """Check the header and tables of an open state file; adopt an unversioned one.

    Raises:
        StateError: without its schema, foreign, newer or malformed (names ``path``).
    """
    try:
        app, version = _header(db)
        tables = _tables(db)
        if app not in (0, APPLICATION_ID):
            raise StateError(path, f"not a state file of indexer (application_id {app:#x})")
        if version > kind.version:
            raise StateError(
                path,
                f"written by a newer indexer (schema version {version} > {kind.version}); "
                "upgrade indexer or use another --data-dir",
            )
        _check_tables(path, kind, tables, empty_ok=False)
        problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise StateError(path, f"malformed ({problem}); {kind.remedy}")
        if adopt and (version == 0 or app == 0):  # written before versions: adopt it
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={kind.version}")
    except sqlite3.Error as exc:
        raise translate(exc, path, kind.remedy) from None


def _must_be_file(path: Path, kind: StateKind) -> None:
    """Refuse a path that exists and is not a regular file (a directory, a device).

    Raises:
        StateError: naming the path and ``kind.remedy``.
    """
    if path.exists() and not path.is_file():
        what = "a directory" if path.is_dir() else "not a regular file"
        raise StateError(path, f"is {what}, not a state file; {kind.remedy}")


def _header(db: sqlite3.Connection) -> tuple[int, int]:
    app = int(db.execute("PRAGMA application_id").fetchone()[0])
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    return app, version


def _tables(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {n: {r[1] for r in db.execute(f'PRAGMA table_info("{n}")')} for n in names}


def _check_tables(
    path: Path, kind: StateKind, tables: dict[str, set[str]], *, empty_ok: bool
) -> None:
    if not tables and not empty_ok:
        raise StateError(path, f"holds no tables (empty or truncated); {kind.remedy}")
    for table, columns in kind.tables.items():
        if table not in tables:
            raise StateError(path, f"not a {kind.name} (no table {table!r}); {kind.remedy}")
        lacking = [c for c in columns if c not in tables[table]]
        if lacking:
            raise StateError(
                path, f"table {table!r} lacks column(s) {', '.join(lacking)}; {kind.remedy}"
            )


def _connect(
    path: Path, remedy: str, *, read_only: bool = False, threads: bool = False
) -> sqlite3.Connection:
    target = f"file:{path}?mode=ro" if read_only else f"file:{path}?mode=rw"
    try:
        db = sqlite3.connect(
            target,
            uri=True,
            isolation_level=None,
            check_same_thread=not threads,
            factory=StateConnection,
        )
    except sqlite3.Error as exc:
        raise translate(exc, path, remedy) from None
    assert isinstance(db, StateConnection)
    db.state_path = path
    db.remedy = remedy
    db.execute("PRAGMA busy_timeout=5000")
    return db


def _create(path: Path, kind: StateKind) -> None:
    """Build a new file of ``kind`` under a temporary name, then rename it to ``path``."""
    temp = path.with_name(path.name + ".new")
    for leftover in (temp, temp.with_name(temp.name + "-journal")):
        leftover.unlink(missing_ok=True)
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(
            f"BEGIN; {kind.schema}; PRAGMA application_id={APPLICATION_ID}; "
            f"PRAGMA user_version={kind.version}; COMMIT;"
        )
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as exc:
        db.close()
        temp.unlink(missing_ok=True)
        raise translate(exc, path) from None
    db.close()
    os.replace(temp, path)
