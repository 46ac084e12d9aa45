"""The last reindex plan and run started from the admin page, kept in the data directory.

``admin-jobs.json`` beside the crawl state (``crawl.data_dir``) holds the last job of each
kind (``plan``, ``run``) as :class:`~indexer.web.admin.jobs.Job` fields, so a restart of
``indexer serve`` still shows them. It is written when a job starts and when it ends
(to a temporary name, then renamed: a reader never sees half a file). A plan keeps
:data:`~indexer.web.admin.jobs.PLAN_SHOWN` ids per action and the totals. A job stored
as running whose server is gone (killed before the job ended) loads as ``abandoned``.
A file that cannot be read or written is logged once and the page works from memory.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from indexer.web.admin.jobs import ACTIONS, PLAN_SHOWN, Job, Plan

log = logging.getLogger(__name__)
#: The file's name in the data directory.
FILE_NAME = "admin-jobs.json"
KINDS = ("plan", "run")


class JobStore:
    """``admin-jobs.json`` of one data directory.

    Args:
        data_dir: ``crawl.data_dir`` (created by the first crawl; nothing is stored
            before it exists).
    """

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / FILE_NAME
        self._warned = False

    def load(self) -> dict[str, Job]:
        """The stored jobs by kind (``{}`` when none, or the file cannot be read)."""
        try:
            raw = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            self._warn(f"cannot read {self.path}: {exc}")
            return {}
        jobs = {}
        for kind in KINDS:
            item = raw.get(kind) if isinstance(raw, dict) else None
            job = _job(kind, item) if isinstance(item, dict) else None
            if job is not None:
                jobs[kind] = job
        return jobs

    def save(self, jobs: dict[str, Job]) -> None:
        """Store ``jobs`` (replacing the file); a failure is logged, never raised."""
        if not self.path.parent.is_dir():
            return  # no crawl yet: nothing to keep beside
        data = {kind: _stored(job) for kind, job in jobs.items() if kind in KINDS}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            self._warn(f"cannot write {self.path}: {exc}")

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("admin: %s; the last reindex jobs are kept in memory only", message)


def _stored(job: Job) -> dict[str, Any]:
    """A job as JSON: its plan cut to :data:`PLAN_SHOWN` ids per action, with totals."""
    item = asdict(job)
    plan = job.plan
    item["plan"] = {
        "changes": {a: plan.changes.get(a, [])[:PLAN_SHOWN] for a in ACTIONS},
        "totals": {a: plan.total(a) for a in ACTIONS},
        "summary": plan.summary,
        "summary_line": plan.summary_line,
    }
    return item


def _job(kind: str, item: dict[str, Any]) -> Job | None:
    """A job from its stored form, or None when it does not read as one."""
    try:
        raw_plan = item.get("plan") or {}
        changes = raw_plan.get("changes") or {}
        plan = Plan(
            changes={a: [str(i) for i in changes.get(a, [])] for a in ACTIONS},
            summary=raw_plan.get("summary"),
            summary_line=str(raw_plan.get("summary_line", "")),
            totals={a: int(n) for a, n in (raw_plan.get("totals") or {}).items()},
        )
        job = Job(
            kind,
            started=float(item["started"]),
            ended=None if item.get("ended") is None else float(item["ended"]),
            exit_code=None if item.get("exit_code") is None else int(item["exit_code"]),
            plan=plan,
            stderr=str(item.get("stderr", "")),
            pid=None if item.get("pid") is None else int(item["pid"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    job.abandoned = job.exit_code is None  # its server stopped before it ended
    return job
