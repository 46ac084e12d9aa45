"""Settings: precedence defaults < TOML < environment < flags, names, validation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from indexer.errors import ConfigError
from indexer.settings import SiteRule, env_name, load_settings, setting_keys


def test_precedence_and_sources(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text('[fetch]\ndelay = 2.5\nper_host = 3\n[solr]\ncore = "intra"\n', "utf-8")
    env = {"INDEXER_FETCH_PER_HOST": "4", "INDEXER_CRAWL_INCLUDE": '["^https://a/"]'}
    loaded = load_settings(toml, {"solr.core": "cli", "fetch.timeout": None}, env)
    s = loaded.settings
    assert s.fetch.delay == 2.5 and loaded.sources["fetch.delay"] == "file"
    assert s.fetch.per_host == 4 and loaded.sources["fetch.per_host"] == "env"
    assert s.solr.core == "cli" and loaded.sources["solr.core"] == "flag"
    assert s.crawl.include == ("^https://a/",)
    assert s.fetch.timeout == 30.0 and loaded.sources["fetch.timeout"] == "default"


def test_every_setting_has_a_toml_key_and_env_name() -> None:
    keys = setting_keys()
    assert len(keys) > 30
    for key, env, description in keys:
        section, name = key.split(".")
        assert env == env_name(section, name) == f"INDEXER_{section}_{name}".upper()
        assert description, f"{key} has no description"


@pytest.mark.parametrize(
    ("flags", "env", "setting"),
    [
        ({"fetch.delay": -1}, {}, "fetch.delay"),
        ({}, {"INDEXER_FETCH_CONCURRENCY": "many"}, "fetch.concurrency"),
        ({"fetch.nonsense": 1}, {}, "fetch.nonsense"),
        ({"crawl.formats": ()}, {}, "crawl.formats"),  # `--formats ""` would index nothing
        ({}, {"INDEXER_CRAWL_FORMATS": "[]"}, "crawl.formats"),
    ],
)
def test_bad_values_name_the_setting(
    flags: dict[str, object], env: dict[str, str], setting: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(None, flags, env)
    assert info.value.setting == setting


def test_bad_toml_fails_fast(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[fetch\ndelay = 1", "utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(bad, {}, {})
    with pytest.raises(ConfigError, match="cannot read"):
        load_settings(tmp_path / "missing.toml", {}, {})


def test_config_show_masks_secrets(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text('[solr]\nuser = "admin"\npassword = "s3cret-pw"\n', "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "indexer", "config", "show", "--config", str(toml)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "s3cret-pw" not in proc.stdout
    assert "solr.user" in proc.stdout and "[file]" in proc.stdout
    assert "INDEXER_FETCH_DELAY" in proc.stdout


def test_settings_reference_is_current() -> None:
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "scripts"))
    try:
        import settings_reference
    finally:
        sys.path.pop(0)
    assert (root / "docs" / "settings.md").read_text("utf-8") == settings_reference.render(), (
        "docs/settings.md is stale: run python scripts/settings_reference.py"
    )


def test_env_typos_fail_and_lists_take_commas() -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(None, {}, {"INDEXER_FETCH_DEALY": "1"})
    assert info.value.setting == "INDEXER_FETCH_DEALY"
    loaded = load_settings(None, {}, {"INDEXER_CRAWL_SEEDS": "http://a.jp/, http://b.jp/"})
    assert loaded.settings.crawl.seeds == ("http://a.jp/", "http://b.jp/")


def test_config_show_masks_url_credentials() -> None:
    from indexer.settings import describe

    loaded = load_settings(None, {"fetch.proxy": "http://user:proxypass@127.0.0.1:3128"}, {})
    shown = {row["key"]: row["value"] for row in describe(loaded)}
    assert shown["fetch.proxy"] == "http://user:***@127.0.0.1:3128"
    for raw, masked in [
        ("bob:Pass4@proxy.local:8080", "bob:***@proxy.local:8080"),
        ("http://bob:Pa@ss5@proxy.local:8080", "http://bob:***@proxy.local:8080"),
        ("http://proxy.local:3128/a@b", "http://proxy.local:3128/a@b"),
    ]:
        loaded = load_settings(None, {"fetch.proxy": raw}, {})
        assert {r["key"]: r["value"] for r in describe(loaded)}["fetch.proxy"] == masked


@pytest.mark.parametrize(
    ("flags", "setting"),
    [
        ({"crawl.include": ("^https://a/", "(")}, "crawl.include[1]"),
        ({"crawl.exclude": ("[",)}, "crawl.exclude[0]"),
        ({"extract.rules": ({"url_pattern": "("},)}, "extract.rules[0].url_pattern"),
        (
            {"extract.rules": ({"url_pattern": "x"}, {"include": "p"})},
            "extract.rules[1].url_pattern",
        ),
        (
            {"extract.rules": ({"url_pattern": "x", "include": ["p[["]},)},
            "extract.rules[0].include[0]",
        ),
        ({"extract.rules": ({"url_pattern": "x", "inculde": "p"},)}, "extract.rules[0].inculde"),
    ],
)
def test_regexes_and_site_rules_are_validated_at_load(
    flags: dict[str, object], setting: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(None, flags, {})
    assert info.value.setting == setting


def test_site_rules_load_as_rules() -> None:
    rules = ({"url_pattern": r"^http://a\.jp/", "include": "div#main"},)
    loaded = load_settings(None, {"extract.rules": rules}, {}).settings.extract.rules
    assert loaded == (SiteRule(url_pattern=r"^http://a\.jp/", include=("div#main",)),)


def test_frozen_settings_have_no_mutable_tables() -> None:
    env = {"INDEXER_FETCH_HEADERS": '{"X-Team": "search"}'}
    fetch = load_settings(None, {}, env).settings.fetch
    assert fetch.headers["X-Team"] == "search"
    with pytest.raises(TypeError):
        fetch.headers["X-Team"] = "other"  # type: ignore[index]
    assert fetch.model_dump(mode="json")["headers"] == {"X-Team": "search"}
