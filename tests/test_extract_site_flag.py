"""``indexer extract --site DIR`` with a DIR that holds no pages says so (exit 2, naming
``--site``) instead of extracting as if a template had been learnt."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from indexer.cli import main


@pytest.mark.parametrize("kind", ["missing", "empty", "a file", "no html"])
def test_a_site_dir_without_pages_is_a_configuration_error(tmp_path: Path, kind: str) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>本文です。これは本文です。</p></body></html>", "utf-8")
    site = tmp_path / "site"
    if kind == "empty":
        site.mkdir()
    elif kind == "a file":
        site.write_text("x")
    elif kind == "no html":
        site.mkdir()
        (site / "notes.txt").write_text("x")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["extract", "--site", str(site), str(page)])
    assert code == 2, err.getvalue()
    assert "--site" in err.getvalue()
