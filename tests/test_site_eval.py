"""Site-level check: whole sites crawled locally, template leaking in and content kept.

Runs ``scripts/eval_site.py`` on the bundled sample site and one small Debian HTML manual
(``maint-guide-ja``, installed by ``scripts/test.sh``): learning must leak no more
repeated lines than trafilatura and keep at least 95 % of its unrepeated text and 99 %
of the per-page chain's.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "eval_site.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_site", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_site"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["sample", "maint-guide-ja"])
def test_learned_templates_beat_trafilatura_on_a_whole_site(name: str) -> None:
    pytest.importorskip("trafilatura")
    script = _script()
    site = script.SITES[name]
    if not (site.root / site.seed).is_file():
        pytest.skip(f"{site.root} not installed (scripts/test.sh installs it)")
    pages, metrics, _ = script.evaluate(site, 150)
    assert pages >= 10
    assert script.verdict(metrics) == [], metrics
    learned, chain = metrics["learned"], metrics["chain"]
    assert learned[0] <= chain[0]  # no more template than the per-page chain leaves
