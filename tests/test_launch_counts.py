"""How the ``--processes N`` summary takes the frontier's counts (:func:`indexer.pipeline.
launchend.count_from_frontier`) and what it says (:func:`indexer.pipeline.summaries.
format_launch`): each URL once when the launch crawled the run alone, the processes' own
counts when another launch joined it, no ``--resume`` hint that would repeat a refused
command or continue a run another launch still crawls."""

from __future__ import annotations

from typing import Any

from indexer.pipeline.launchend import count_from_frontier
from indexer.pipeline.launchstate import RunCount
from indexer.pipeline.summaries import add_up, format_launch


def _entry(
    index: int, code: int, summary: dict[str, Any] | None, sig: int | None = None
) -> dict[str, Any]:
    return {
        "index": index, "pid": 100 + index, "exit_code": code, "data_dir": f"d/p{index}",
        "out": None, "signal": sig, "replaces": None, "summary": summary,
    }  # fmt: skip


def _one(indexed: int, fetched: int, phase: str = "finished") -> dict[str, Any]:
    return {
        "phase": phase, "fetched": fetched, "indexed": indexed, "acknowledged": indexed,
        "outcomes": {"indexed": indexed},
    }  # fmt: skip


def _launch(entries: list[dict[str, Any]], count: RunCount | None) -> dict[str, Any]:
    total = add_up([e["summary"] for e in entries if e["summary"]], 3.0)
    total.update(processes=entries, died=0, open_outboxes=[], counted="processes")
    count_from_frontier(total, count)
    return total


def test_a_run_of_its_own_counts_each_url_once() -> None:
    entries = [_entry(0, 0, _one(101, 101)), _entry(1, 0, _one(224, 224))]
    total = _launch(entries, RunCount(1, {"indexed": 324}, 0, True, 325))
    text = format_launch(total)
    assert total["indexed"] == 324 and text.startswith("fetched 325, indexed 324 ")
    assert "stays open" not in text


def test_a_run_shared_with_another_launch_keeps_the_processes_counts() -> None:
    entries = [_entry(0, 0, _one(80, 80)), _entry(1, 0, _one(82, 82))]
    count = RunCount(1, {"indexed": 244}, 0, True, 162, shared=True)
    total = _launch(entries, count)
    assert total["indexed"] == 162 and total["counted"] == "processes"
    assert "counted by the processes: another launch crawled the run too" in format_launch(total)


def test_no_resume_hint_while_another_launch_crawls_the_run() -> None:
    entries = [_entry(0, 130, _one(50, 50, "interrupted")), _entry(1, 130, _one(8, 8))]
    count = RunCount(1, {"indexed": 150}, 59, False, 58, shared=True, others_live=True)
    text = format_launch(_launch(entries, count))
    assert "--resume" not in text and "another launch crawl it on" in text


def test_a_refused_setting_is_named_instead_of_repeating_the_command() -> None:
    entries = [_entry(0, 130, _one(52, 52, "interrupted")), _entry(1, 2, None)]
    text = format_launch(_launch(entries, RunCount(1, {"indexed": 52}, 201, False, 52)))
    assert "process 1 refused the settings (above)" in text
    assert "the same command with --resume" not in text


def test_a_dead_process_is_counted_and_its_fetches_are_a_lower_bound() -> None:
    entries = [_entry(0, 0, _one(150, 150)), _entry(1, -9, None, sig=9)]
    text = format_launch(_launch(entries, RunCount(1, {"indexed": 244}, 0, True, 241)))
    assert text.startswith("fetched at least 241, indexed 244 ")
    assert "killed by signal 9: its URLs are counted above" in text
    assert "documents acknowledged" not in text


def test_an_unreadable_frontier_is_said() -> None:
    entries = [_entry(0, 2, _one(40, 40, "failed")), _entry(1, 2, _one(48, 48, "failed"))]
    total = add_up([e["summary"] for e in entries], 3.0)
    total.update(processes=entries, died=0, open_outboxes=[], counted="processes")
    total["counted_note"] = "the frontier could not be read at the end"
    assert "counted by the processes: the frontier could not be read" in format_launch(total)
