"""LateDeletes notices new tombstones also when another caller read them first (issue #20).

The outbox's look before it sends (``Tombstones.buried_among``) reads the table again too;
when it came first, the frontier's next look saw no change, so the rows a process wrote
for a deleted host before it knew of the delete stayed, counted as indexed (a flaky
``test_pgv_deleted`` under load).
"""

from __future__ import annotations

from typing import Any

from indexer.crawl.frontier.postgres.latedeletes import LateDeletes


class _Tombstones:
    """A stand-in: ``refresh`` replaces the sets, as ``Tombstones.refresh`` does."""

    def __init__(self) -> None:
        self.hosts: set[str] = set()
        self.urls: set[str] = set()
        self.table: tuple[set[str], set[str]] = (set(), set())

    def refresh(self) -> None:
        self.hosts, self.urls = set(self.table[0]), set(self.table[1])

    def buries(self, url: str) -> bool:
        return url in self.urls or url.split("/")[2] in self.hosts


def test_a_delete_read_first_by_the_outbox_is_still_applied_to_the_frontier() -> None:
    stones = _Tombstones()
    forgotten: list[Any] = []
    late = LateDeletes(stones, forgotten.append, forgotten.append)  # type: ignore[arg-type]
    assert not late.buries("http://h1/a")
    stones.table = ({"h1"}, {"http://h2/x"})
    stones.refresh()  # the outbox's look before it sends came first
    assert late.buries("http://h1/b")
    assert forgotten == ["h1", ["http://h2/x"]], "the rows written before the delete stay"
    assert late.buries("http://h1/c") and len(forgotten) == 2, "forgotten once"
