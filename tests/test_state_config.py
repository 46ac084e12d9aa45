"""A TOML settings file that is not UTF-8 (TOML's rule) is one line naming it, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_shift_jis_config_file_is_one_line_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "社内.toml"
    text = '[crawl]\nseeds = ["http://127.0.0.1:9/"]\n# 社内ポータルの夜間クロール\n'
    config.write_bytes(text.encode("shift_jis"))
    for command in (["config", "show"], ["crawl"], ["report"], ["reindex"]):
        proc = subprocess.run(
            [sys.executable, "-m", "indexer", *command, "--config", str(config)],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2, (command, proc.stderr)
        assert len(lines) == 1 and str(config) in lines[0] and "UTF-8" in lines[0], proc.stderr
