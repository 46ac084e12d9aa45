"""The demo: a static web host for local sites and the bundled sample intranet site.

Attributes:
    SAMPLE_SITE: directory of the bundled sample site (package data, so installed copies
        have it too); written by ``scripts/make_sample_site.py``.
"""

from __future__ import annotations

from pathlib import Path

SAMPLE_SITE = Path(__file__).resolve().parent / "sample_site"
