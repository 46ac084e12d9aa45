"""The admin views in a real browser (Debian's Chromium through Playwright, loopback only)
over the generated Japanese sites crawled into the real Solr, served by ``indexer serve``
with the password it printed: log in, runs and the outcome table, its CSV, a document's
provenance, a reindex plan and its run, a crawl's live progress, CSRF refusal.

Screenshots of ``/admin`` and ``/admin/doc`` at 1280 pixels go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from tests.test_web_browser import Browser, browser  # noqa: F401  (the fixture)
from tests.web_fixtures import ARTIFACTS, CHROMIUM, Server, crawl_sites, run_serve, serving_sites

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.solr,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium"),
]
CHANGED = "この段落は再クロールの前に追加されました。"
GUESSED_ID = "http://127.0.0.1:9/guessed.html"


@dataclass
class Admin:
    """The crawled sites, the server over their data directory, and where things are."""

    server: Server
    solr: str
    tmp: Path
    bases: dict[str, str]
    folders: Path


@pytest.fixture(scope="module")
def admin(solr_base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    tmp = tmp_path_factory.mktemp("admin-sites")
    requests.post(
        f"{solr_base_url}/pages/update",
        params={"commit": "true"},
        json={"delete": {"query": "*:*"}},
        timeout=30,
    ).raise_for_status()
    with serving_sites(tmp) as bases:
        crawl_sites(solr_base_url, "pages", tmp, bases)
        guessed = {
            "id": GUESSED_ID,
            "url": GUESSED_ID,
            "host": "127.0.0.1:9",
            "title": "推測",
            "content": "推測された文字コード",
            "encoding": "shift_jis",
            "encoding_source": "guess",
        }
        requests.post(
            f"{solr_base_url}/pages/update", params={"commit": "true"}, json=[guessed], timeout=30
        ).raise_for_status()
        args = ["--port", "0", "--solr", solr_base_url, "--data-dir", str(tmp / "crawl")]
        env = {"INDEXER_SERVE_ADMIN_PASSWORD": "", "INDEXER_FETCH_DELAY": "0"}  # reindex child
        with run_serve(args, env) as server:
            yield Admin(server, solr_base_url, tmp, bases, tmp / "sites")


def _log_in(page: object, admin: Admin, route: str = "admin") -> None:
    page.goto(f"{admin.server.url}{route}")  # type: ignore[attr-defined]
    assert "/admin/login" in page.url  # type: ignore[attr-defined]
    assert admin.server.password  # printed once by `indexer serve`
    page.locator("input[name=password]").fill(admin.server.password)  # type: ignore[attr-defined]
    page.locator(".login-form button").click()  # type: ignore[attr-defined]


def test_log_in_runs_outcomes_and_csv(admin: Admin, browser: Browser) -> None:  # noqa: F811
    page = browser.page()
    _log_in(page, admin, "admin/urls?outcome=indexed")
    page.wait_for_url(re.compile(r"/admin/urls\?outcome=indexed$"))  # back where it started
    outcomes = page.locator("table.outcomes td.outcome").all_inner_texts()
    assert outcomes and set(outcomes) == {"indexed"}
    total = int(page.locator(".url-total").inner_text())
    assert total == len(outcomes) >= 25  # fewer than 50: one page

    page.goto(f"{admin.server.url}admin")
    assert page.locator("table.runs tbody tr").count() == 1
    assert page.locator("table.runs td.phase").inner_text() == "finished"
    counts = page.locator("table.runs td.outcome-counts").inner_text()
    assert re.search(r"indexed\s+\d+", counts), counts
    assert int(page.locator(".num-docs").inner_text()) >= 25
    assert page.locator(".solr-version").inner_text().startswith("9.")
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "admin-1280.png"), full_page=True)

    page.goto(f"{admin.server.url}admin/urls")
    host = next(iter(admin.bases.values())).removeprefix("http://")
    page.locator("select[name=host]").select_option(host)
    page.locator(".filters button").click()
    page.wait_for_url(re.compile(r"host="))
    of_host = page.locator("table.outcomes td.url").all_inner_texts()
    assert of_host and all(u.startswith(f"http://{host}/") for u in of_host), of_host
    word = of_host[-1].rsplit("/", 1)[1].split("-")[0]  # leave, topic, en, …
    page.locator("input[name=q]").fill(word)
    page.locator(".filters button").click()
    page.wait_for_url(re.compile(r"q="))
    shown = page.locator("table.outcomes td.url").all_inner_texts()
    assert shown and set(shown) <= set(of_host) and all(word in u for u in shown), shown
    with page.expect_download() as download:
        page.locator("a.csv").click()
    body = Path(download.value.path()).read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert [r[0] for r in rows[1:]] == shown
    assert browser.dialogs == []


def test_a_document_shows_its_encoding_history_and_explanation(
    admin: Admin,
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.page()
    _log_in(page, admin, "admin/urls?outcome=indexed")
    page.wait_for_url(re.compile(r"/admin/urls"))
    link = page.locator("table.outcomes td.url a").filter(has_not_text="index.html").first
    url = link.inner_text()
    link.click()
    page.wait_for_url(re.compile(r"/admin/doc\?id="))
    assert page.locator(".doc-id").inner_text() == url
    assert page.locator(".encoding-name").inner_text().lower() == "utf-8"
    assert page.locator(".encoding-source").inner_text() in ("http", "meta", "bom", "sniff")
    assert page.locator(".guess-flag").count() == 0
    assert page.locator("table.history td.outcome").all_inner_texts() == ["indexed"]
    actions = set(page.locator("table.explanation tbody td:first-child").all_inner_texts())
    assert actions == {"kept", "dropped"}, actions
    assert page.locator(".field-title").inner_text()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "admin-doc-1280.png"), full_page=True)

    page.goto(f"{admin.server.url}admin/doc?id={quote(GUESSED_ID, safe='')}")
    assert page.locator(".encoding-source.guess").count() == 1, page.content()[-3000:]
    assert page.locator(".encoding-source.guess").inner_text() == "guess"
    assert "thin evidence" in page.locator(".guess-flag").inner_text()


def test_a_post_from_another_page_without_the_token_is_refused(
    admin: Admin,
    browser: Browser,  # noqa: F811
) -> None:
    page = browser.page()
    _log_in(page, admin)
    page.wait_for_url(re.compile(r"/admin$"))
    site = next(iter(admin.bases))
    (admin.folders / site / "attack.html").write_text(
        f'<form method="post" action="{admin.server.url}admin/reindex/run">'
        '<button id="go">go</button></form>',
        encoding="utf-8",
    )
    try:
        page.goto(f"{admin.bases[site]}/attack.html")  # another origin, same site: cookie sent
        page.locator("#go").click()
        page.wait_for_load_state()
        assert "refused: missing or wrong CSRF token" in page.content()
    finally:
        (admin.folders / site / "attack.html").unlink()
    page.goto(f"{admin.server.url}admin/reindex")
    assert page.locator(".last-run").count() == 0 and page.locator(".running").count() == 0


def test_dry_run_plan_then_run_it(admin: Admin, browser: Browser) -> None:  # noqa: F811
    site, base = next(iter(admin.bases.items()))
    index = (admin.folders / site / "index.html").read_text("utf-8")
    linked = [p for p in sorted((admin.folders / site).glob("*.html")) if f'"{p.name}"' in index]
    target = linked[0]  # a page the index links
    html = target.read_text("utf-8")
    target.write_text(html.replace("</p>", f"</p><p>{CHANGED}</p>", 1), encoding="utf-8")
    changed_id = f"{base}/{quote(target.name)}"
    page = browser.page()
    _log_in(page, admin, "admin/reindex")
    page.wait_for_url(re.compile(r"/admin/reindex$"))
    page.locator("button.make-plan").click()
    page.wait_for_selector(".summary-line", timeout=120_000)  # the page refreshes itself
    plan_text = page.locator("section.plan").inner_text()
    assert int(page.locator(".plan-update").inner_text()) >= 1, plan_text
    assert int(page.locator(".plan-delete").inner_text()) == 0
    updates = page.locator(".changes-update li").all_text_contents()  # folded: not drawn
    assert changed_id in updates, updates
    assert '"summary": true' in page.locator(".summary-line").inner_text()
    assert CHANGED not in _solr_content(admin, changed_id)  # a dry run sends nothing

    page.locator("button.run-reindex").click()
    page.wait_for_selector(".run-exit", timeout=120_000)
    assert page.locator(".run-exit").inner_text() == "0"
    assert "deleted 0" in page.locator(".run-output").inner_text()
    assert CHANGED in _solr_content(admin, changed_id)
    page.goto(f"{admin.server.url}admin")
    assert "finished" in page.locator(".last-reindex").inner_text()
    assert page.locator(".last-reindex .exit-code").inner_text() == "0"


def _solr_content(admin: Admin, doc_id: str) -> str:
    resp = requests.get(f"{admin.solr}/pages/get", params={"id": doc_id}, timeout=30)
    resp.raise_for_status()
    return str((resp.json().get("doc") or {}).get("content", ""))


def test_a_crawl_in_another_process_shows_live_progress(
    admin: Admin,
    browser: Browser,  # noqa: F811
) -> None:
    base = list(admin.bases.values())[1]
    cmd = [sys.executable, "-m", "indexer", "crawl", "--solr", admin.solr]
    cmd += ["--data-dir", str(admin.tmp / "crawl"), "--delay", "0.6", "--max-depth", "1", "-q"]
    page = browser.page()
    _log_in(page, admin)
    page.wait_for_url(re.compile(r"/admin$"))
    runs_before = page.locator("table.runs tbody tr").count()
    crawl = subprocess.Popen(
        [*cmd, f"{base}/index.html"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while not page.locator(".progress .p-fetched").count() and crawl.poll() is None:
            assert time.monotonic() < deadline, "no progress shown"
            time.sleep(0.5)
            page.reload()
        seen = _fetched_counts(page, crawl)  # the page refreshes itself while the run lives
        assert len(set(seen)) >= 2 and seen == sorted(seen), seen
    finally:
        _stop(crawl)
    assert crawl.returncode == 0, crawl.stderr.read() if crawl.stderr else ""
    page.goto(f"{admin.server.url}admin")
    assert page.locator(".progress").count() == 0  # ended: no live section
    assert page.locator("table.runs tbody tr").count() == runs_before + 1
    assert page.locator("table.runs td.phase").first.inner_text() == "finished"


def _fetched_counts(page: object, crawl: subprocess.Popen[str]) -> list[int]:
    """The fetched count as the self-refreshing page shows it, until the crawl ends."""
    seen: list[int] = []
    while crawl.poll() is None and len(seen) < 60:
        loc = page.locator(".progress .p-fetched")  # type: ignore[attr-defined]
        if loc.count():
            with contextlib.suppress(Exception):  # the page may be between two loads
                seen.append(int(loc.inner_text(timeout=2000)))
        time.sleep(0.5)
    return seen


def _stop(proc: subprocess.Popen[str]) -> None:
    try:
        proc.wait(90)
    except subprocess.TimeoutExpired:
        proc.terminate()
        proc.wait(10)
