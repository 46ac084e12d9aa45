"""Two update requests in flight (issue #16), against the real Solr through a loopback proxy
that holds the first update until a second one arrives: the stage keeps two in flight, the
changes of one id still reach Solr in the outbox's order (a delete or a newer add queued
while the id's add is in flight waits for its answer), and a failed request of two leaves
its changes in the outbox until Solr takes them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from aiohttp import web

from indexer.index.outbox import Outbox
from indexer.index.stage import IndexStage
from indexer.index.writer import SolrWriter
from indexer.settings import SolrSettings
from tests.solrproxy import SolrProxy

pytestmark = [pytest.mark.solr]
BATCH = 20
HOLD = 3.0


class HoldingProxy(SolrProxy):
    """Holds the first update (a request with ``commitWithin``) until a second update
    arrives or ``HOLD`` seconds pass; counts the updates in flight at once (``most``)."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.held = threading.Event()
        self.active = 0
        self.most = 0
        self.commit_within: set[str] = set()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if "/update" not in request.path or "commitWithin" not in request.query:
            return await super()._handle(request)
        self.commit_within.add(request.query["commitWithin"])
        self.active += 1
        self.most = max(self.most, self.active)
        try:
            if not self.held.is_set():
                self.held.set()
                deadline = time.monotonic() + HOLD
                while self.active < 2 and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
            return await super()._handle(request)
        finally:
            self.active -= 1


@pytest.fixture
def proxy(solr_core: tuple[str, str]) -> Iterator[HoldingProxy]:
    with HoldingProxy(solr_core[0]) as running:
        yield running


def _doc(i: int, title: str = "v1") -> dict[str, str]:
    return {
        "id": f"http://h.test/{i}",
        "url": f"http://h.test/{i}",
        "host": "h.test",
        "title": title,
    }


def _stored(base: str) -> dict[str, str]:
    resp = requests.get(
        f"{base}/pages/select", params={"q": "*:*", "fl": "id,title", "rows": 1000}, timeout=30
    )
    return {d["id"]: d["title"] for d in resp.json()["response"]["docs"]}


async def _run(
    outbox: Outbox, stage: IndexStage, proxy: HoldingProxy, queue_meanwhile: bool
) -> None:
    task = asyncio.create_task(stage.run())
    if queue_meanwhile:  # while the first batch is held at the proxy
        while not proxy.held.is_set():
            await asyncio.sleep(0.01)
        outbox.delete(_doc(5)["id"])
        outbox.add(_doc(7, "v2"))
        for i in range(100, 100 + BATCH - 2):  # with the two: a full batch waits
            outbox.add(_doc(i))
        stage.notify()
    stage.close()
    await asyncio.wait_for(task, 60)


def _stage(tmp_path: Path, proxy: HoldingProxy, docs: int) -> tuple[Outbox, IndexStage]:
    cfg = SolrSettings(url=proxy.url, core="pages", batch_size=BATCH, backoff_base=0.1)
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(docs):
        outbox.add(_doc(i))
    return outbox, IndexStage(outbox, SolrWriter(cfg), cfg, lambda i, m: None, lambda n: None)


def test_two_update_requests_are_in_flight_at_once(
    tmp_path: Path, proxy: HoldingProxy, solr_core: tuple[str, str]
) -> None:
    outbox, stage = _stage(tmp_path, proxy, 3 * BATCH)
    asyncio.run(_run(outbox, stage, proxy, queue_meanwhile=False))
    assert proxy.most == 2, "the second batch waited for the first one's answer"
    assert proxy.commit_within == {"60000"}, "soft commits every 10 s cost Solr ~18 % more CPU"
    assert len(_stored(solr_core[0])) == 3 * BATCH
    assert outbox.count() == 0


def test_a_change_queued_while_its_id_is_in_flight_goes_after_the_answer(
    tmp_path: Path, proxy: HoldingProxy, solr_core: tuple[str, str]
) -> None:
    outbox, stage = _stage(tmp_path, proxy, BATCH)
    asyncio.run(_run(outbox, stage, proxy, queue_meanwhile=True))
    stored = _stored(solr_core[0])
    assert _doc(5)["id"] not in stored, "the delete overtook the add in flight"
    assert stored[_doc(7)["id"]] == "v2", "the newer add overtook the older one in flight"
    assert len(stored) == 2 * BATCH - 3
    assert outbox.count() == 0


def test_a_failed_request_of_two_is_sent_again_and_the_other_acknowledged(
    tmp_path: Path, proxy: HoldingProxy, solr_core: tuple[str, str]
) -> None:
    proxy.force(503, times=1)  # the held first request fails, the second goes through
    outbox, stage = _stage(tmp_path, proxy, 3 * BATCH)
    asyncio.run(_run(outbox, stage, proxy, queue_meanwhile=False))
    assert len(proxy.forced()) == 1
    assert proxy.most == 2
    assert len(_stored(solr_core[0])) == 3 * BATCH
    assert outbox.count() == 0
    assert stage.healthy.is_set()


def test_next_batch_leaves_out_the_ids_in_flight_and_says_when_capped(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(5):
        outbox.add(_doc(i))
    first, capped = outbox.next_batch(2, 1 << 20)
    assert [c.doc_id for c in first] == [_doc(0)["id"], _doc(1)["id"]] and capped
    outbox.delete(_doc(1)["id"])  # a newer change of an id in flight
    busy = {c.doc_id for c in first}
    rest, capped = outbox.next_batch(10, 1 << 20, busy)
    assert [c.doc_id for c in rest] == [_doc(i)["id"] for i in (2, 3, 4)] and not capped
    outbox.ack(first)
    after, _ = outbox.next_batch(10, 1 << 20)
    assert [(c.doc_id, c.action) for c in after][-1] == (_doc(1)["id"], "delete")
    outbox.close()
