"""A TOML settings file that is not UTF-8 (TOML's rule) is one line naming it, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.cli import main


def test_a_shift_jis_config_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "社内.toml"
    text = '[crawl]\nseeds = ["http://127.0.0.1:9/"]\n# 社内ポータルの夜間クロール\n'
    config.write_bytes(text.encode("shift_jis"))
    for command in (["config", "show"], ["crawl"], ["report"], ["reindex"]):
        code = main([*command, "--config", str(config)])
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert code == 2, (command, err)
        assert len(lines) == 1 and str(config) in lines[0] and "UTF-8" in lines[0], err
