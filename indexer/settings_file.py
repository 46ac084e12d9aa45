"""The TOML settings file (``--config FILE``): read, checked, flattened to dotted keys.

TOML v1.0.0 requires UTF-8 ("A TOML file must be a valid UTF-8 encoded Unicode
document"); a file saved in Shift_JIS or another legacy encoding is refused with one line
naming it, not decoded by guesswork.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from indexer.errors import ConfigError


def read_toml(path: Path) -> dict[str, Any]:
    """The settings in ``path`` as ``{"section.key": value}``.

    Raises:
        ConfigError: (``--config``) the file cannot be read, is not UTF-8 or not TOML;
            (the section name) a top-level value that is not a ``[section]`` table.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError("--config", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            "--config",
            f"{path} is not UTF-8 (byte {exc.start}); TOML files must be UTF-8: "
            "convert it, e.g. iconv -f SHIFT_JIS -t UTF-8",
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("--config", f"{path} is not valid TOML: {exc}") from None
    flat: dict[str, Any] = {}
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(section, "expected a [section] table in the config file")
        for key, value in table.items():
            flat[f"{section}.{key}"] = value
    return flat
