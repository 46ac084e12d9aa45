"""Extraction profiles: what the main content is for.

``search`` (the default of crawls and reindex jobs) puts recall first: everything a search
should find — the page's own lists, link lists, tables, ``<pre>`` and ``<dl>`` blocks and
headings — is kept, and boilerplate goes by the host's template and furniture rules.
``precision`` keeps the article only, as a single-page extractor scores it (for users of
``indexer extract`` who want the text of an article and nothing around it).
"""

from __future__ import annotations

from typing import get_args

from indexer.errors import ConfigError
from indexer.settings_template import DEFAULT_PROFILE, Profile

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "check_profile"]

#: The profiles by name, the default first.
PROFILES: tuple[Profile, ...] = get_args(Profile)


def check_profile(name: str) -> Profile:
    """Return ``name`` as a :data:`Profile`.

    Raises:
        ConfigError: ``name`` is not one of :data:`PROFILES` (setting ``extract.profile``).
    """
    for profile in PROFILES:
        if name == profile:
            return profile
    raise ConfigError("extract.profile", f"{name!r} is not one of {', '.join(PROFILES)}")
