"""The ``reindex.*`` settings section: when a recrawl deletes documents, part of
:class:`indexer.settings.Settings` (loaded, layered and validated there; the rules that read
it are :mod:`indexer.pipeline.grace` and the reindex guard)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ReindexSettings(BaseModel):
    """Reindex jobs (``reindex.*``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    delete_grace_runs: int = Field(2, ge=1, description="Runs a page may be gone (404…).")
    delete_410_at_once: bool = Field(True, description="A 410 Gone is deleted without grace.")
    keep_restricted: bool = Field(
        False,
        description="A page answering 401/403 keeps its document (a site that answers 403 "
        "by mistake); off: it leaves search at once.",
    )
    max_delete_share: float = Field(0.2, ge=0, le=1, description="Largest share deleted per host.")
