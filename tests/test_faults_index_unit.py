"""The index side's failure rules without sockets: a fake Solr client behind the index stage,
the sink's drain and reindex's reconciliation; the status translation as a table."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.runs import RunRecord
from indexer.crawl.frontier.schema import FRONTIER
from indexer.crawl.frontier.view import FrontierView
from indexer.errors import (
    SolrAuthError,
    SolrDocumentError,
    SolrError,
    SolrRejectedError,
    SolrSchemaError,
    SolrUnavailableError,
)
from indexer.index.client import in_thread
from indexer.index.outbox import Outbox
from indexer.index.sink import DocumentSink
from indexer.index.stage import IndexStage
from indexer.pipeline.phases import Phase, RunPhases, StopEvent, stop_remaining
from indexer.pipeline.reconcile import MissedRuns, guard
from indexer.settings import Settings, SolrSettings
from indexer.solr.connection import http_error

URL = "http://127.0.0.1:1/solr/pages/update"


class FakeSolr:
    """A :class:`indexer.index.client.SolrClient` in memory.

    ``failures`` are raised by the next update or commit calls, one each, in order; a
    document with ``"bad": True`` makes its batch fail as Solr does for a value it cannot
    parse; ``block`` makes every call wait until it is cleared.
    """

    def __init__(self, failures: Sequence[SolrError] = ()) -> None:
        self.failures = list(failures)
        self.docs: dict[str, dict[str, Any]] = {}
        self.calls = 0
        self.commits = 0
        self.block = threading.Event()
        self.ids: dict[str, list[str]] = {}

    def _next_failure(self) -> None:
        self.calls += 1
        while self.block.is_set():
            time.sleep(0.01)
        if self.failures:
            raise self.failures.pop(0)

    def update(self, adds: Sequence[dict[str, Any]], deletes: Sequence[str]) -> None:
        self._next_failure()
        if any(doc.get("bad") for doc in adds):
            raise SolrDocumentError(f"{URL}: HTTP 400: ERROR: [doc=x] Invalid Date String", 400)
        for doc_id in deletes:
            self.docs.pop(doc_id, None)
        self.docs.update({str(doc["id"]): dict(doc) for doc in adds})

    def commit(self) -> None:
        self._next_failure()
        self.commits += 1

    def delete_query(self, query: str) -> None:
        raise AssertionError("not used here")

    def host_ids(self, host: str) -> list[str]:
        return self.ids.get(host, [])


def _outbox(tmp_path: Path, count: int, bad: frozenset[int] = frozenset()) -> Outbox:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(count):
        outbox.add({"id": f"http://h.test/{i}", "host": "h.test", "bad": i in bad})
    return outbox


async def _drain(
    outbox: Outbox, fake: FakeSolr, cfg: SolrSettings
) -> tuple[list[str], list[int], IndexStage]:
    rejected: list[str] = []
    indexed: list[int] = []
    stage = IndexStage(outbox, fake, cfg, lambda i, m: rejected.append(i), indexed.append)
    stage.close()
    await asyncio.wait_for(stage.run(), 60)
    return rejected, indexed, stage


@pytest.mark.parametrize(
    ("status", "data", "kind"),
    [
        (400, {"error": {"msg": "ERROR: [doc=a] unknown field 'tags'"}}, SolrSchemaError),
        (400, {"error": {"msg": "ERROR: [doc=a] Invalid Date String:'x'"}}, SolrDocumentError),
        (400, None, SolrRejectedError),  # a 400 from a proxy names no document
        (404, None, SolrRejectedError),
        (404, {"error": {"msg": "Not Found"}}, SolrRejectedError),
        (401, None, SolrAuthError),
        (403, {"error": {"msg": "Forbidden"}}, SolrAuthError),
        (503, None, SolrUnavailableError),
        (500, {"error": {"msg": "boom"}}, SolrUnavailableError),
        (200, None, SolrUnavailableError),  # a success that is not Solr's JSON
    ],
)
def test_http_status_translation(status: int, data: dict[str, Any] | None, kind: type) -> None:
    error = http_error(URL, status, data)
    assert type(error) is kind
    if kind is SolrSchemaError:
        assert "indexer solr update-config" in str(error)


async def test_poison_document_is_isolated_by_halving(tmp_path: Path) -> None:
    fake = FakeSolr()
    outbox = _outbox(tmp_path, 16, bad=frozenset({11}))
    rejected, indexed, _ = await _drain(outbox, fake, SolrSettings(batch_size=16))
    assert rejected == ["http://h.test/11"]
    assert sum(indexed) == 15 and len(fake.docs) == 15 and outbox.count() == 0
    assert fake.calls <= 1 + 2 * 4 + 1  # log2(16) levels of two halves, and the commit


@pytest.mark.parametrize(
    "failure",
    [
        SolrRejectedError(f"{URL}: HTTP 404: not found", 404),
        SolrRejectedError(f"{URL}: HTTP 400: not a Solr answer", 400),
        SolrUnavailableError(f"{URL}: HTTP 503: down"),
        SolrUnavailableError(f"{URL}: no answer (cannot connect)"),
    ],
)
async def test_status_that_blames_no_document_is_retried_not_rejected(
    tmp_path: Path, failure: SolrError
) -> None:
    fake = FakeSolr([failure] * 2)
    outbox = _outbox(tmp_path, 10)
    rejected, indexed, stage = await _drain(outbox, fake, SolrSettings(batch_size=4))
    assert rejected == [] and sum(indexed) == 10 and len(fake.docs) == 10
    assert outbox.count() == 0 and stage.healthy.is_set() and fake.commits == 1


@pytest.mark.parametrize(
    ("failure", "named"),
    [
        (SolrAuthError(f"{URL}: Solr refused the credentials (HTTP 401)"), "HTTP 401"),
        (
            http_error(URL, 400, {"error": {"msg": "ERROR: [doc=a] unknown field 'x'"}}),
            "indexer solr update-config",
        ),
    ],
)
async def test_refused_credentials_or_schema_pause_with_one_line_then_recover(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, failure: SolrError, named: str
) -> None:
    fake = FakeSolr([failure] * 3)
    outbox = _outbox(tmp_path, 5)
    with caplog.at_level(logging.WARNING, logger="indexer.index.stage"):
        rejected, indexed, _ = await _drain(outbox, fake, SolrSettings(batch_size=5))
    lines = [r.getMessage() for r in caplog.records if named in r.getMessage()]
    assert len(lines) == 1 and "fetching paused" in lines[0] and "solr.auth_wait" in lines[0]
    assert rejected == [] and sum(indexed) == 5 and outbox.count() == 0


async def test_refused_past_auth_wait_ends_the_stage_and_keeps_the_outbox(tmp_path: Path) -> None:
    failure = SolrAuthError(f"{URL}: Solr refused the credentials (HTTP 401)")
    fake = FakeSolr([failure] * 1000)
    outbox = _outbox(tmp_path, 5)
    started = time.monotonic()
    with pytest.raises(SolrAuthError):
        await _drain(outbox, fake, SolrSettings(batch_size=5, auth_wait=1.0))
    assert time.monotonic() - started < 5 and outbox.count() == 5 and not fake.docs


def solr_sink(settings: Settings, fake: FakeSolr) -> DocumentSink:
    """An opened sink that sends to ``fake`` through the outbox, ignoring its callbacks."""
    sink = DocumentSink(
        settings,
        out=None,
        use_solr=True,
        append=False,
        on_rejected=lambda i, m: None,
        on_indexed=lambda n: None,
        client=fake,
    )
    sink.open()
    return sink


async def test_a_stopped_drain_ends_within_its_grace_and_keeps_the_unsent(
    tmp_path: Path,
) -> None:
    fake = FakeSolr()
    fake.block.set()  # Solr takes a request and never answers
    settings = Settings().model_copy(
        update={"crawl": Settings().crawl.model_copy(update={"data_dir": tmp_path})}
    )
    sink = solr_sink(settings, fake)
    for i in range(7):
        sink.add({"id": f"http://h.test/{i}", "host": "h.test"}, "text", update=False)
    stop = StopEvent()
    loop = asyncio.get_running_loop()
    loop.call_later(0.8, stop.set)
    started = time.monotonic()
    await sink.close(stop, lambda: stop_remaining(stop, 1.0))
    assert 0.8 <= time.monotonic() - started < 2.5
    assert sink.pending == 7 and not fake.docs
    fake.block.clear()


async def test_in_thread_returns_raises_and_abandons_on_cancel() -> None:
    assert await in_thread(sum, [1, 2]) == 3
    with pytest.raises(ZeroDivisionError):
        await in_thread(lambda: 1 / 0)
    task = asyncio.ensure_future(in_thread(time.sleep, 5))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 0.5


def test_grace_runs_count_misses_in_a_row_and_reset_when_reached(tmp_path: Path) -> None:
    missed = MissedRuns(tmp_path / "missed.sqlite3")
    in_solr = ["http://h.test/a", "http://h.test/b"]
    assert missed.update({"http://h.test/a"}, in_solr) == {"http://h.test/b": 1}
    assert missed.update(set(), in_solr) == {"http://h.test/a": 1, "http://h.test/b": 2}
    assert missed.update({"http://h.test/b"}, in_solr) == {"http://h.test/a": 2}
    missed.forget(["http://h.test/a"])
    assert missed.update(set(), in_solr) == {"http://h.test/a": 1, "http://h.test/b": 1}
    missed.close()


def test_guard_refuses_hosts_over_the_delete_share_only() -> None:
    settings = Settings()  # reindex.max_delete_share 0.2
    deletes = {"a.test": ["1", "2", "3"], "b.test": ["1"]}
    refused = guard(settings, deletes, {"a.test": 10, "b.test": 10})
    assert len(refused) == 1 and refused[0].message.startswith("a.test: 3 of 10")
    assert guard(settings, {"a.test": ["1", "2"]}, {"a.test": 10}) == []


class _Store:
    def __init__(self) -> None:
        self.rows: list[tuple[str, int | None, str]] = []

    def set_phase(self, phase: str, exit_code: int | None = None, reason: str = "") -> None:
        self.rows.append((phase, exit_code, reason))


@pytest.mark.parametrize(
    ("stopped", "failure", "pending", "phase", "code"),
    [
        (False, "", 0, Phase.FINISHED, 0),
        (True, "", 3, Phase.INTERRUPTED, 130),
        (True, "Solr refused the credentials", 3, Phase.FAILED, 1),
        (False, "", 3, Phase.FAILED, 1),
    ],
)
def test_how_a_run_ends(stopped: bool, failure: str, pending: int, phase: Phase, code: int) -> None:
    store = _Store()
    phases = RunPhases(store)
    phases.enter(Phase.DRAINING)
    end = phases.conclude(stopped=stopped, failure=failure, pending=pending)
    assert (end.phase, end.exit_code, end.stopped_in) == (phase, code, Phase.DRAINING)
    assert store.rows[-1][:2] == (phase, code) and "\n" not in end.reason
    kept = RunPhases(_Store()).conclude(stopped=False, failure="", pending=0, keep_open=True)
    assert kept.phase == Phase.FINISHED


def test_retract_turns_pending_adds_of_a_host_into_deletes_in_one_go(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    outbox.add({"id": "http://a.test/1"})
    outbox.add({"id": "http://b.test/1"})
    outbox.delete("http://a.test/gone")
    queued = outbox.retract(lambda doc_id: doc_id.startswith("http://a.test/"), also=["x"])
    assert queued == ["http://a.test/1", "x"]
    pending = {c.doc_id: c.action for c in outbox.pending(10, 1 << 20)}
    assert pending == {
        "http://b.test/1": "add",
        "http://a.test/gone": "delete",
        "http://a.test/1": "delete",
        "x": "delete",
    }
    outbox.settle_deletes(queued)
    assert {c.doc_id for c in outbox.pending(10, 1 << 20)} == {
        "http://b.test/1",
        "http://a.test/gone",
    }
    outbox.close()


def test_an_old_frontier_gains_the_run_columns_and_reads_without_them(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "frontier.sqlite3")
    db.executescript(FRONTIER.schema)  # the first schema: runs without phase columns
    db.execute("INSERT INTO runs (started, finished) VALUES (1, 2)")
    db.commit()
    db.close()
    with FrontierView(tmp_path) as view:
        assert view.runs() == [RunRecord(1, None, None, "", True)]
    with Frontier(tmp_path) as frontier:
        frontier.start_run(resume=True)  # the old run was finished: a new one starts
        frontier.set_phase("draining")
    with FrontierView(tmp_path) as view:
        assert view.runs()[-1] == RunRecord(2, "draining", None, "", False)
    with Frontier(tmp_path) as frontier:
        assert frontier.start_run(resume=True) == 2  # not finished: --resume continues it
        frontier.set_phase("finished", 0)
    with FrontierView(tmp_path) as view:
        assert view.runs()[-1] == RunRecord(2, "finished", 0, "", True)
