"""``indexer crawl --join`` takes the running crawl's scope and shared settings it was not given
(issue #20, views of a shared run): the drain command ``indexer report`` prints,
``indexer crawl --frontier URL --join --data-dir DIR``, joins as printed; a value given
(flag, environment, ``--config``) that differs is still refused, naming the setting and both
values (the refusals themselves: :mod:`tests.test_pg_join`). Real PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from indexer.crawl.frontier.opening import open_frontier
from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.postgres.view import PgFrontierView
from indexer.errors import ConfigError
from indexer.pipeline.join import join_or_lead
from indexer.settings import Settings, load_settings
from tests.faults_helpers import cli
from tests.faultserver import FaultServer
from tests.test_pg_join import psycopg_open_run

#: The first process's scope and politeness, none of them a default.
STARTED = ["--delay", "0.3", "--allow-host", "127.0.0.9", "--max-depth", "2"]
STARTED += ["--formats", "html,pdf", "--per-host", "2", "--max-pages", "40"]
STARTED += ["--max-pages-per-host", "7"]
#: The first process's lease time (no flag: its environment), not the default either.
LEASE = "12"


def _started(pg_url: str, tmp_path: Path, srv: FaultServer) -> None:
    """A crawl with :data:`STARTED` and :data:`LEASE` ran on ``pg_url``; its run is open
    again (it crawls)."""
    srv.page("/", "home", [])
    first = ["--frontier", pg_url, "--data-dir", str(tmp_path / "d"), "-q"]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("INDEXER_FRONTIER_LEASE_SECONDS", LEASE)
        code, err = cli("crawl", srv.url("/"), *first, *STARTED, "--out", f"{tmp_path}/d.jsonl")
    assert code == 0, err
    psycopg_open_run(pg_url).__enter__()


def _join(
    pg_url: str,
    data_dir: Path,
    flags: dict[str, Any],
    env: dict[str, str],
    *,
    use_solr: bool = False,
) -> Settings:
    """``join_or_lead`` for a ``--join`` process given ``flags`` and ``env`` (writing ``--out``
    files only, as :func:`_started`'s crawl, unless ``use_solr``): its settings."""
    base = {"frontier.url": pg_url, "crawl.data_dir": data_dir, "crawl.resume": True}
    loaded = load_settings(flags=base | flags, environ=env)
    with open_frontier(loaded.settings, create=False) as frontier:
        joined = join_or_lead(
            frontier, loaded.settings, loaded.sources, join=True, use_solr=use_solr
        )
        assert isinstance(frontier, PgFrontier)
        held = (frontier.leases.delay, frontier.leases.seconds, frontier.host_cap.limit)
    limits = (joined.fetch.delay, joined.frontier.lease_seconds, joined.crawl.max_pages_per_host)
    assert held == limits, held
    return joined


def test_a_join_given_nothing_takes_the_running_crawls_scope_and_politeness(
    pg_url: str, tmp_path: Path
) -> None:
    with FaultServer() as srv:
        _started(pg_url, tmp_path, srv)
        seed = srv.url("/")
    joined = _join(pg_url, tmp_path / "j", {}, {})
    assert (joined.fetch.delay, joined.fetch.per_host) == (0.3, 2)
    assert (joined.frontier.lease_seconds, joined.crawl.max_pages_per_host) == (float(LEASE), 7)
    assert joined.crawl.allow_hosts == ("127.0.0.9",) and joined.crawl.seeds == (seed,)
    assert (joined.crawl.max_depth, joined.crawl.max_pages) == (2, 40)
    assert joined.crawl.formats == ("html", "pdf")
    # a value given that equals the stored one joins; one that differs is refused
    same = _join(pg_url, tmp_path / "j", {"fetch.delay": 0.3}, {})
    assert same.fetch.delay == 0.3 and same.crawl.allow_hosts == ("127.0.0.9",)
    with pytest.raises(ConfigError, match=r"fetch\.delay.*\(0\.5, it has 0\.3\)"):
        _join(pg_url, tmp_path / "j", {"fetch.delay": 0.5}, {})
    with pytest.raises(ConfigError, match=r"crawl\.max_depth.*\(5, it has 2\)"):
        _join(pg_url, tmp_path / "j", {}, {"INDEXER_CRAWL_MAX_DEPTH": "5"})
    # what is indexed and how URLs are normalized are the run's too (a fresh attack:
    # --join --ignore-noindex was accepted beside a crawl that obeys noindex)
    with pytest.raises(ConfigError, match=r"crawl\.obey_noindex.*\(False, it has True\)"):
        _join(pg_url, tmp_path / "j", {"crawl.obey_noindex": False}, {})
    with pytest.raises(ConfigError, match=r"crawl\.strip_params"):
        _join(pg_url, tmp_path / "j", {"crawl.strip_params": ("sid",)}, {})


def test_the_printed_drain_command_joins_as_printed(pg_url: str, tmp_path: Path) -> None:
    with FaultServer() as srv:
        _started(pg_url, tmp_path, srv)
        code, err = cli(
            "crawl", "--frontier", pg_url, "--join", "--data-dir", str(tmp_path / "j"),
            "--out", str(tmp_path / "j.jsonl"), "-q",
        )  # fmt: skip
    assert code == 0, err
    with PgFrontierView(pg_url) as view:
        last = view.runs()[-1]
    assert (last.phase, last.finished, last.exit_code) == ("finished", True, 0), last


def test_a_join_sending_its_documents_elsewhere_is_refused_naming_both(
    pg_url: str, tmp_path: Path
) -> None:
    """A fresh attack: ``crawl --join --out`` beside a crawl into Solr was accepted, and the run
    said finished with part of its pages in no index. No Solr is contacted here: the refusal
    comes first."""
    with FaultServer() as srv:
        _started(pg_url, tmp_path, srv)  # --out files only
    with pytest.raises(ConfigError, match=r"solr\.url.*sends them to --out files only"):
        _join(pg_url, tmp_path / "j", {}, {}, use_solr=True)
    solr = "http://127.0.0.1:9/solr"  # never contacted
    same = {"fetch.delay": 0.3, "crawl.allow_hosts": ("127.0.0.9",), "crawl.max_depth": 2}
    same |= {"crawl.formats": ("html", "pdf"), "fetch.per_host": 2, "crawl.max_pages": 40}
    same |= {"crawl.max_pages_per_host": 7, "crawl.data_dir": tmp_path / "d"}
    lead = load_settings(  # as STARTED, into Solr
        flags={"frontier.url": pg_url, "solr.url": solr, **same},
        environ={"INDEXER_FRONTIER_LEASE_SECONDS": LEASE},
    )
    with open_frontier(lead.settings, create=False) as frontier:  # a crawl into Solr leads
        join_or_lead(frontier, lead.settings, lead.sources, join=False, use_solr=True)
    psycopg_open_run(pg_url).__enter__()
    with pytest.raises(ConfigError, match=r"--out.*sends them to http://127\.0\.0\.1:9/solr/pages"):
        _join(pg_url, tmp_path / "j", {}, {}, use_solr=False)
    with pytest.raises(ConfigError, match=r"solr\.url.*differs"):
        _join(pg_url, tmp_path / "j", {"solr.url": "http://127.0.0.1:8/solr"}, {}, use_solr=True)
    with pytest.raises(ConfigError, match=r"solr\.core.*differs"):
        _join(pg_url, tmp_path / "j", {"solr.core": "other"}, {}, use_solr=True)
    joined = _join(pg_url, tmp_path / "j", {}, {}, use_solr=True)
    assert joined.solr.url == solr, "a join given no Solr URL takes the running crawl's"
