"""A ``--processes`` child that finds the run closed ends with nothing to do (issue #20).

With ``--processes 2 --resume`` and little left, process 0 can finish the run before the
parent starts process 1 (``--join``): its join then found no open run and was refused
(exit 2), so the whole launch looked failed although every page was done. From a user the
refusal stands.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from indexer.cli.crawl_cmd import _joined
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.errors import NoOpenRunError
from indexer.settings import load_settings


def _args(from_parent: int | None) -> argparse.Namespace:
    return argparse.Namespace(join=True, from_parent=from_parent)


def test_a_child_of_the_parent_that_finds_the_run_closed_has_nothing_to_do(
    pg_url: str, tmp_path: Path
) -> None:
    settings = load_settings(flags={"frontier.url": pg_url}, environ={}).settings
    with PgFrontier(pg_url, tmp_path / "a") as lead:
        lead.start_run(resume=False)
        lead.finish_run()
    with PgFrontier(pg_url, tmp_path / "b", create=False) as child:
        assert not _joined(child, settings, _args(from_parent=3), True), "a child: nothing to do"
        with pytest.raises(NoOpenRunError, match="--join: no crawl runs"):
            _joined(child, settings, _args(from_parent=None), True)  # a user's --join: refused
