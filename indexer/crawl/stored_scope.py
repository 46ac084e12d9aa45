"""A data directory's scope: what its crawl was asked to cover, stored for its reindex jobs.

``indexer crawl`` stores, in the frontier's ``meta`` table, the settings that decide which
URLs a job covers and which ids they get: :data:`SCOPE_KEYS` (seeds, ``crawl.include``,
``crawl.exclude``, ``crawl.allow_hosts``, the id-changing URL normalization of
``crawl.strip_params`` and ``crawl.max_url_length``, and the limits ``--max-pages``,
``--max-depth``, ``--max-pages-per-host``). ``indexer reindex`` runs inside that scope:

* a value given again (TOML, environment or flag) that equals the stored one is fine;
* a smaller limit narrows this run only (it is not stored);
* anything else would widen or move the scope: refused unless ``--rescope``, which makes
  the given values the stored scope from then on (the plan lists each change);
* the job's own ``--include`` / ``--exclude`` are added conditions, never replacements
  (:class:`indexer.crawl.urls.Scope` ``require`` / ``exclude``).

A data directory from before scopes were stored has none; reindex then keeps the old rule
(the settings given, plus every host the frontier knows).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indexer.crawl.frontier import Frontier
from indexer.errors import ConfigError
from indexer.settings import CrawlSettings, Source

#: The ``crawl.*`` settings a data directory keeps with its crawl.
SCOPE_KEYS = (
    "seeds",
    "include",
    "exclude",
    "allow_hosts",
    "strip_params",
    "max_url_length",
    "max_pages",
    "max_depth",
    "max_pages_per_host",
)
_LIMITS = frozenset({"max_pages", "max_depth", "max_pages_per_host"})
_META_KEY = "scope"


@dataclass(frozen=True)
class ScopePlan:
    """The scope a reindex job runs with.

    Attributes:
        crawl: the ``crawl`` settings to run with (stored scope, narrowed or rescoped).
        stored: whether the data directory had a stored scope.
        rescoped: ``{"crawl.include": (stored, new)}`` for each value ``--rescope`` changes.
        narrowed: ``{"crawl.max_pages": (stored, new)}`` for limits lowered for this run.
        to_store: the scope to store after the run (``--rescope``), or None.
    """

    crawl: CrawlSettings
    stored: bool
    rescoped: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    narrowed: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    to_store: dict[str, Any] | None = None


def scope_of(crawl: CrawlSettings) -> dict[str, Any]:
    """The :data:`SCOPE_KEYS` values of ``crawl`` as JSON-ready data."""
    data = crawl.model_dump(mode="json")
    return {key: data[key] for key in SCOPE_KEYS}


def save_scope(frontier: Frontier, scope: dict[str, Any]) -> None:
    """Store ``scope`` (from :func:`scope_of`) with the frontier."""
    frontier.set_meta(_META_KEY, json.dumps(scope, ensure_ascii=False))


def load_scope(frontier: Frontier) -> dict[str, Any] | None:
    """The stored scope, or None for a data directory that has none."""
    raw = frontier.meta(_META_KEY)
    value = None if raw is None else json.loads(raw)
    return value if isinstance(value, dict) else None


def resumed_scope(
    stored: dict[str, Any], crawl: CrawlSettings, sources: Mapping[str, Source]
) -> CrawlSettings:
    """The ``crawl`` settings a resumed crawl (``crawl --resume``, ``--join``) runs with:
    each :data:`SCOPE_KEYS` value not given for this run (its source is the default) is the
    stored one, so a resume keeps to its crawl's seeds, include/exclude rules and limits
    (``--max-pages`` of the first start holds across a stop and ``--resume``); a value
    given for the resume wins, as it did when the crawl started.

    Args:
        stored: from :func:`load_scope`.
        crawl: the resume's ``crawl`` settings.
        sources: where each setting came from (``"default"`` means not given).
    """
    values = {
        key: stored[key]
        for key in SCOPE_KEYS
        if key in stored and sources.get(f"crawl.{key}", "default") == "default"
    }
    return _with(crawl, values)


def plan_scope(
    stored: dict[str, Any] | None,
    crawl: CrawlSettings,
    sources: Mapping[str, Source],
    *,
    rescope: bool,
    data_dir: Path,
) -> ScopePlan:
    """Combine the stored scope with the settings given to a reindex job.

    Args:
        stored: from :func:`load_scope`.
        crawl: the job's ``crawl`` settings.
        sources: where each setting came from (``"default"`` means not given).
        rescope: ``--rescope``: given values replace the stored ones.
        data_dir: named in errors.

    Raises:
        ConfigError: a given value differs from the stored one (and is not a smaller
            limit) without ``rescope``; names the setting.
    """
    if stored is None:
        return ScopePlan(crawl, stored=False)
    effective = {key: stored.get(key, value) for key, value in scope_of(crawl).items()}
    narrowed, changed = _compare(effective, scope_of(crawl), sources)
    if changed and not rescope:
        key, (old, new) = next(iter(changed.items()))
        raise ConfigError(
            key,
            f"{new!r} differs from {old!r} stored with the crawl in {data_dir}; a reindex "
            "job keeps its crawl's scope: narrow it with --include/--exclude or a smaller "
            "limit, or pass --rescope to change it",
        )
    effective.update({key.removeprefix("crawl."): new for key, (_, new) in changed.items()})
    run_with = effective | {key.removeprefix("crawl."): new for key, (_, new) in narrowed.items()}
    to_store = dict(effective) if changed else None
    return ScopePlan(_with(crawl, run_with), True, changed, narrowed, to_store)


def _compare(
    stored: dict[str, Any], given: dict[str, Any], sources: Mapping[str, Source]
) -> tuple[dict[str, tuple[Any, Any]], dict[str, tuple[Any, Any]]]:
    """``(narrowed, changed)``: given values that differ from the stored ones, split into
    lower limits and the rest; values left at their default are not compared."""
    narrowed: dict[str, tuple[Any, Any]] = {}
    changed: dict[str, tuple[Any, Any]] = {}
    for key in SCOPE_KEYS:
        old, new = stored[key], given[key]
        if sources.get(f"crawl.{key}", "default") == "default" or old == new:
            continue
        if key in _LIMITS and new is not None and (old is None or new < old):
            narrowed[f"crawl.{key}"] = (old, new)
        else:
            changed[f"crawl.{key}"] = (old, new)
    return narrowed, changed


def _with(crawl: CrawlSettings, values: dict[str, Any]) -> CrawlSettings:
    """``crawl`` with ``values`` (JSON data: lists become the settings' tuples)."""
    update = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return crawl.model_copy(update=update)
