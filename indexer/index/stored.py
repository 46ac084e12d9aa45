"""Documents as the outbox stores them: JSON text, sent to Solr as it is.

The outbox keeps each add as the JSON text of its document (``json.dumps``, real UTF-8).
Parsing it back into a dict on the event loop and encoding it again in the writer costs
about 85 CPU-ms per 1,000 crawl-sized documents (``scripts/bench/solr_cost.py``); splicing
the stored texts into one JSON array costs about 30. :class:`StoredDoc` is a read-only
mapping over that text, parsed only when a field is read (the fakes of the tests read
them; the real writer does not), and :func:`json_array` makes the update body of a batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any


class StoredDoc(Mapping[str, Any]):
    """A Solr document held as its JSON text (an object), parsed on first field access.

    Args:
        text: the document's JSON object, as :meth:`indexer.index.outbox.Outbox.add` stored
            it.
    """

    __slots__ = ("_fields", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._fields: dict[str, Any] | None = None

    def _parsed(self) -> dict[str, Any]:
        if self._fields is None:
            self._fields = json.loads(self.text)
        return self._fields

    def __getitem__(self, key: str) -> Any:
        return self._parsed()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsed())

    def __len__(self) -> int:
        return len(self._parsed())


def json_array(docs: Sequence[Mapping[str, Any]]) -> bytes:
    """The UTF-8 JSON array of ``docs``: a :class:`StoredDoc`'s text as it is, any other
    mapping through ``json.dumps`` (real UTF-8, not ``\\u`` escapes)."""
    parts = [
        doc.text if isinstance(doc, StoredDoc) else json.dumps(doc, ensure_ascii=False)
        for doc in docs
    ]
    return ("[" + ",".join(parts) + "]").encode("utf-8")
