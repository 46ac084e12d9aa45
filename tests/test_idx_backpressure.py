"""The outbox's high-water mark pauses dispatching (``solr.outbox_high_water``), with a count
that scans at most one row past the mark."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from indexer.index.outbox import Outbox
from indexer.index.sink import DocumentSink
from indexer.pipeline.phases import StopEvent, stop_remaining
from indexer.settings import Settings
from tests.test_faults_index_unit import FakeSolr, solr_sink


def test_a_bounded_count_stops_at_its_bound(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(5):
        outbox.add({"id": f"http://h.test/{i}", "host": "h.test"})
    assert outbox.count() == 5
    assert outbox.count(at_most=2) == 2 and outbox.count(at_most=9) == 5
    outbox.close()


async def _sink(tmp_path: Path, high_water: int, fake: FakeSolr) -> DocumentSink:
    base = Settings()
    settings = base.model_copy(
        update={
            "crawl": base.crawl.model_copy(update={"data_dir": tmp_path}),
            "solr": base.solr.model_copy(update={"outbox_high_water": high_water}),
        }
    )
    sink = solr_sink(settings, fake)
    for i in range(5):
        sink.add({"id": f"http://h.test/{i}", "host": "h.test"}, "text", update=False)
    return sink


@pytest.mark.parametrize("high_water, paused", [(3, True), (10, False)])
async def test_dispatching_waits_while_the_outbox_is_over_its_high_water(
    tmp_path: Path, high_water: int, paused: bool
) -> None:
    fake = FakeSolr()
    fake.block.set()  # Solr takes a request and never answers: the outbox keeps its 5
    sink = await _sink(tmp_path, high_water, fake)
    stop = StopEvent()
    try:
        waited = asyncio.wait_for(sink.wait_ready(stop), 0.6)
        if paused:
            with pytest.raises(TimeoutError):
                await waited
        else:
            await waited
    finally:
        stop.set()
        await sink.close(stop, lambda: stop_remaining(stop, 0.5))
        fake.block.clear()
