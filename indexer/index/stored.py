"""Documents as the outbox stores them: JSON text, parsed when a field is read.

The outbox keeps each add as the JSON text of its document (``json.dumps``, real UTF-8).
:class:`StoredDoc` is a read-only mapping over that text, parsed on first access and not on
the event loop: the writer's pysolr reads the fields in its worker thread (``Solr.add``
drops empty fields and encodes the batch again: about 85 CPU-ms per 1,000 crawl-sized
documents against 30 for splicing the stored texts, ``scripts/bench/solr_cost.py``; the
price of one well-kept client).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
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
