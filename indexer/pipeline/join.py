"""``indexer crawl --join``: another process (on this or another machine) joins the crawl
running on a shared PostgreSQL frontier (issue #20).

The first process of a crawl on ``frontier.url`` stores the settings that must be the same
in every process (:data:`SHARED_KEYS`, beside the stored scope of
:mod:`indexer.crawl.stored_scope`); a joining process is refused, with a
:class:`~indexer.errors.ConfigError` naming the setting, when there is no shared frontier,
when no crawl runs on it (its last run is closed), or when its scope or those settings differ
from the stored ones, or when its output differs (:func:`crawl_output`: the Solr URL and core
or collection, or ``--out`` files only; a process writing elsewhere would leave part of the
run out of the index while the run says finished). A scope key or shared setting the
joining process was not given (its source is the default: no flag, environment variable or
``--config`` key) is the running crawl's (:func:`adopt`), so ``indexer crawl --frontier URL
--join --data-dir DIR`` joins as printed; only a value given that differs is refused (naming
the setting and both values). A joining process continues the open run (``crawl.resume``);
the host leases (:mod:`indexer.crawl.frontier.postgres.leases`) keep each host to one process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from indexer.crawl.frontier import Frontier
from indexer.crawl.frontier.members import CRAWLING, GONE, Member, who
from indexer.crawl.owner import row_gone
from indexer.crawl.stored_scope import load_scope, resumed_scope, scope_of
from indexer.errors import ConfigError, NoOpenRunError
from indexer.settings import Settings, Source

if TYPE_CHECKING:
    from indexer.crawl.frontier.postgres.store import PgFrontier as PgFrontierType

#: Settings every process of one crawl must share: politeness, limits, what is indexed
#: (noindex, login pages and their patterns, the site-wide duplicate share), how URLs are
#: normalized (the parameters stripped: one URL, one id in every process), the lease
#: time (how long a dead process's hosts wait for another; the same for every host), and
#: where documents go (the Solr node and core or collection).
SHARED_KEYS = (
    "frontier.lease_seconds",
    "fetch.delay",
    "fetch.per_host",
    "fetch.user_agent",
    "crawl.max_pages",
    "crawl.max_pages_per_host",
    "crawl.max_depth",
    "crawl.formats",
    "crawl.obey_noindex",
    "crawl.index_login_pages",
    "crawl.login_patterns",
    "crawl.strip_params",
    "crawl.sitewide_duplicate_share",
    "extract.profile",
    "solr.url",
    "solr.core",
    "solr.collection",
)
_META_KEY = "shared_settings"
#: The stored crawl's output, beside its shared settings (not a setting itself).
OUTPUT = "output"
_FILES_ONLY = "--out files only (no Solr)"


def crawl_output(settings: Settings, use_solr: bool) -> str:
    """Where a crawl process sends its documents: ``{solr.url}/{core or collection}`` when it
    writes to Solr (with or without ``--out``), else ``--out`` files only."""
    if not use_solr:
        return _FILES_ONLY
    return f"{settings.solr.url.rstrip('/')}/{settings.solr.target}"


def shared_settings(settings: Settings, use_solr: bool = True) -> dict[str, Any]:
    """The :data:`SHARED_KEYS` values of ``settings`` as JSON-ready data, and the process's
    :func:`crawl_output` under :data:`OUTPUT`."""
    data = settings.model_dump(mode="json")
    shared = {key: data[key.split(".")[0]][key.split(".")[1]] for key in SHARED_KEYS}
    return shared | {OUTPUT: crawl_output(settings, use_solr)}


def save_shared(frontier: Frontier, settings: Settings, use_solr: bool = True) -> None:
    """Store the crawl's :func:`shared_settings` (its first process, at its start)."""
    shared = shared_settings(settings, use_solr)
    frontier.set_meta(_META_KEY, json.dumps(shared, ensure_ascii=False))


def check_join(
    frontier: Frontier, settings: Settings, open_run: int | None, use_solr: bool = True
) -> None:
    """Refuse a ``--join`` that cannot join.

    Args:
        frontier: the shared frontier (opened without creating it).
        settings: the joining process's settings.
        open_run: the number of the frontier's open run, or None when its last run is closed.
        use_solr: the joining process writes to Solr (not ``--out`` files only).

    Raises:
        NoOpenRunError: no crawl runs (a :class:`ConfigError` naming ``--join``).
        ConfigError: a scope key, a shared setting or the output differs from the running
            crawl's (names it, with both values).
    """
    if open_run is None:
        raise NoOpenRunError
    stored = load_scope(frontier) or {}
    mine = scope_of(settings.crawl)
    for key, value in stored.items():
        if key == "seeds" and not settings.crawl.seeds:
            continue  # a join without seeds crawls the stored ones
        if mine.get(key) != value:
            raise _differs(f"crawl.{key}", value, mine.get(key))
    raw = frontier.meta(_META_KEY)
    theirs = json.loads(raw) if raw else {}
    mine = shared_settings(settings, use_solr)
    for key, value in theirs.items():
        if key == OUTPUT and mine[OUTPUT] != value:
            raise _other_output(mine[OUTPUT], value, use_solr)
        if mine.get(key) != value:
            raise _differs(key, value, mine.get(key))


def adopt(frontier: Frontier, settings: Settings, sources: Mapping[str, Source]) -> Settings:
    """``settings`` with the running crawl's stored scope (:func:`.stored_scope.resumed_scope`)
    and :data:`SHARED_KEYS` values in place of each one not given (source ``default``); a
    value given (flag, environment, ``--config``) stays, for :func:`check_join` to judge.

    Args:
        frontier: the shared frontier.
        settings: the joining process's settings.
        sources: where each setting came from (``LoadedSettings.sources``).

    Returns:
        the settings to join with.
    """
    stored = load_scope(frontier)
    if stored:
        settings = settings.model_copy(
            update={"crawl": resumed_scope(stored, settings.crawl, sources)}
        )
    raw = frontier.meta(_META_KEY)
    theirs: dict[str, Any] = json.loads(raw) if raw else {}
    taken: dict[str, dict[str, Any]] = {}
    for key, value in theirs.items():
        if key in SHARED_KEYS and sources.get(key, "default") == "default":
            section, _, name = key.partition(".")
            taken.setdefault(section, {})[name] = value
    update = {s: _with(getattr(settings, s), values) for s, values in taken.items()}
    return settings.model_copy(update=update) if update else settings


def _with(section: BaseModel, values: dict[str, Any]) -> BaseModel:
    """``section`` with ``values`` (JSON data) validated into its types."""
    data = {name: getattr(section, name) for name in type(section).model_fields}
    return type(section).model_validate(data | values)


def join_or_lead(
    frontier: Frontier,
    settings: Settings,
    sources: Mapping[str, Source] | None,
    *,
    join: bool,
    use_solr: bool = True,
) -> Settings:
    """At a crawl's start: check a ``--join`` (:func:`check_join`) after taking on the running
    crawl's values of the settings it was not given (:func:`adopt`), or, for the first
    process of a crawl on a shared frontier, store its :func:`shared_settings`.

    Args:
        frontier, settings: the crawl's.
        sources: where each setting came from; None takes nothing from the running crawl.
        join: ``--join``.
        use_solr: the process writes to Solr (:func:`crawl_output`).

    Returns:
        the settings to crawl with (``settings`` itself unless it joins).

    Raises:
        ConfigError: as :func:`check_join`; ``--join`` without ``frontier.url``.
    """
    if not join:
        if settings.frontier.url and not settings.crawl.resume:
            advice = "add --join to crawl with it, or wait for its end"
            refuse_while_crawled(frontier, "--join", advice)
            save_shared(frontier, settings, use_solr)
        return settings
    from indexer.crawl.frontier.postgres.store import PgFrontier

    require_shared(settings)
    assert isinstance(frontier, PgFrontier)
    open_run = frontier.open_run()
    if open_run is not None and sources is not None:
        settings = adopt(frontier, settings, sources)
    check_join(frontier, settings, open_run, use_solr)
    _take_limits(frontier, settings)
    return settings


def _take_limits(frontier: PgFrontierType, settings: Settings) -> None:
    """The frontier, opened before the join was checked: its leases and host cap take the
    adopted values."""
    frontier.leases.seconds = settings.frontier.lease_seconds
    frontier.leases.delay = settings.fetch.delay
    frontier.host_cap.limit = settings.crawl.max_pages_per_host


def refuse_while_crawled(frontier: Frontier, setting: str, advice: str) -> None:
    """Refuse to start a new run on a shared frontier while a live process crawls its open
    run: a new run ends the last one, so the processes crawling it would be cut off and
    their run recorded as finished with its queue left (a plain ``crawl`` beside a running
    one, a second ``reindex``). A process of this machine without a heartbeat that still
    runs (SIGSTOPped: :func:`_running_here`) counts as crawling. A run whose processes all
    ended or are gone (killed) does not refuse: that is what a new run replaces.

    Args:
        frontier: the crawl's or the job's frontier (anything but a shared one passes).
        setting: the flag or setting the refusal names (``--join`` for a crawl).
        advice: what to do instead, after the running process is named.

    Raises:
        ConfigError: a process of the open run is crawling (names one and the count).
    """
    from indexer.crawl.frontier.postgres.store import PgFrontier

    if not isinstance(frontier, PgFrontier):
        return
    run = frontier.open_run()
    members = [] if run is None else frontier.members.of(run)
    live = [m for m in members if m.state == CRAWLING or _running_here(m)]
    if live:
        count = f"{len(live)} process" + ("es" if len(live) > 1 else "")
        raise ConfigError(
            setting,
            f"run {run} is being crawled by {count} ({who(live[0])}): {advice} "
            "(`indexer report --frontier URL` shows it)",
        )


def _running_here(member: Member) -> bool:
    """Whether a process read as gone (no heartbeat: stopped with SIGSTOP, or swapped out)
    still runs on this machine: the owner of its progress row, by pid and start time
    (:func:`indexer.crawl.owner.row_gone`; a pid used again is told apart)."""
    progress = member.progress
    return member.state == GONE and progress is not None and row_gone(progress.owner) is False


def require_shared(settings: Settings, *, join: bool = True) -> None:
    """With ``join``, refuse ``--join`` without a shared frontier (before any state is
    opened).

    Raises:
        ConfigError: ``frontier.url`` is empty (names it).
    """
    if join and not settings.frontier.url:
        raise ConfigError("frontier.url", "--join needs a shared frontier: give --frontier URL")


def _other_output(mine: str, theirs: str, use_solr: bool) -> ConfigError:
    """The refusal of a join whose documents would go elsewhere than the run's."""
    advice = "--solr/--core/--collection as the run's" if theirs != _FILES_ONLY else "--out FILE"
    return ConfigError(
        "solr.url" if use_solr else "--out",
        f"this process would send its documents to {mine}, the running crawl sends them to "
        f"{theirs}: join with {advice}",
    )


def _differs(key: str, theirs: Any, mine: Any) -> ConfigError:
    return ConfigError(key, f"differs from the running crawl's ({mine!r}, it has {theirs!r})")
