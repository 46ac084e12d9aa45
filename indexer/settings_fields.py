"""Validated field types of the settings: regular expressions, CSS selectors and format ids
that are checked when settings load, and tables that stay read-only once loaded.

A bad value raises ``ValueError`` inside pydantic's validation, which
:func:`indexer.settings.load_settings` turns into a ``ConfigError`` naming the item
(``crawl.include[0]``, ``extract.rules[0].include[1]``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, PlainSerializer, SecretStr
from yarl import URL

from indexer import formats as format_ids


def _regex(value: str) -> str:
    """A valid Python regular expression (``re`` syntax), else ValueError."""
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"invalid regular expression: {exc}") from None
    return value


def _freeze(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only view of a table (nested tables too): frozen settings stay frozen."""
    return MappingProxyType(
        {k: _freeze(v) if isinstance(v, Mapping) else v for k, v in value.items()}
    )


def _thaw(value: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _thaw(v) if isinstance(v, Mapping) else v for k, v in value.items()}


def _css(value: str) -> str:
    """A valid CSS selector (Selectors Level 3 as cssselect reads it), else ValueError."""
    from lxml.cssselect import CSSSelector, SelectorError  # only when site rules are set

    try:
        CSSSelector(value)
    except SelectorError as exc:
        raise ValueError(f"bad CSS selector {value!r}: {exc}") from None
    return value


def _format_id(value: str) -> str:
    """A format id of :data:`indexer.formats.ALL`, else ValueError."""
    if value not in format_ids.ALL:
        raise ValueError(f"unknown format {value!r} (known: {', '.join(format_ids.ALL)})")
    return value


def _one_or_more(value: object) -> object:
    return (value,) if isinstance(value, str) else value


#: The checkout this package runs from (``solr-config/``, ``solr-launcher/`` and
#: ``tika-service/`` sit beside ``indexer/``).
_CHECKOUT = Path(__file__).resolve().parent.parent
#: Where a wheel (``pip install .``) carries those directories (``setup.py`` copies them).
BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"
#: The directories bundled, by their name in the checkout (``setup.py``'s ``BUNDLED``).
BUNDLED = ("solr-config", "solr-launcher", "tika-service")


def project_dir(value: Path) -> Path:
    """Where a project directory setting (a configset, a Maven project) points.

    An absolute path, or a relative one that exists from the working directory, as given;
    else the checkout's (a nightly job started from another directory finds the built
    service); else, for one of :data:`BUNDLED`, the installed package's copy (a
    ``pip install .`` without a checkout). Otherwise ``value`` as given, for the error that
    names it.
    """
    if value.is_absolute() or value.exists():
        return value
    for base in (_CHECKOUT, BUNDLED_DIR):
        if (base / value).exists():
            return base / value
    return value


def _http_url(value: str) -> str:
    """``""`` or an absolute http(s) URL with a host and a valid port, else ValueError."""
    if not value:
        return value
    try:
        url = URL(value)
        ok = url.scheme in ("http", "https") and bool(url.host) and url.port is not None
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{value!r} is not an http URL such as http://127.0.0.1:9998")
    return value


def _workers(value: object) -> object:
    """``extract.workers``: ``auto`` or a number of processes, 0 or more."""
    if value == "auto":
        return value
    try:
        count = int(str(value)) if not isinstance(value, bool) else -1
    except ValueError:
        count = -1
    if count < 0:
        raise ValueError(f"expected auto or a number of processes (0 or more), got {value!r}")
    return count


Regex = Annotated[str, AfterValidator(_regex)]
#: ``""`` or an http(s) URL of a service (see :func:`_http_url`).
HttpURL = Annotated[str, AfterValidator(_http_url)]
#: A directory of the project (a configset, a Maven project): see :func:`project_dir`.
ProjectDir = Annotated[Path, AfterValidator(project_dir)]
#: Every format id: the default of ``crawl.formats``.
ALL_FORMATS = format_ids.ALL
FormatIds = tuple[Annotated[str, AfterValidator(_format_id)], ...]
Selectors = Annotated[
    tuple[Annotated[str, AfterValidator(_css)], ...], BeforeValidator(_one_or_more)
]
Headers = Annotated[Mapping[str, str], AfterValidator(_freeze), PlainSerializer(_thaw)]
Credentials = Annotated[
    Mapping[str, Mapping[str, SecretStr]], AfterValidator(_freeze), PlainSerializer(_thaw)
]

#: Description of ``crawl.sitewide_duplicate_share``.
SITEWIDE = "Share of a host's pages in a run (5 at least) with one hash: a maintenance page."
#: Description of ``crawl.login_patterns``.
LOGIN = "URL regexes of login pages: a redirect to one ends the URL as login-required."
#: Default ``crawl.login_patterns``: login pages of common servers and SSO.
LOGIN_PATTERNS = (
    r"/(log[-_]?[io]n|sign[-_]?in)(\.\w+)?/?(\?|$)|/(login|logon|signin|sso|saml2?|oauth2?|adfs)/",
    r"/wp-login\.php|/users?/sign_in|/session/new|[?&](returnurl|return_to|redirect_uri)=",
)

#: ``extract.workers``: ``auto`` (one process per core) or a count; 0 extracts pages in the
#: crawl process (documents still parse in their own worker processes).
Workers = Annotated[int | Literal["auto"], BeforeValidator(_workers)]
WORKERS = "Page extraction processes: auto = one per core, 0 = none (inline)."
WORKER_FEED = (
    "How pages reach the extraction processes: threads = Python's process pool (a feeder "
    "and a manager thread), loop = the event loop writes and reads their pipes itself."
)
