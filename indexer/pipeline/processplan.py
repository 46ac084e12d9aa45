"""What ``indexer crawl --processes N`` starts (:mod:`indexer.pipeline.processes`): each
child's command line, data directory, ``--out`` file, summary file and memory share."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from indexer.errors import ConfigError
from indexer.pipeline.childside import HANDOFF_FLAG, without_value
from indexer.settings import Settings
from indexer.settings_frontier import STALL_SECONDS

#: Smallest memory budget share of a child (``crawl.memory_budget``'s lower bound).
MIN_SHARE = 16 << 20


def require_frontier(settings: Settings) -> None:
    """Refuse ``crawl.processes`` above 1 without a shared frontier.

    Raises:
        ConfigError: ``frontier.url`` is empty (names it).
    """
    if settings.crawl.processes > 1 and not settings.frontier.url:
        raise ConfigError(
            "frontier.url",
            f"--processes {settings.crawl.processes} needs a shared frontier: "
            "give --frontier postgresql://…",
        )


def out_file(out: Path, index: int) -> Path:
    """``FILE.jsonl`` → ``FILE.{index}.jsonl`` (a name without a suffix gets ``.{index}``)."""
    return out.with_name(f"{out.stem}.{index}{out.suffix}")


@dataclass(frozen=True)
class Plan:
    """What the parent starts.

    Attributes:
        argv: the command line after ``indexer`` (``crawl …``), repeated for each child.
        count: ``crawl.processes``.
        data_dir: ``crawl.data_dir``; child K uses ``data_dir/pK``.
        out: the ``--out`` file or None.
        url: ``frontier.url``.
        lease_seconds: ``frontier.lease_seconds`` (a dead child's leases expire after it).
        join: every child joins the running crawl (the parent was given ``--join``).
        secret: the ``--frontier`` value on the parent's command line ('' if none), left
            off the children's.
        stall_seconds: ``frontier.stall_seconds`` (the parent's questions; a lost frontier).
        memory_budget: ``crawl.memory_budget`` (bytes); each child gets a 1/``count`` share.
    """

    argv: tuple[str, ...]
    count: int
    data_dir: Path
    out: Path | None
    url: str
    lease_seconds: float
    join: bool = False
    secret: str = ""
    stall_seconds: float = field(default=STALL_SECONDS, kw_only=True)
    memory_budget: int = field(default=512 << 20, kw_only=True)

    def dir_of(self, index: int) -> Path:
        """Child ``index``'s data directory."""
        return self.data_dir / f"p{index}"

    def out_of(self, index: int) -> Path | None:
        """Child ``index``'s ``--out`` file (:func:`out_file`), or None."""
        return None if self.out is None else out_file(self.out, index)

    def summary_of(self, index: int) -> Path:
        """Where child ``index`` writes its ``--summary-json``."""
        return self.data_dir / f"p{index}.summary.json"

    def command(self, index: int, *, join: bool, handoff: int) -> list[str]:
        """The child's command: the parent's own without the frontier URL, with the hand-off
        pipe ``handoff``, its data directory, outputs, one process with its share of the
        memory budget and ``--join`` (later flags override earlier ones)."""
        argv = without_value(list(self.argv), self.secret)
        cmd = [sys.executable, "-m", "indexer", *argv, "--processes", "1", "-q"]
        cmd += ["--memory-budget", str(max(self.memory_budget // self.count, MIN_SHARE))]
        cmd += [HANDOFF_FLAG, str(handoff), "--data-dir", str(self.dir_of(index))]
        cmd += ["--summary-json", str(self.summary_of(index))]
        out = self.out_of(index)
        cmd += ["--out", str(out)] if out is not None else []
        return cmd + (["--join"] if join else [])


def plan_of(
    argv: list[str], settings: Settings, out: Path | None, *, join: bool, secret: str = ""
) -> Plan:
    """The :class:`Plan` of ``indexer ARGV`` with these settings (``crawl.processes`` > 1);
    ``secret``: the ``--frontier`` value of ARGV (kept off the children's command lines)."""
    return Plan(
        argv=tuple(argv),
        count=settings.crawl.processes,
        data_dir=settings.crawl.data_dir,
        out=out,
        url=settings.frontier.url,
        lease_seconds=settings.frontier.lease_seconds,
        stall_seconds=settings.frontier.stall_seconds,
        memory_budget=settings.crawl.memory_budget,
        join=join,
        secret=secret,
    )


def prepare_outputs(plan: Plan, *, resume: bool, overwrite: bool) -> None:
    """Check the children's ``--out`` files before any starts: with ``overwrite`` existing
    ones are removed (the joining children append), else they must not exist unless
    ``resume``.

    Raises:
        ConfigError: a child's ``--out`` file exists (names ``--out`` and the file).
    """
    for index in range(plan.count):
        path = plan.out_of(index)
        if path is None or not path.exists() or resume:
            continue
        if not overwrite:
            raise ConfigError(
                "--out", f"{path} exists: --resume continues it, --overwrite replaces it"
            )
        path.unlink()
