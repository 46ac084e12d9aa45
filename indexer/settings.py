"""One typed settings object for every stage, layered and validated at load.

Precedence, lowest first (a later layer overrides an earlier one, key by key):

1. defaults written in the models below;
2. the TOML file given with ``--config FILE`` (a table per section, keys as the field names);
3. environment variables ``INDEXER_<SECTION>_<KEY>`` (e.g. ``INDEXER_FETCH_DELAY=0.5``);
   list and table values are JSON (``INDEXER_CRAWL_INCLUDE='["^https://a/"]'``);
4. command-line flags.

Each setting has a TOML key (``fetch.delay``) and an environment name (``INDEXER_FETCH_DELAY``);
``load_settings`` records each value's layer (``indexer config show``). Settings are frozen once
loaded, each stage gets its section; invalid values raise :class:`~indexer.errors.ConfigError`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_origin
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

import indexer.settings_fields as _fields
from indexer.errors import ConfigError
from indexer.settings_fields import ALL_FORMATS, Credentials, FormatIds, Headers, Regex, Selectors
from indexer.settings_file import read_toml
from indexer.settings_frontier import CrawlProcesses, FrontierSettings
from indexer.settings_reindex import ReindexSettings as ReindexSettings
from indexer.settings_tika import ExtractFields
from indexer.settings_workers import WorkerSettings
from indexer.web.settings import ServeSettings

ENV_PREFIX = "INDEXER_"
_USERINFO = re.compile(r"^([a-z][a-z0-9+.-]*://)?([^:/@\s]+):[^/\s]*@", re.I)
Source = Literal["default", "file", "env", "flag"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class CrawlSettings(CrawlProcesses, _Section):
    """What to crawl: seeds, scope and limits (``crawl.*``)."""

    seeds: tuple[str, ...] = Field((), description="Start URLs.")
    data_dir: Path = Field(Path(".indexer/crawl"), description="Crawl state (frontier, lock).")
    max_pages: int | None = Field(None, ge=1, description="Pages fetched in total.")
    max_pages_per_host: int | None = Field(None, ge=1, description="Pages fetched per host.")
    max_depth: int | None = Field(None, ge=0, description="Link distance from a seed.")
    include: tuple[Regex, ...] = Field((), description="URL regexes; if any, a URL must match one.")
    exclude: tuple[Regex, ...] = Field((), description="URL regexes; a matching URL is skipped.")
    allow_hosts: tuple[str, ...] = Field((), description="Hosts in scope besides the seeds'.")
    strip_params: tuple[str, ...] = Field(
        (
            "jsessionid",
            "phpsessid",
            "sid",
            "sessionid",
            "utm_source",
            "utm_medium",
            "utm_campaign",
            "utm_term",
            "utm_content",
            "fbclid",
            "gclid",
        ),
        description="Query parameters removed during URL normalization.",
    )
    max_url_length: int = Field(2048, ge=64, description="Longer URLs are traps (characters).")
    max_links_per_page: int = Field(5000, ge=1, description="Links taken from one page.")
    max_query_variants: int = Field(
        10_000,
        ge=1,
        description="URLs per path differing only in the query; more are traps "
        "(calendars, unknown session ids).",
    )
    sitemaps: bool = Field(
        True, description="Queue URLs from robots.txt Sitemap: lines (or /sitemap.xml)."
    )
    sitemap_max_files: int = Field(
        100, ge=1, description="Sitemap files read per host, sitemap indexes included."
    )
    obey_noindex: bool = Field(
        True, description="Keep pages with meta robots / X-Robots-Tag noindex out of the index."
    )
    resume: bool = Field(False, description="Continue the stored crawl instead of restarting.")
    sitewide_duplicate_share: float = Field(0.3, gt=0, le=1, description=_fields.SITEWIDE)
    login_patterns: tuple[Regex, ...] = Field(_fields.LOGIN_PATTERNS, description=_fields.LOGIN)
    index_login_pages: bool = Field(False, description="Index a login page itself, once.")
    formats: FormatIds = Field(
        ALL_FORMATS,
        min_length=1,
        description="Format ids indexed (see README, at least one); others are wrong-type.",
    )


class FetchSettings(_Section):
    """How to fetch: politeness, retries, limits, access (``fetch.*``)."""

    user_agent: str = Field("indexer/0.1 (+intranet search crawler)", description="User-Agent.")
    delay: float = Field(1.0, ge=0, description="Per-host delay between request starts (s).")
    per_host: int = Field(1, ge=1, description="Requests in flight per host.")
    concurrency: int = Field(32, ge=1, description="Requests in flight in total.")
    timeout: float = Field(30.0, gt=0, description="Total time per request (s).")
    connect_timeout: float = Field(10.0, gt=0, description="Connect timeout (s).")
    max_body_bytes: int = Field(10 << 20, ge=1024, description="HTML page body cap (bytes).")
    max_document_bytes: int = Field(100 << 20, ge=1024, description="Document body cap (bytes).")
    content_types: tuple[str, ...] = Field(
        (), description="Declared media types fetched (before the body is read); empty: any."
    )
    max_attempts: int = Field(3, ge=1, description="Attempts per URL, first one included.")
    timeout_attempts: int = Field(2, ge=1, description="Attempts per URL that timed out.")
    host_failure_limit: int = Field(
        10, ge=0, description="Timeouts or failed connects of a host's last window that end it."
    )
    host_failure_window: int = Field(20, ge=1, description="Requests counted per host.")
    backoff_base: float = Field(1.0, ge=0, description="First retry backoff (s).")
    backoff_max: float = Field(60.0, ge=0, description="Longest computed backoff (s).")
    retry_after_cap: float = Field(300.0, ge=0, description="Longest Retry-After honoured (s).")
    crawl_delay_cap: float = Field(30.0, ge=0, description="Longest robots Crawl-delay (s).")
    robots_retry: float = Field(300.0, ge=0, description="Retry a failed robots.txt after (s).")
    robots_network_retry: float | None = Field(
        None,
        ge=0,
        description="Retry robots.txt of an unreachable host after (s); unset: "
        "4 × fetch.backoff_base, at most fetch.robots_retry.",
    )
    max_redirects: int = Field(10, ge=0, description="Redirect hops followed.")
    verify_tls: bool = Field(True, description="Verify TLS certificates.")
    ca_bundle: Path | None = Field(None, description="Extra CA bundle file (PEM).")
    proxy: str | None = Field(None, description="HTTP proxy URL.")
    headers: Headers = Field({}, validate_default=True, description="Extra request headers.")
    auth: Credentials = Field(
        {},
        validate_default=True,
        description='Per-host Basic auth: {"host": {"user": ..., "password": ...}}.',
    )


class SolrSettings(_Section):
    """Where and how to index (``solr.*``)."""

    url: str = Field("http://127.0.0.1:8983/solr", description="Solr base URL.")
    urls: tuple[str, ...] = Field(
        (), description="More base URLs of the same SolrCloud cluster, tried when solr.url fails."
    )
    core: str = Field("pages", description="Core (or collection) to write to.")
    collection: str | None = Field(
        None, description="SolrCloud collection to write to; when set, used instead of solr.core."
    )
    batch_size: int = Field(200, ge=1, description="Documents per update request.")
    batch_bytes: int = Field(4 * 1024 * 1024, ge=1024, description="Bytes per update request.")
    commit_within_ms: int = Field(60_000, ge=0, description="commitWithin of updates (ms).")
    updates_in_flight: int = Field(2, ge=1, le=8, description="Update requests sent at once.")
    timeout: float = Field(60.0, gt=0, description="Solr request timeout (s).")
    drain_timeout: float = Field(300.0, ge=0, description="The final drain's wait for Solr (s).")
    auth_wait: float = Field(600.0, ge=0, description="Wait for refused credentials/fields (s).")
    stop_drain_timeout: float = Field(
        5.0, ge=0, description="The same when the crawl was asked to stop (s; at most 3)."
    )
    outbox_high_water: int = Field(5000, ge=1, description="Outbox backlog that pauses fetching.")
    backoff_base: float = Field(
        0.25, gt=0, description="First wait after Solr failed an update; doubles (s)."
    )
    backoff_max: float = Field(8.0, gt=0, description="Longest wait between update attempts (s).")
    configset_dir: _fields.ProjectDir = Field(
        Path("solr-config"),
        description="Our configset, for the local Solr and solr init / update-config "
        "(relative paths: from the working directory, else from the checkout).",
    )
    launcher_dir: _fields.ProjectDir = Field(
        Path("solr-launcher"), description="Maven project of the local Solr launcher."
    )
    user: str | None = Field(None, description="Basic auth user.")
    password: SecretStr | None = Field(None, description="Basic auth password.")

    @field_validator("url", "urls")
    @classmethod
    def _no_credentials_in_urls(cls, value: str | tuple[str, ...]) -> str | tuple[str, ...]:
        """Reject ``http://user:pass@host``: URLs end up in logs and error messages; and
        anything that is not an http(s) URL with a host."""
        for url in (value,) if isinstance(value, str) else value:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"not an http(s) URL: {url!r} (e.g. http://127.0.0.1:8983/solr)")
            if "@" in parts.netloc:
                raise ValueError("no credentials in Solr URLs: set solr.user and solr.password")
        return value

    @property
    def target(self) -> str:
        """The collection if set, else the core: the path segment after the base URL."""
        return self.collection or self.core

    @property
    def node_urls(self) -> tuple[str, ...]:
        """``solr.url`` then ``solr.urls``, without trailing slashes or repeats."""
        return tuple(dict.fromkeys(u.rstrip("/") for u in (self.url, *self.urls)))


class SiteRule(_Section):
    """Where the main content is on the pages of one site (one of ``extract.rules``).

    Attributes:
        url_pattern: regular expression searched (``re.search``) in the page URL.
        include: CSS selectors (Selectors Level 3 via cssselect) of the main content;
            empty means "let the heuristics find it" after the exclusions. A single string
            is one selector.
        exclude: CSS selectors of furniture to drop before anything else.
    """

    url_pattern: Regex = Field(min_length=1)
    include: Selectors = ()
    exclude: Selectors = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> SiteRule:
        """Build and validate a rule from a TOML/JSON mapping.

        Raises:
            ConfigError: an unknown key, a missing ``url_pattern``, a bad regular
                expression or CSS selector; ``setting`` names the key.
        """
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ConfigError(str(err["loc"][0]), err["msg"]) from None


class ExtractSettings(WorkerSettings, ExtractFields, _Section):
    """Main-content extraction (``extract.*``)."""

    rules: tuple[SiteRule, ...] = Field(
        (), description="Site rules: [{url_pattern, include: [css], exclude: [css]}]."
    )
    document_timeout: float = Field(60.0, gt=0, description="Wall time per document (s).")
    worker_memory: int = Field(  # a worker needs ~112 MiB to parse (measured): 256 MiB at least
        1 << 30, ge=256 << 20, description="Address-space limit per document worker (bytes)."
    )
    max_unpacked_bytes: int = Field(
        512 << 20, ge=1024, description="Largest unpacked size of an Office package (bytes)."
    )
    max_pdf_pages: int = Field(2000, ge=1, description="PDF pages whose text is kept.")


class SearchSettings(_Section):
    """What ``indexer search`` accepts from users (``search.*``)."""

    max_query_chars: int = Field(1000, ge=1, description="Longest query searched (characters).")
    allow_fuzzy: bool = Field(False, description="Keep term~ fuzzy syntax in user queries.")
    allow_leading_wildcard: bool = Field(
        False,
        description="Keep *term, ?erm, /regex/, and * ? as wildcards in words without a field.",
    )


class Settings(_Section):
    """All settings; see the module docstring for precedence."""

    crawl: CrawlSettings = Field(default_factory=CrawlSettings)
    frontier: FrontierSettings = Field(default_factory=FrontierSettings)
    fetch: FetchSettings = Field(default_factory=FetchSettings)
    solr: SolrSettings = Field(default_factory=SolrSettings)
    extract: ExtractSettings = Field(default_factory=ExtractSettings)
    reindex: ReindexSettings = Field(default_factory=ReindexSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    serve: ServeSettings = Field(default_factory=ServeSettings)


@dataclass(frozen=True)
class LoadedSettings:
    """Effective settings and the layer each key came from.

    Attributes:
        settings: the validated, frozen settings.
        sources: ``{"fetch.delay": "flag", ...}`` for every key.
    """

    settings: Settings
    sources: dict[str, Source]


def setting_keys() -> list[tuple[str, str, str]]:
    """Every setting as ``(toml_key, env_name, description)``, in model order."""
    rows = []
    for section, field in Settings.model_fields.items():
        model = field.annotation
        assert isinstance(model, type) and issubclass(model, BaseModel)
        for name, sub in model.model_fields.items():
            rows.append((f"{section}.{name}", env_name(section, name), sub.description or ""))
    return rows


def env_name(section: str, key: str) -> str:
    """The environment variable for ``section.key``, e.g. ``INDEXER_FETCH_DELAY``."""
    return f"{ENV_PREFIX}{section}_{key}".upper()


def load_settings(
    config_file: Path | None = None,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> LoadedSettings:
    """Load settings from defaults, a TOML file, the environment and flags.

    Args:
        config_file: TOML file path or None.
        flags: ``{"fetch.delay": 0.5, ...}``; None values are ignored (flag not given).
        environ: environment mapping (defaults to ``os.environ``).

    Raises:
        ConfigError: unreadable file, unknown key, or a value that fails validation;
            the message names the setting (``fetch.delay``) and its layer.
    """
    environ = os.environ if environ is None else environ
    layers: list[tuple[Source, dict[str, Any]]] = [
        ("file", read_toml(config_file) if config_file else {}),
        ("env", _read_env(environ)),
        ("flag", {k: v for k, v in (flags or {}).items() if v is not None}),
    ]
    merged: dict[str, dict[str, Any]] = {}
    sources: dict[str, Source] = {key: "default" for key, _, _ in setting_keys()}
    for source, values in layers:
        for dotted, value in values.items():
            section, _, key = dotted.partition(".")
            if dotted not in sources:
                raise ConfigError(dotted, f"unknown setting (from {source})")
            merged.setdefault(section, {})[key] = value
            sources[dotted] = source
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        dotted = ".".join(str(p) for p in err["loc"][:2])
        path = dotted + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"][2:])
        raise ConfigError(path, f"{err['msg']} (from {sources.get(dotted, '?')})") from None
    return LoadedSettings(settings, sources)


def _read_env(environ: Mapping[str, str]) -> dict[str, Any]:
    """Settings from ``INDEXER_*`` variables; an unknown one is an error (a typo)."""
    by_env = {env: key for key, env, _ in setting_keys()}
    flat: dict[str, Any] = {}
    for env, raw in environ.items():
        if not env.startswith(ENV_PREFIX):
            continue
        if env not in by_env:
            raise ConfigError(env, "unknown setting in the environment (see docs/settings.md)")
        key = by_env[env]
        flat[key] = _parse_env_value(raw, _is_list(key))
    return flat


def _is_list(key: str) -> bool:
    section, _, name = key.partition(".")
    model = Settings.model_fields[section].annotation
    assert isinstance(model, type) and issubclass(model, BaseModel)
    return get_origin(model.model_fields[name].annotation) is tuple


def _parse_env_value(raw: str, is_list: bool = False) -> Any:
    """JSON for lists, tables, numbers and booleans; a list setting also takes a plain
    comma-separated value; anything else is a plain string."""
    if is_list and not raw.lstrip().startswith("["):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    if raw[:1] in "[{" or raw in ("true", "false", "null"):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw


def describe(loaded: LoadedSettings) -> list[dict[str, Any]]:
    """Rows for ``indexer config show``: key, env name, value, source; secrets masked."""
    data = loaded.settings.model_dump(mode="json")
    rows = []
    for key, env, _ in setting_keys():
        section, _, name = key.partition(".")
        value = data[section][name]
        if "password" in name or name == "auth":
            value = "***" if value else value
        elif isinstance(value, str):
            value = _USERINFO.sub(r"\1\2:***@", value)  # proxy or Solr URL credentials
        elif key == "fetch.headers":  # cookies and tokens: header names only
            value = {header: "***" for header in value}
        rows.append({"key": key, "env": env, "value": value, "source": loaded.sources[key]})
    return rows
