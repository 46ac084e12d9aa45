"""A SIGTERM sent while a command is still setting up ends it like Ctrl-C: exit 130, one
line, no traceback (systemd and cron's ``timeout`` stop jobs with SIGTERM)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# The crawl sends itself SIGTERM while it loads its settings: before any event loop runs.
SCRIPT = """
import os, signal, sys
import indexer.cli.crawl_cmd as crawl_cmd
from indexer.cli import main
load = crawl_cmd.load_from_args
def load_then_stop(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)
    return load(*args, **kwargs)
crawl_cmd.load_from_args = load_then_stop
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_during_setup_exits_130_without_traceback(tmp_path: Path) -> None:
    seed = "http://127.0.0.1:9/"  # never fetched: the stop comes first
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "crawl", seed, "--data-dir", str(tmp_path / "d")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 130, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    assert "interrupted" in done.stderr
