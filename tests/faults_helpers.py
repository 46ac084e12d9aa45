"""Helpers of the index-side fault tests: a generated site, a crawl in its own session, and
reading its state (run record, outbox) and Solr's ids while it runs."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.frontier.view import FrontierView
from indexer.errors import StateError


def write_site(root: Path, pages: int, paragraphs: int = 3) -> Path:
    """``pages`` linked article pages under ``root`` plus ``index.html`` (``pages + 1``)."""
    root.mkdir()
    links = "".join(f'<a href="/p{i}.html">p{i}</a> ' for i in range(pages))
    (root / "index.html").write_text(f"<title>top</title><body>{links}</body>", "utf-8")
    for i in range(pages):
        body = "".join(
            f"<p>これは記事{i}の第{j}段落です。社内の規程と手続きを説明します。</p>"
            for j in range(paragraphs)
        )
        (root / f"p{i}.html").write_text(
            f"<title>記事{i}</title><body><article>{body}</article></body>", "utf-8"
        )
    return root


def crawl_args(solr: str, data: Path, *extra: str) -> list[str]:
    """``python -m indexer crawl --solr SOLR --data-dir DATA --summary-json DATA.json ...``."""
    return [
        sys.executable, "-m", "indexer", "crawl", "--solr", solr, "--data-dir", str(data),
        "--summary-json", str(summary_path(data)), *extra,
    ]  # fmt: skip


def summary_path(data: Path) -> Path:
    """Where :func:`crawl_args` asks for the summary JSON."""
    return data.with_name(data.name + "-summary.json")


def summary(data: Path) -> dict[str, Any]:
    """The summary JSON of the last crawl over ``data``."""
    result: dict[str, Any] = json.loads(summary_path(data).read_text("utf-8"))
    return result


def start_crawl(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Start a crawl in its own session (its pid is its process group id)."""
    return subprocess.Popen(
        args,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def signal_group(proc: subprocess.Popen[str], sig: int) -> float:
    """Send ``sig`` to the crawl's process group (as a terminal or systemd does); returns
    the monotonic time it was sent."""
    os.killpg(proc.pid, sig)  # the pgid we created with start_new_session
    return time.monotonic()


def reap(proc: subprocess.Popen[str]) -> None:
    """Kill what is left of the crawl's process group (on failure paths)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(10)


def ended(proc: subprocess.Popen[str], within: float = 120) -> tuple[int, str]:
    """Wait up to ``within`` s for ``proc`` to end: ``(exit code, stderr)``; one still
    running then is killed (by its pid) and the TimeoutExpired passes on."""
    try:
        _, err = proc.communicate(timeout=within)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    return proc.returncode, err


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` every 50 ms until it holds; AssertionError naming ``what`` after
    ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(
            sqlite3.Error,
            StateError,  # the crawl has not created its state files yet
            FileNotFoundError,
            IndexError,
            requests.RequestException,
        ):
            if check():
                return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class ErrLines:
    """The stderr of a running crawl, read line by line in a thread, so a test can wait for
    a line (a condition, not a time) and still get the whole text at the end."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self._proc = proc
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._lines.append(line)

    def has(self, text: str) -> bool:
        """Whether a line read so far contains ``text``."""
        return any(text in line for line in list(self._lines))

    def finish(self, timeout: float) -> str:
        """Wait for the process to end (``subprocess.TimeoutExpired`` after ``timeout`` s)
        and return its whole stderr."""
        self._proc.wait(timeout)
        self._thread.join(10)
        return "".join(self._lines)


def last_run(data: Path) -> RunRecord:
    """The last run record of the crawl state in ``data``."""
    with FrontierView(data) as view:
        return view.runs()[-1]


def run_count(data: Path) -> int:
    """How many runs the frontier in ``data`` recorded."""
    with FrontierView(data) as view:
        return len(view.runs())


def outcomes(data: Path) -> dict[str, int]:
    """``{outcome: URLs}`` over the frontier in ``data`` (empty while the crawl has not
    created it yet)."""
    if not (data / "frontier.sqlite3").is_file():
        return {}
    with FrontierView(data) as view:
        counts: dict[str, int] = {}
        for _, outcome, n in view.counts():
            counts[outcome] = counts.get(outcome, 0) + n
        return counts


def outbox_count(data: Path) -> int:
    """Changes pending in the outbox of ``data`` (0 when there is none)."""
    path = data / "outbox.sqlite3"
    if not path.is_file():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
    finally:
        db.close()


def solr_ids(
    base: str, core: str, query: str = "*:*", auth: tuple[str, str] | None = None
) -> list[str]:
    """Ids in ``core`` matching ``query`` after a commit."""
    requests.get(f"{base}/{core}/update", params={"commit": "true"}, auth=auth, timeout=60)
    resp = requests.get(
        f"{base}/{core}/select",
        params={"q": query, "rows": 100000, "fl": "id"},
        auth=auth,
        timeout=60,
    )
    resp.raise_for_status()
    return [d["id"] for d in resp.json()["response"]["docs"]]


def cli(*args: str) -> tuple[int, str]:
    """Run ``indexer ARGS`` in this process; returns the exit code and what it wrote to
    stderr (stdout is dropped)."""
    from indexer.cli import main  # the CLI's imports stay out of the helpers' import time

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    return code, err.getvalue()
