"""Solr's password rotated mid-crawl (issue #12): a standalone Solr with Basic auth from the
launcher's security.json; the password is changed through Solr's authentication API while a
crawl runs. Fetching pauses with one log line; the crawl waits up to ``solr.auth_wait`` for
the credentials to work again, then stops cleanly (exit 1) with the outbox and summary kept.
"""

from __future__ import annotations

import secrets
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.faults_helpers import (
    ErrLines,
    crawl_args,
    last_run,
    outbox_count,
    reap,
    solr_ids,
    start_crawl,
    summary,
    wait_for,
    write_site,
)
from tests.test_solr_auth import PASSWORD, USER
from tests.test_solr_auth import secured as _secured  # noqa: F401  (a fixture)
from tests.webhost import serve_folder

pytestmark = [pytest.mark.solr, pytest.mark.slow]
ROTATED = "pw-" + secrets.token_urlsafe(12)
PAGES = 60


def _set_password(url: str, current: str, new: str) -> None:
    resp = requests.post(
        f"{url}/admin/authentication",
        json={"set-user": {USER: new}},
        auth=(USER, current),
        timeout=30,
    )
    resp.raise_for_status()
    wait_for(
        lambda: requests.get(f"{url}/admin/info/system", auth=(USER, new), timeout=10).ok,
        30,
        "the new password to take effect",
    )


@pytest.fixture
def solr(request: pytest.FixtureRequest) -> Iterator[str]:
    """The secured Solr of :mod:`tests.test_solr_auth` (core ``pages`` emptied); the password
    is set back to ``PASSWORD`` after."""
    url: str = request.getfixturevalue("_secured")[0]
    requests.post(
        f"{url}/pages/update",
        params={"commit": "true"},
        json={"delete": {"query": "*:*"}},
        auth=(USER, PASSWORD),
        timeout=30,
    ).raise_for_status()
    yield url
    if not requests.get(f"{url}/admin/info/system", auth=(USER, PASSWORD), timeout=10).ok:
        _set_password(url, ROTATED, PASSWORD)


def _start(
    solr: str, site: str, data: Path, auth_wait: float
) -> tuple[list[str], subprocess.Popen[str]]:
    args = crawl_args(solr, data, "--delay", "0.1", f"{site}/")
    env = {
        "INDEXER_SOLR_USER": USER,
        "INDEXER_SOLR_PASSWORD": PASSWORD,
        "INDEXER_SOLR_BATCH_SIZE": "5",
        "INDEXER_SOLR_AUTH_WAIT": str(auth_wait),
    }
    return args, start_crawl(args, env)


def _indexed(solr: str) -> int:
    return len(solr_ids(solr, "pages", auth=(USER, PASSWORD)))


def test_password_rotated_and_restored_within_auth_wait_loses_nothing(
    solr: str, tmp_path: Path
) -> None:
    data = tmp_path / "d"
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        _, proc = _start(solr, site, data, auth_wait=120)
        try:
            lines = ErrLines(proc)
            wait_for(lambda: _indexed(solr) >= 5, 120, "5 documents in Solr")
            _set_password(solr, PASSWORD, ROTATED)
            # until the crawl has met the refusal (its final commit at the latest), not a
            # fixed time a loaded machine could pass without one update
            wait_for(lambda: lines.has("fetching paused"), 120, "the refusal to be met")
            _set_password(solr, ROTATED, PASSWORD)
            err = lines.finish(240)
        finally:
            reap(proc)
    assert proc.returncode == 0, err[-2000:]
    paused = [line for line in err.splitlines() if "fetching paused" in line]
    assert len(paused) == 1 and "refused the credentials (HTTP 401)" in paused[0], err[-3000:]
    assert PASSWORD not in err and ROTATED not in err
    assert _indexed(solr) == PAGES + 1 and outbox_count(data) == 0


def test_password_rotated_for_good_stops_cleanly_after_auth_wait(solr: str, tmp_path: Path) -> None:
    data = tmp_path / "d"
    with serve_folder(write_site(tmp_path / "site", PAGES)) as site:
        args, proc = _start(solr, site, data, auth_wait=3)
        try:
            wait_for(lambda: _indexed(solr) >= 5, 120, "5 documents in Solr")
            _set_password(solr, PASSWORD, ROTATED)
            rotated = time.monotonic()
            _, err = proc.communicate(timeout=120)
            took = time.monotonic() - rotated
        finally:
            reap(proc)
        assert proc.returncode == 1, err[-2000:]
        assert took < 3 + 8 + 5, f"stopped {took:.1f} s after the rotation"
        ended = summary(data)
        assert ended["phase"] == "failed" and "refused the credentials" in ended["reason"]
        assert outbox_count(data) == ended["pending_in_outbox"] > 0
        assert last_run(data).phase == "failed" and not last_run(data).finished
        assert "Traceback" not in err and PASSWORD not in err and ROTATED not in err
        _set_password(solr, ROTATED, PASSWORD)
        resumed = start_crawl(
            [*args[:-1], "--resume"],
            {"INDEXER_SOLR_USER": USER, "INDEXER_SOLR_PASSWORD": PASSWORD},
        )
        try:
            _, err = resumed.communicate(timeout=240)
        finally:
            reap(resumed)
    assert resumed.returncode == 0, err[-2000:]
    assert _indexed(solr) == PAGES + 1 and outbox_count(data) == 0
