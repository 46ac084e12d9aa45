"""The outbox's stored JSON: fields are read on demand; an ack is one transaction."""

from __future__ import annotations

from pathlib import Path

from indexer.index.outbox import Outbox
from indexer.index.stored import StoredDoc


def test_a_stored_doc_is_parsed_on_first_read_and_reads_like_its_dict() -> None:
    doc = StoredDoc('{"id": "a", "bad": true}')
    assert doc._fields is None, "parsed before a field was read"
    assert doc["id"] == "a" and doc.get("bad") is True and dict(doc) == {"id": "a", "bad": True}
    assert len(doc) == 2 and doc.get("title") is None


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
