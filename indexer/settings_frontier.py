"""The ``frontier.*`` settings section: where the crawl state lives (SQLite or PostgreSQL),
part of :class:`indexer.settings.Settings` (loaded, layered and validated there).

``frontier.url`` empty (the default) keeps the frontier in ``crawl.data_dir`` as SQLite
(:class:`indexer.crawl.frontier.Frontier`); a ``postgresql://`` URL puts it in PostgreSQL
(:class:`indexer.crawl.frontier.postgres.store.PgFrontier`), shared by crawl processes on
many machines; each process keeps its outbox in its own ``crawl.data_dir``.
:class:`CrawlProcesses` is ``CrawlSettings``' base holding ``crawl.processes`` and
``crawl.memory_budget`` (kept here so that ``settings.py`` stays within its size).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import BaseModel, ByteSize, ConfigDict, Field, field_validator

#: URL schemes libpq accepts.
SCHEMES = ("postgresql", "postgres")


#: ``frontier.stall_seconds``' default: seconds one PostgreSQL statement may go unanswered.
STALL_SECONDS = 60.0


class FrontierSettings(BaseModel):
    """Where the frontier is (``frontier.*``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    url: str = Field(
        "",
        description="PostgreSQL URL of a shared frontier (postgresql://user:pw@host:port/db); "
        "empty: SQLite in crawl.data_dir.",
    )
    lease_seconds: float = Field(
        30.0, gt=0, description="How long a process holds a host without renewing it (s)."
    )
    stall_seconds: float = Field(
        STALL_SECONDS,
        gt=0,
        description="Seconds a PostgreSQL statement may go unanswered before the frontier "
        "counts as gone (the crawl stops; --resume continues).",
    )

    @field_validator("url")
    @classmethod
    def _postgresql_url(cls, value: str) -> str:
        """Empty, or a ``postgresql://`` (or ``postgres://``) URL, libpq's syntax."""
        if value and urlsplit(value).scheme not in SCHEMES:
            raise ValueError("not a postgresql:// URL (e.g. postgresql://crawler@db/indexer)")
        return value


class CrawlProcesses(BaseModel):
    """``crawl.processes``: crawl processes started on this machine by one ``indexer crawl``
    (:mod:`indexer.pipeline.processes`; above 1 they need ``frontier.url``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    processes: int = Field(
        1, ge=1, le=64, description="Crawl processes on this machine (above 1: frontier.url)."
    )
    memory_budget: ByteSize = Field(
        ByteSize(512 << 20),
        ge=16 << 20,
        description="Response bodies held in memory at once (bytes or 512MiB, 2GiB; each "
        "counts twice its size); a body beyond it waits in a temporary file. --processes N: "
        "each process gets a 1/N share.",
    )
