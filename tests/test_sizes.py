"""The size rules (scripts/check_sizes.py): the package keeps them, and the check can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_sizes.py"


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60
    )


def test_the_package_keeps_the_size_rules() -> None:
    done = _check()
    assert done.returncode == 0, done.stdout
    assert "0 module(s) over 400 lines" in done.stdout


def test_a_long_module_and_an_unnamed_long_function_break_them(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(45))
    (tmp_path / "long.py").write_text(
        f"def not_in_the_architecture_notes():\n{body}\n" + "\n" * 400, "utf-8"
    )
    done = _check(str(tmp_path))
    assert done.returncode == 1
    assert "module over 400 lines" in done.stdout
    assert "not_in_the_architecture_notes (46 lines) — not named" in done.stdout
