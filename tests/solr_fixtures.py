"""Helpers shared by the SolrCloud and secured-Solr tests: ports, the CLI, analysis, crawl."""

from __future__ import annotations

import shutil
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest
import requests

import indexer.cli
from indexer.cli import solr_cmd
from tests.conftest import CONFIGSET_DIR

Main = Callable[[Sequence[str]], int]


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports on 127.0.0.1 that were free a moment ago."""
    socks = [socket.socket() for _ in range(count)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def solr_only_cli(monkeypatch: pytest.MonkeyPatch) -> Main:
    """``indexer.cli.main`` with only the ``solr`` command registered (other commands may be
    half-written in the shared tree)."""

    def only_solr() -> list[ModuleType]:
        return [solr_cmd]

    monkeypatch.setattr(indexer.cli, "_command_modules", only_solr)
    return indexer.cli.main


def crawl_command(args: list[str]) -> list[str]:
    """The command line of ``indexer crawl ARGS`` in a child Python."""
    return [sys.executable, "-m", "indexer", "crawl", *args]


def content_tokens(
    url: str, core: str, text: str, auth: tuple[str, str] | None = None
) -> list[str]:
    """Tokens the ``content`` field's index analyzer makes of ``text`` (field analysis API)."""
    resp = requests.get(
        f"{url}/{core}/analysis/field",
        params={"analysis.fieldname": "content", "analysis.fieldvalue": text},
        auth=auth,
        timeout=30,
    )
    resp.raise_for_status()
    stages = resp.json()["analysis"]["field_names"]["content"]["index"]
    return [token["text"] for token in stages[-1]]


def configset_with_stopword(target: Path, word: str) -> Path:
    """A copy of the bundled configset at ``target`` whose Japanese stop words add ``word``."""
    shutil.copytree(CONFIGSET_DIR, target)
    with (target / "lang" / "stopwords_ja.txt").open("a", encoding="utf-8") as out:
        out.write(f"{word}\n")
    return target
