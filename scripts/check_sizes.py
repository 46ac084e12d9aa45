"""Size rules of the package: modules of at most 400 lines, at most three functions over
40 lines, each of them named in ARCHITECTURE.md.

A function is counted from its ``def`` line to its last line, docstring included (nested
functions count on their own and inside their parent). Prints one line per module or
function over its limit and exits 1 when a rule is broken, 0 otherwise.

Usage: ``python scripts/check_sizes.py [PACKAGE_DIR]`` (default: ``indexer/`` of this repo).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 40
MAX_LONG_FUNCTIONS = 3


@dataclass(frozen=True)
class Long:
    """A module or function over its limit: ``path:line name (lines)``."""

    path: Path
    line: int
    name: str
    lines: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.name} ({self.lines} lines)"


def long_modules(package: Path) -> list[Long]:
    """Modules of ``package`` longer than :data:`MAX_MODULE_LINES` lines."""
    found = []
    for path in sorted(package.rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_MODULE_LINES:
            found.append(Long(path, 1, path.stem, count))
    return found


def long_functions(package: Path) -> list[Long]:
    """Functions and methods of ``package`` longer than :data:`MAX_FUNCTION_LINES` lines."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    found.append(Long(path, node.lineno, node.name, lines))
    return sorted(found, key=lambda f: (str(f.path), f.line))


def main(argv: list[str]) -> int:
    """Print what is over a limit; return 1 when a rule is broken."""
    package = Path(argv[0]) if argv else ROOT / "indexer"
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    modules, functions = long_modules(package), long_functions(package)
    broken = bool(modules) or len(functions) > MAX_LONG_FUNCTIONS
    for module in modules:
        print(f"module over {MAX_MODULE_LINES} lines: {module}")
    for function in functions:
        named = f"`{function.name}`" in architecture
        broken = broken or not named
        note = "" if named else " — not named in ARCHITECTURE.md"
        print(f"function over {MAX_FUNCTION_LINES} lines: {function}{note}")
    print(
        f"{len(modules)} module(s) over {MAX_MODULE_LINES} lines, {len(functions)} function(s) "
        f"over {MAX_FUNCTION_LINES} lines (at most {MAX_LONG_FUNCTIONS}, each in ARCHITECTURE.md)"
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
