"""The outbox's stored JSON goes to Solr as it is (issue #16: cheaper JSON): a batch's
update body splices the stored texts, parsing none of them; fields are read on demand."""

from __future__ import annotations

import json
from pathlib import Path

from indexer.index.outbox import Outbox
from indexer.index.stored import StoredDoc, json_array


def test_the_update_body_splices_the_stored_texts_without_parsing_them(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    docs = [{"id": f"http://h.test/{i}", "title": f"夏祭り {i}", "depth": i} for i in range(3)]
    for doc in docs:
        outbox.add(doc)
    outbox.delete("http://h.test/gone")
    batch = outbox.pending(10, 1 << 20)
    stored = [d for c in batch if (d := c.doc) is not None]
    assert [c.doc for c in batch if c.action == "delete"] == [None]
    body = json_array(stored)
    assert all(isinstance(d, StoredDoc) and d._fields is None for d in stored), "parsed"
    assert body == ("[" + ",".join(c.payload or "" for c in batch[:3]) + "]").encode("utf-8")
    assert json.loads(body) == docs
    assert "夏祭り".encode() in body, "Japanese sent as UTF-8, not as \\u escapes"
    outbox.close()


def test_a_stored_doc_reads_like_the_dict_it_holds_and_mixes_with_dicts() -> None:
    doc = StoredDoc('{"id": "a", "bad": true}')
    assert doc["id"] == "a" and doc.get("bad") is True and dict(doc) == {"id": "a", "bad": True}
    assert len(doc) == 2 and doc.get("title") is None
    assert json.loads(json_array([doc, {"id": "b"}])) == [{"id": "a", "bad": True}, {"id": "b"}]


def test_an_ack_is_one_transaction_and_joins_a_grouping_of_commits(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    for i in range(50):
        outbox.add({"id": f"http://h.test/{i}"})
    statements: list[str] = []
    batch = outbox.pending(20, 1 << 20)
    outbox.connection.set_trace_callback(statements.append)
    outbox.ack(batch)
    outbox.connection.set_trace_callback(None)
    deletes = [i for i, s in enumerate(statements) if s.startswith("DELETE")]
    assert len(deletes) == 20
    assert statements[0] == "SAVEPOINT ack" and statements[-1] == "RELEASE ack", statements[:3]
    assert outbox.count() == 30
    outbox.connection.execute("BEGIN")  # as the crawl's grouped commits hold it
    outbox.ack(outbox.pending(20, 1 << 20))
    assert outbox.connection.in_transaction, "the ack committed the grouping's transaction"
    outbox.connection.execute("ROLLBACK")
    assert outbox.count() == 30
    outbox.close()
