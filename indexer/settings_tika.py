"""The Tika service's settings of ``extract.*``, and ``ExtractSettings``' base of fields kept
outside ``settings.py`` (these and :mod:`indexer.settings_template`'s).

Kept in their own module so that ``settings.py`` stays within its size; the fields are
``extract.tika_heap``, ``extract.tika_url`` … as if declared there
(:mod:`indexer.pipeline.tikadocs`, :mod:`indexer.extract.formats.tika_service`).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from indexer.settings_fields import HttpURL, ProjectDir
from indexer.settings_template import TemplateSettings


class TikaSettings(BaseModel):
    """The Tika service that parses DOC, XLS, PPT and RTF documents."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    tika_heap: str = Field(
        "512m", pattern=r"^[1-9][0-9]*[kmgKMG]?$", description="Heap of the Tika JVM (-Xmx)."
    )
    tika_url: HttpURL = Field(
        "",
        description="A running Tika service (http://127.0.0.1:PORT) instead of our own.",
    )
    tika_java: str = Field("java", description="The java that runs the Tika service.")
    tika_service_dir: ProjectDir = Field(
        Path("tika-service"), description="Maven project of the Tika service (built jar)."
    )


class ExtractFields(TemplateSettings, TikaSettings):
    """The ``extract.*`` fields declared outside ``settings.py``: template learning, Tika."""
