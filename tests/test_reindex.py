"""Reindex jobs against a real Solr: updates, deletes, reconciliation grace, the guard, dry runs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.webhost import serve_folder

pytestmark = pytest.mark.solr
PAGES = 10


def _write_site(root: Path) -> None:
    links = "".join(f'<li><a href="/p{i}.html">page {i}</a></li>' for i in range(PAGES))
    (root / "index.html").write_text(
        f"<html><head><title>Index</title></head><body><ul>{links}</ul></body></html>", "utf-8"
    )
    for i in range(PAGES):
        _write_page(root, i, f"第{i}号のお知らせです。社内の手続きについて説明します。")


def _write_page(root: Path, i: int, text: str) -> None:
    (root / f"p{i}.html").write_text(
        f"<html><head><title>Page {i}</title></head><body><article><h1>Page {i}</h1>"
        f"<p>{text}</p><p>{text}</p></article></body></html>",
        "utf-8",
    )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "indexer", *args], capture_output=True, text=True, timeout=300
    )


def _docs(base: str, core: str) -> dict[str, str]:
    resp = requests.get(
        f"{base}/{core}/select", params={"q": "*:*", "rows": 1000, "fl": "id,content"}, timeout=30
    )
    return {d["id"]: d.get("content", "") for d in resp.json()["response"]["docs"]}


@pytest.fixture
def crawled(
    solr_core: tuple[str, str], tmp_path: Path
) -> Iterator[tuple[str, str, str, Path, list[str]]]:
    """A 10-page site crawled into Solr: (base, core, site_url, site_root, common_args)."""
    base, core = solr_core
    root = tmp_path / "site"
    root.mkdir()
    _write_site(root)
    with serve_folder(root) as site:
        common = [
            "--solr",
            base,
            "--core",
            core,
            "--data-dir",
            str(tmp_path / "data"),
            "--delay",
            "0",
            "-q",
        ]
        proc = _cli("crawl", *common, f"{site}/index.html")
        assert proc.returncode == 0, proc.stderr
        assert len(_docs(base, core)) == PAGES + 1
        yield base, core, site, root, common


def test_dry_run_then_reindex_updates_and_deletes(
    crawled: tuple[str, str, str, Path, list[str]],
) -> None:
    base, core, site, root, common = crawled
    _write_page(root, 3, "内容が変わりました。新しい規程を読んでください。")
    (root / "p5.html").unlink()
    before = _docs(base, core)

    dry = _cli("reindex", *common, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    planned = [json.loads(line) for line in dry.stdout.splitlines()]
    assert planned == [  # unchanged pages are not re-sent; a 404 waits its grace run
        {"action": "update", "id": f"{site}/p3.html"},
        {"summary": True, "add": 0, "update": 1, "delete": 0, "refused": []},
    ]
    assert _docs(base, core) == before, "a dry run changed the index"

    real = _cli("reindex", *common)
    assert real.returncode == 0, real.stderr
    assert f"{site}/p5.html" in _docs(base, core), "a 404 deleted before its grace runs"
    dry = _cli("reindex", *common, "--dry-run")
    assert [json.loads(line) for line in dry.stdout.splitlines()] == [
        {"action": "delete", "id": f"{site}/p5.html"},
        {"summary": True, "add": 0, "update": 0, "delete": 1, "refused": []},
    ]
    real = _cli("reindex", *common)
    assert real.returncode == 0, real.stderr
    after = _docs(base, core)
    assert f"{site}/p5.html" not in after
    assert "内容が変わりました" in after[f"{site}/p3.html"]
    assert len(after) == PAGES


def test_guard_refuses_mass_delete_and_force_overrides(
    crawled: tuple[str, str, str, Path, list[str]],
) -> None:
    base, core, site, root, common = crawled
    for i in range(8):
        (root / f"p{i}.html").unlink()
    first = _cli("reindex", *common)  # 404s wait reindex.delete_grace_runs=2 runs
    assert first.returncode == 0, first.stderr
    refused = _cli("reindex", *common)
    assert refused.returncode == 3, refused.stderr
    assert "max_delete_share" in refused.stderr and "nothing deleted" in refused.stderr
    assert len(_docs(base, core)) == PAGES + 1
    dry = _cli("reindex", *common, "--dry-run")
    assert dry.returncode == 3 and "would refuse" in dry.stderr
    planned = [json.loads(line) for line in dry.stdout.splitlines()]
    assert sum(p.get("action") == "delete" for p in planned) == 8, "the plan is shown anyway"
    assert planned[-1]["refused"] == [
        {"host": site.removeprefix("http://"), "delete": 8, "total": 11}
    ]
    forced = _cli("reindex", *common, "--force")
    assert forced.returncode == 0, forced.stderr
    assert "overridden by --force" in forced.stderr and "refused" not in forced.stderr
    assert len(_docs(base, core)) == PAGES + 1 - 8


def test_stale_documents_are_deleted_after_the_grace_runs(
    crawled: tuple[str, str, str, Path, list[str]],
) -> None:
    base, core, site, _root, common = crawled
    host = site.removeprefix("http://")
    stale = f"{site}/forgotten.html"
    requests.post(
        f"{base}/{core}/update",
        params={"commit": "true"},
        timeout=30,
        json=[{"id": stale, "url": stale, "host": host, "title": "old"}],
    ).raise_for_status()
    first = _cli("reindex", *common)
    assert first.returncode == 0, first.stderr
    assert stale in _docs(base, core), "deleted before delete_grace_runs=2 runs"
    second = _cli("reindex", *common)
    assert second.returncode == 0, second.stderr
    assert stale not in _docs(base, core)
    assert len(_docs(base, core)) == PAGES + 1


def test_reindex_restores_documents_missing_from_the_index(
    crawled: tuple[str, str, str, Path, list[str]],
) -> None:
    base, core, site, _root, common = crawled
    requests.post(
        f"{base}/{core}/update",
        params={"commit": "true"},
        timeout=30,
        json={"delete": {"id": f"{site}/p2.html"}},
    ).raise_for_status()
    dry = _cli("reindex", *common, "--dry-run")
    assert [json.loads(line) for line in dry.stdout.splitlines()] == [
        {"action": "add", "id": f"{site}/p2.html"},
        {"summary": True, "add": 1, "update": 0, "delete": 0, "refused": []},
    ]
    assert _cli("reindex", *common).returncode == 0
    assert len(_docs(base, core)) == PAGES + 1


def test_reindex_without_crawl_state_fails(tmp_path: Path) -> None:
    proc = _cli("reindex", "--data-dir", str(tmp_path / "none"))
    assert proc.returncode == 2 and "no crawl state" in proc.stderr
    assert not (tmp_path / "none").exists()


def test_delete_command_removes_url_and_host(
    crawled: tuple[str, str, str, Path, list[str]],
) -> None:
    base, core, site, _root, common = crawled
    common = common[:6]  # --solr, --core, --data-dir
    one = _cli("delete", "--url", f"{site}/p1.html", *common)
    assert one.returncode == 0, one.stderr
    assert f"{site}/p1.html" not in _docs(base, core)
    assert "deleted 1 document" in one.stderr
    nothing = _cli("delete", "--host", "127.0.0.1", *common)  # the port is part of the host
    assert nothing.returncode == 0 and "nothing matched" in nothing.stderr
    assert "no crawl fetches it from now on" in nothing.stderr  # its tombstone is written
    bad = _cli("delete", "--url", "not a url", *common)
    assert bad.returncode == 2 and "--url" in bad.stderr
    page = _cli("delete", "--host", f"{site}/any/page.html", *common)
    assert page.returncode == 2 and "--url deletes a page" in page.stderr
    everything = _cli("delete", "--host", f"{site}/", *common)
    assert everything.returncode == 0, everything.stderr
    assert f"deleted {PAGES} document" in everything.stderr
    assert _docs(base, core) == {}


def test_reindex_leaves_documents_outside_its_scope_alone(
    crawled: tuple[str, str, str, Path, list[str]], tmp_path: Path
) -> None:
    base, core, site, _root, _common = crawled
    config = tmp_path / "part.toml"
    config.write_text('[crawl]\ninclude = ["/index\\\\.html$", "/p[0-4]\\\\.html$"]\n', "utf-8")
    part = [
        "--solr",
        base,
        "--core",
        core,
        "--data-dir",
        str(tmp_path / "part"),
        "--delay",
        "0",
        "-q",
        "--config",
        str(config),
    ]
    assert _cli("crawl", *part, f"{site}/index.html").returncode == 0
    for _ in range(2):  # past delete_grace_runs
        proc = _cli("reindex", *part)
        assert proc.returncode == 0, proc.stderr
    assert len(_docs(base, core)) == PAGES + 1, "another job's documents were deleted"
