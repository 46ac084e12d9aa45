"""Template-learning and profile settings of ``extract.*``: a base of ``ExtractSettings``.

Kept in their own module so that ``settings.py`` stays within its size; the fields are
``extract.templates``, ``extract.template_share`` … and ``extract.profile`` as if declared
there (:mod:`indexer.extract.template`, :mod:`indexer.pipeline.learning`,
:mod:`indexer.extract.profile`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Extraction profiles (:mod:`indexer.extract.profile` says what each keeps).
Profile = Literal["search", "precision"]
DEFAULT_PROFILE: Profile = "search"


class TemplateSettings(BaseModel):
    """Learning each host's template during a crawl, and explaining the extraction."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    templates: bool = Field(True, description="Learn each host's template and drop it.")
    template_share: float = Field(0.3, gt=0, le=1, description="Share of pages for template.")
    template_min_pages: int = Field(6, ge=2, description="Pages before a template is used.")
    template_settle_pages: int = Field(50, ge=2, description="First pages re-extracted.")
    raw_store_bytes: int = Field(2**25, ge=0, description="Raw page store for re-extraction.")
    explain: bool = Field(True, description="Store why each block was kept or dropped.")
    profile: Profile = Field(
        DEFAULT_PROFILE, description="search (recall first) or precision (the article only)."
    )
