"""``indexer delete`` during a crawl of several processes on one PostgreSQL frontier (issue
#20): each process reads the tombstones again while it runs (not only at its start), and
its outbox drops the adds of a buried URL or host before it sends them, so a delete stops
pending adds everywhere. Real PostgreSQL; Solr is the in-memory fake of the stage tests."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from indexer.crawl.frontier.postgres.store import PgFrontier
from indexer.crawl.frontier.tombstones import TOMBSTONES_EVERY
from indexer.index.outbox import Outbox
from indexer.index.stage import IndexStage
from indexer.settings import SolrSettings
from tests.test_faults_index_unit import FakeSolr

HOST, OTHER = "127.0.0.1:9", "127.0.0.2:9"


def test_a_running_process_sees_a_later_delete_and_its_outbox_drops_the_adds(
    pg_url: str, tmp_path: Path
) -> None:
    crawling = PgFrontier(pg_url, tmp_path / "crawl")
    crawling.start_run(resume=False)
    gone, kept = f"http://{HOST}/gone.html", f"http://{HOST}/kept.html"
    outbox = Outbox(tmp_path / "crawl" / "outbox.sqlite3")
    for url in (gone, kept, f"http://{OTHER}/a.html", f"http://{OTHER}/b.html"):
        outbox.add({"id": url, "host": url.split("/")[2]})
    assert not crawling.tombstones.buries(gone)
    deleting = PgFrontier(pg_url, tmp_path / "delete", create=False)  # `indexer delete`
    deleting.tombstones.bury_url(gone)
    deleting.tombstones.bury_host(OTHER)
    deleting.close()
    fake = FakeSolr()
    stage = IndexStage(
        outbox,
        fake,
        SolrSettings(batch_size=10),
        lambda i, m: None,
        lambda n: None,
        buried_among=crawling.tombstones.buried_among,
    )
    stage.close()
    try:
        asyncio.run(asyncio.wait_for(stage.run(), 60))
        assert sorted(fake.docs) == [kept], "a buried add was sent"
        assert outbox.count() == 0, "the dropped adds left the outbox"
        time.sleep(TOMBSTONES_EVERY + 0.05)
        assert crawling.tombstones.buries(gone), "the running process never read the delete"
        assert crawling.tombstones.buries(f"http://{OTHER}/new.html")
        assert not crawling.tombstones.buries(kept)
    finally:
        outbox.close()
        crawling.close()
