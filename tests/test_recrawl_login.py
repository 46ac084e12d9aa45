"""Row 5 of issue 13: protected pages redirecting to a login form end as
``login-required``, listed in the report; no login form is indexed (or once, if asked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.recrawl_site import (
    ControlledSite,
    cli,
    frontier_outcomes,
    job_args,
    serve,
    solr_docs,
    write_page,
)

pytestmark = pytest.mark.solr

LOGIN_FORM = (
    "<html><head><title>ログイン</title></head><body><h1>ログイン</h1>"
    "<p>社員番号とパスワードを入力してください。入力後にログインを押してください。</p>"
    '<form method="post" action="/auth/check"><input name="user">'
    '<input type="password" name="pw"><button>ログイン</button></form></body></html>'
)
DOCS = [f"/docs/d{i}.html" for i in range(12)]  # 2 of 13 later protected: under the guard
MEMBERS = [f"/members/m{i}.html" for i in range(4)]  # to a form at an unremarkable URL
PRIVATE = [f"/private/q{i}.html" for i in range(3)]  # to a URL matching login_patterns


def _site(root: Path) -> ControlledSite:
    site = ControlledSite(root)
    for i, path in enumerate(DOCS):
        write_page(site.root, path, f"文書{i}", f"第{i}号の文書です。社内規程について説明します。")
    write_page(
        site.root,
        "/index.html",
        "ホーム",
        "社内ポータルです。",
        [*DOCS, *MEMBERS, *PRIVATE, "/login"],
    )
    for path in ("auth/signon.html", "login"):
        (site.root / path).parent.mkdir(parents=True, exist_ok=True)
        (site.root / path).write_text(LOGIN_FORM, "utf-8")
    return site


def _walls() -> dict[str, str]:
    walls = {p: "/auth/signon.html" for p in MEMBERS}
    walls.update({p: f"/login?next={p}" for p in PRIVATE})
    return walls


def test_login_walls_are_not_indexed_and_protected_pages_go_after_grace(
    solr_core: tuple[str, str], tmp_path: Path
) -> None:
    base, core = solr_core
    site = _site(tmp_path / "site")
    site.set(redirect=_walls())
    data = tmp_path / "data"
    with serve(site) as url:
        args = job_args(base, core, data)
        assert cli("crawl", *args, f"{url}/index.html").returncode == 0
        docs = solr_docs(base, core)
        assert sorted(docs) == sorted([f"{url}/index.html", *(url + p for p in DOCS)])
        assert not any("ログイン" in str(d.get("title")) for d in docs.values())
        outcomes = frontier_outcomes(data)
        assert all(outcomes[url + p] == "login-required" for p in MEMBERS + PRIVATE)
        assert outcomes[f"{url}/login"] == "login-page"
        report = cli("report", "--data-dir", str(data), "--urls", "--outcome", "login-required")
        listed = [line.split("\t")[0] for line in report.stdout.splitlines()]
        assert sorted(listed) == sorted(url + p for p in MEMBERS + PRIVATE)

        site.set(redirect={**_walls(), DOCS[0]: "/auth/signon.html", DOCS[1]: "/login"})
        night = cli("reindex", *args)  # two documents became protected: grace first
        assert night.returncode == 0, night.stderr
        assert url + DOCS[0] in solr_docs(base, core)
        assert frontier_outcomes(data)[url + DOCS[0]] == "login-required"
        night = cli("reindex", *args)
        assert night.returncode == 0, night.stderr
        docs = solr_docs(base, core)
        assert url + DOCS[0] not in docs and url + DOCS[1] not in docs
        assert len(docs) == len(DOCS) - 1


def test_login_page_is_indexed_once_when_asked(solr_core: tuple[str, str], tmp_path: Path) -> None:
    base, core = solr_core
    site = _site(tmp_path / "site")
    site.set(redirect=_walls())
    config = tmp_path / "login.toml"
    config.write_text("[crawl]\nindex_login_pages = true\n", "utf-8")
    data = tmp_path / "data"
    with serve(site) as url:
        args = [*job_args(base, core, data), "--config", str(config)]
        assert cli("crawl", *args, f"{url}/index.html").returncode == 0
        docs = solr_docs(base, core)
        forms = sorted(i for i, d in docs.items() if "ログイン" in str(d.get("title")))
        # one form under two URLs: /auth/signon.html and /login (same content: one document)
        assert len(forms) == 1, forms
        outcomes = frontier_outcomes(data)
        assert all(outcomes[url + p] == "login-required" for p in MEMBERS + PRIVATE)
