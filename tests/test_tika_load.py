"""What the Tika service is given at once (indexer.pipeline.tikaload): documents within a
share of its heap, a large one alone, first come first served; after a JVM death the
documents in flight are asked again one at a time, so one that kills the JVM alone ends
parse-error and the others are parsed."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from indexer.errors import DocumentError
from indexer.extract.formats import ParsedDocument
from indexer.pipeline.docworkers import Answer, Job
from indexer.pipeline.tikacheck import Stopped
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.pipeline.tikaload import TikaLoad, heap_bytes
from indexer.settings import ExtractSettings
from tests.tika_fixtures import built_service, held_pids, hold_env, marked_rtf


def test_heap_sizes_read_as_java_does() -> None:
    assert heap_bytes("512m") == 512 << 20 and heap_bytes("2G") == 2 << 30
    assert heap_bytes("1048576") == 1 << 20 and heap_bytes("64k") == 64 << 10
    with pytest.raises(ValueError):
        heap_bytes("1.5g")


def _load_run(load: TikaLoad, sizes: list[int]) -> list[tuple[int, int, int]]:
    """Admit each size in a thread of its own, holding it 50 ms; (bytes in service, documents
    in service, size) seen by each while admitted."""
    seen: list[tuple[int, int, int]] = []
    lock = threading.Lock()

    def one(size: int) -> None:
        with load.admit(size):
            with lock:
                seen.append((load.in_service, load.documents, size))
            time.sleep(0.05)

    threads = [threading.Thread(target=one, args=(s,)) for s in sizes]
    for thread in threads:
        thread.start()
        time.sleep(0.005)  # arrival order
    for thread in threads:
        thread.join(10)
    return seen


def test_documents_in_the_service_stay_within_the_capacity_and_a_large_one_is_alone() -> None:
    load = TikaLoad(100, threading.Event())
    seen = _load_run(load, [40, 40, 40, 150, 10, 30, 90])
    assert len(seen) == 7 and load.peak <= 150
    for in_service, documents, size in seen:
        assert in_service <= 100 or documents == 1, (in_service, documents, size)
    big = [s for s in seen if s[2] == 150]
    assert big == [(150, 1, 150)]
    order = [size for _, _, size in seen]
    assert order.index(150) < order.index(10)  # the small one behind it did not pass it


def test_a_stop_ends_the_wait() -> None:
    stop = threading.Event()
    load = TikaLoad(10, stop)
    errors: list[BaseException] = []

    def waiter() -> None:
        try:
            with load.admit(5):
                pass
        except Stopped as exc:
            errors.append(exc)

    with load.admit(10):
        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.2)
        stop.set()
        thread.join(2)
    assert not thread.is_alive() and len(errors) == 1


def _job(name: str, body: bytes) -> Job:
    return Job("rtf", body, f"http://127.0.0.1/{name}.rtf", None)


async def _wait_held(folder: Path, pid_not: int | None, count: int) -> int:
    """The pid of a JVM other than ``pid_not`` once it holds ``count`` documents."""
    for _ in range(4500):
        pids = [p for p in held_pids(folder) if p != pid_not]
        if len(pids) >= count:
            return pids[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no JVM held {count} documents: {held_pids(folder)}")


@pytest.mark.slow
def test_after_a_death_the_documents_are_asked_again_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold = tmp_path / "hold"
    for name, value in hold_env(hold).items():
        monkeypatch.setenv(name, value)
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 3)
    texts = ("人事部からのお知らせ", "経理部の月次報告", "総務部の連絡事項")

    async def run() -> tuple[list[int], list[Answer]]:
        jobs = [_job(str(i), marked_rtf(t)) for i, t in enumerate(texts)]
        parses = [asyncio.create_task(tika.parse(job)) for job in jobs]
        first = await _wait_held(hold, None, 3)  # all three in flight on one JVM
        os.kill(first, signal.SIGKILL)
        second = await _wait_held(hold, first, 1)  # the replacement, still armed
        await asyncio.sleep(1.0)
        on_second = [p for p in held_pids(hold) if p == second]
        (hold / "armed").unlink()  # the third JVM holds nothing
        os.kill(second, signal.SIGKILL)
        return on_second, list(await asyncio.gather(*parses))

    try:
        on_second, answers = asyncio.run(run())
    finally:
        tika.close()
    assert len(on_second) == 1  # asked again alone, not all three at once
    failed = [a for a in answers if isinstance(a, DocumentError)]
    parsed = [a for a in answers if isinstance(a, ParsedDocument)]
    assert len(failed) == 1 and failed[0].outcome == "parse-error", answers
    assert len(parsed) == 2 and tika.restarts == 2
