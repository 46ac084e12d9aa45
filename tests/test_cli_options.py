"""The CLI's shared options, exit codes and error mapping; Lucene term queries."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from indexer.cli import main, report_cmd
from indexer.cli.options import ExitCode, add_solr_target, solr_flags
from indexer.errors import ConfigError, SolrUnavailableError, StateError
from indexer.solr.search import term_query


def test_solr_target_options_map_to_settings() -> None:
    parser = argparse.ArgumentParser()
    add_solr_target(parser)
    args = parser.parse_args(["--solr", "http://127.0.0.1:1/solr", "--collection", "c"])
    assert solr_flags(args) == {
        "solr.url": "http://127.0.0.1:1/solr",
        "solr.core": None,
        "solr.collection": "c",
    }


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ConfigError("fetch.delay", "bad"), ExitCode.USAGE),
        (StateError(Path("frontier.sqlite3"), "newer schema"), ExitCode.USAGE),
        (SolrUnavailableError("down"), ExitCode.FAILURE),
        (FileNotFoundError("no crawl state in x"), ExitCode.FAILURE),
        (KeyboardInterrupt(), ExitCode.INTERRUPTED),
    ],
)
def test_main_alone_maps_errors_to_exit_codes(
    error: BaseException,
    code: ExitCode,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setattr(report_cmd, "run", failing)  # the parser is built after this
    assert main(["report"]) == code
    assert capsys.readouterr().err.startswith("indexer: ")


def test_detect_of_an_unreadable_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(tmp_path / "missing.html")]) == ExitCode.USAGE
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "query"),
    [
        ("intra.example:8080", 'host:"intra.example:8080"'),
        ('a"b', 'host:"a\\"b"'),
        ("c:\\dir", 'host:"c:\\\\dir"'),
    ],
)
def test_term_query_escapes_what_a_phrase_needs(value: str, query: str) -> None:
    assert term_query("host", value) == query
