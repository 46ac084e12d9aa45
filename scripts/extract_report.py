"""The report of ``scripts/eval_extraction.py``: per set, per kind, worst pages, Done-when checks.

:func:`set_report` turns one set's runs into a JSON-ready dict (what ``--json`` writes and
what the gate reads); :func:`render` turns that dict into the readable table. The checks
are the Done-when of issue #18, computed, never hard-coded:

- ``recall_gain``: search recall − precision recall (need ≥ +0.02)
- ``f1_gap``: precision F1 − search F1 (need ≤ 0.03)
- ``precision_vs_traf``: precision F1 − the better trafilatura run's F1 (need ≥ +0.01 on ja
  and en, ≥ 0 on readability; only when the trafilatura runs are in the report)
- ``low_recall``: pages with recall < 0.5, per profile (need none)
- ``empty_with_gold``: empty outputs on pages whose gold has text, per profile (need none)
- ``time_ratio``: our slower profile's median CPU time per page / traf-bytes' (need ≤ 0.4); both
  start from the raw bytes (charset detection included), the same input; the table shows
  traf-text's median too
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

PROFILES = ("search", "precision")
TRAFILATURA = ("traf-bytes", "traf-text")
WORST = 5
LOW_RECALL = 0.5
NEED_TRAF_MARGIN = {"ja": 0.01, "en": 0.01, "readability": 0.0}


class _Score(Protocol):
    p: float
    r: float
    f1: float


class _Run(Protocol):
    scores: list[Any]
    empty: int
    empty_pages: list[bool]

    def macro(self) -> Any: ...

    def median_ms(self) -> float: ...


class _Page(Protocol):
    id: str
    kind: str
    gold: str


def _mean(scores: Sequence[_Score]) -> dict[str, float]:
    n = len(scores) or 1
    return {
        "p": round(sum(s.p for s in scores) / n, 4),
        "r": round(sum(s.r for s in scores) / n, 4),
        "f1": round(sum(s.f1 for s in scores) / n, 4),
    }


def _system(run: _Run) -> dict[str, Any]:
    return {**_mean(run.scores), "empty": run.empty, "median_ms": round(run.median_ms(), 2)}


def _kinds(pages: Sequence[_Page], runs: Mapping[str, _Run]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in sorted({p.kind for p in pages}):
        idx = [i for i, p in enumerate(pages) if p.kind == kind]
        out[kind] = {
            "pages": len(idx),
            "systems": {n: _mean([r.scores[i] for i in idx]) for n, r in runs.items()},
        }
    return out


def _worst(pages: Sequence[_Page], run: _Run) -> list[dict[str, Any]]:
    order = sorted(range(len(pages)), key=lambda i: (run.scores[i].f1, pages[i].id))
    return [
        {"page": pages[i].id, "kind": pages[i].kind, **_mean([run.scores[i]])}
        for i in order[:WORST]
    ]


def _check(value: float, need: float, at_most: bool = False) -> dict[str, Any]:
    holds = value <= need if at_most else value >= need
    return {"value": round(value, 4), "need": need, "at_most": at_most, "holds": holds}


def _lists(pages: Sequence[_Page], runs: Mapping[str, _Run]) -> dict[str, Any]:
    low = {
        p: [pg.id for pg, s in zip(pages, runs[p].scores, strict=True) if s.r < LOW_RECALL]
        for p in PROFILES
    }
    empty = {
        p: [
            pg.id for pg, e in zip(pages, runs[p].empty_pages, strict=True) if e and pg.gold.strip()
        ]
        for p in PROFILES
    }
    return {
        "low_recall": {"pages": low, "holds": not any(low.values())},
        "empty_with_gold": {"pages": empty, "holds": not any(empty.values())},
    }


def checks(set_name: str, systems: Mapping[str, Any], lists: Mapping[str, Any]) -> dict[str, Any]:
    """The Done-when checks of one set from its ``systems`` summary and page ``lists``."""
    search, precision = systems["search"], systems["precision"]
    out: dict[str, Any] = {
        "recall_gain": _check(search["r"] - precision["r"], 0.02),
        "f1_gap": _check(precision["f1"] - search["f1"], 0.03, at_most=True),
        **lists,
    }
    traf = [systems[t] for t in TRAFILATURA if t in systems]
    if traf:
        best = max(t["f1"] for t in traf)
        margin = NEED_TRAF_MARGIN.get(set_name, 0.0)
        out["precision_vs_traf"] = _check(precision["f1"] - best, margin)
    if "traf-bytes" in systems:
        ours_ms = max(search["median_ms"], precision["median_ms"])
        out["time_ratio"] = _check(
            ours_ms / (systems["traf-bytes"]["median_ms"] or 1e-9), 0.4, True
        )
    return out


def set_report(set_name: str, pages: Sequence[_Page], runs: Mapping[str, _Run]) -> dict[str, Any]:
    """JSON-ready report of one set; ``runs`` must hold ``search`` and ``precision``."""
    systems = {name: _system(run) for name, run in runs.items()}
    return {
        "pages": len(pages),
        "systems": systems,
        "kinds": _kinds(pages, runs),
        "worst": {p: _worst(pages, runs[p]) for p in PROFILES},
        "checks": checks(set_name, systems, _lists(pages, runs)),
    }


def _system_table(rep: Mapping[str, Any]) -> Iterator[str]:
    yield f"{'system':<16} {'P':>6} {'R':>6} {'F1':>6} {'empty':>6} {'cpu ms':>8}"
    for name, s in rep["systems"].items():
        yield (
            f"{name:<16} {s['p']:6.3f} {s['r']:6.3f} {s['f1']:6.3f} {s['empty']:6d}"
            f" {s['median_ms']:8.2f}"
        )


def _kind_table(rep: Mapping[str, Any]) -> Iterator[str]:
    names = list(rep["systems"])
    others = [n for n in names if n not in PROFILES]
    head = "".join(f"{p + ' P/R/F1':>21}" for p in PROFILES)
    yield f"{'kind':<14} {'n':>4}{head}" + "".join(f"{n:>16}" for n in others)
    for kind, k in rep["kinds"].items():
        s = k["systems"]
        ours = "".join(f"  {s[p]['p']:.3f}/{s[p]['r']:.3f}/{s[p]['f1']:.3f}" for p in PROFILES)
        rest = "".join(f"{s[n]['f1']:16.3f}" for n in others)
        yield f"{kind:<14} {k['pages']:>4}{ours}{rest}"


def _check_lines(rep: Mapping[str, Any]) -> Iterator[str]:
    for name, c in rep["checks"].items():
        mark = "holds" if c["holds"] else "FAILS"
        if "pages" in c:
            found = "; ".join(f"{p}: {', '.join(ids) or 'none'}" for p, ids in c["pages"].items())
            yield f"  [{mark}] {name}: {found}"
        else:
            rel = "<=" if c["at_most"] else ">="
            yield f"  [{mark}] {name}: {c['value']:+.3f} (need {rel} {c['need']:+.3f})"


def render(set_name: str, rep: Mapping[str, Any]) -> Iterator[str]:
    """Readable lines of one set's report: systems, kinds, worst pages, checks."""
    yield f"== extract-{set_name}: {rep['pages']} pages"
    yield from _system_table(rep)
    yield "-- by kind"
    yield from _kind_table(rep)
    for profile, rows in rep["worst"].items():
        cells = ", ".join(
            f"{w['page'][:20]} ({w['kind']}) {w['r']:.2f}/{w['f1']:.2f}" for w in rows
        )
        yield f"-- worst {profile} (R/F1): {cells}"
    yield "-- Done-when checks"
    yield from _check_lines(rep)
