"""The page workers' settings of ``extract.*``: how many, and how pages reach them.

Kept in their own module so that ``settings.py`` stays within its size; the fields are
``extract.workers`` and ``extract.worker_feed`` as if declared there
(:mod:`indexer.pipeline.workers`, :mod:`indexer.pipeline.looppool`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from indexer.settings_fields import WORKER_FEED, WORKERS, Workers


class WorkerSettings(BaseModel):
    """The page extraction processes (``extract.workers``, ``extract.worker_feed``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    workers: Workers = Field("auto", description=WORKERS)
    worker_feed: Literal["threads", "loop"] = Field("threads", description=WORKER_FEED)
