"""``indexer extract --help`` names every format the build parses (``indexer.formats.PARSED``),
the Tika service's among them."""

from __future__ import annotations

import pytest

from indexer import formats as format_ids
from indexer.cli import main


def test_extract_help_names_every_parsed_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["extract", "--help"])
    words = set(
        capsys.readouterr().out.replace(",", " ").replace("(", " ").replace(";", " ").split()
    )
    for fmt in format_ids.PARSED:
        assert (fmt if fmt == "text" else fmt.upper()) in words, fmt
    assert "Tika" in words
