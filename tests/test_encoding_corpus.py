"""The charset corpus (../shared/corpus/charset): every file right, as stored and stripped.

Skipped when the corpus is missing, except under CI (env ``CI=true``), where it fails.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "charset"


def _eval_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "eval_charset", ROOT / "scripts" / "eval_charset.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def eval_charset() -> ModuleType:
    if not (CORPUS / "index.tsv").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"charset corpus missing at {CORPUS} (required when CI=true)")
        pytest.skip(f"charset corpus not available at {CORPUS}")
    return _eval_module()


@pytest.mark.parametrize("strip", [False, True], ids=["as-stored", "declarations-stripped"])
def test_every_corpus_file_decodes_right(eval_charset: ModuleType, strip: bool) -> None:
    outcomes = eval_charset.evaluate(CORPUS, strip)
    wrong = [(o.file_id, o.got, o.source) for o in outcomes if not o.correct]
    assert len(outcomes) == 126
    assert wrong == []
