"""Template learning in a crawl: first pages re-extracted, state kept across runs, explained."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli import main
from indexer.crawl.frontier import Frontier
from tests.faultserver import FaultServer, Reply, crawl

WORDS = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet"]
NOTICE = "Notice: this is not a Q&amp;A section"


def _page(title: str, body: str, links: list[str]) -> str:
    menu = "".join(f'<a href="{u}">{u.strip("/")}</a> ' for u in links)
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title></head><body>"
        f'<div class="top">{menu}</div>'
        '<p class="langs">Available Languages: <a href="/">en</a> | <a href="/">ja</a></p>'
        f'<div class="doc"><h1>{title}</h1>{body}'
        f'<div class="note"><p>{NOTICE}. Comments here should be about improving the '
        "documentation, and may be removed again by our moderators.</p></div></div>"
        "<p>Copyright The Example Foundation, licensed under the Example License.</p>"
        "</body></html>"
    )


def _serve(srv: FaultServer) -> list[str]:
    paths = ["/"] + [f"/{word}" for word in WORDS] + ["/watchdog"]
    for path, word in zip(paths, ["index", *WORDS], strict=False):
        text = " ".join(f"{word}{other}" for other in WORDS)
        body = f"<p>The {word} directive sets {text}. Use it with care, as shown.</p>"
        srv.route(path, Reply(body=_page(f"Directive {word}", body, paths)))
    table = (
        "<table><tr><td>Syntax:</td><td>WatchdogInterval seconds</td></tr>"
        "<tr><td>Context:</td><td>server config</td></tr></table>"
    )
    srv.route("/watchdog", Reply(body=_page("WatchdogInterval", table, paths)))
    return [srv.url(p) for p in paths]


def _final(docs: list[dict[str, object]]) -> dict[str, str]:
    """URL → the text last sent (a re-extracted page is sent twice)."""
    return {str(doc["url"]): str(doc["text"]) for doc in docs}


async def test_every_page_loses_the_template_first_pages_included(tmp_path: Path) -> None:
    with FaultServer() as srv:
        urls = _serve(srv)
        run = await crawl([urls[0]], tmp_path, fetch__per_host=1)
    texts = _final(run.docs)
    assert sorted(texts) == sorted(urls)
    for url, text in texts.items():
        assert "Notice" not in text and "Available Languages" not in text, url
        assert "Copyright" not in text, url
    assert "WatchdogInterval seconds" in texts[srv.url("/watchdog")]
    assert "The amber directive sets" in texts[srv.url("/amber")]
    assert run.stats.indexed == len(urls)  # a document sent again counts once
    assert len(run.docs) > len(urls)  # the first pages were sent again, template-free


async def test_learning_off_keeps_the_per_page_chain(tmp_path: Path) -> None:
    with FaultServer() as srv:
        urls = _serve(srv)
        run = await crawl([urls[0]], tmp_path, fetch__per_host=1, extract__templates=False)
    texts = _final(run.docs)
    assert len(run.docs) == len(urls)
    assert any("Notice" in text for text in texts.values())


async def test_the_template_persists_into_the_next_run(tmp_path: Path) -> None:
    with FaultServer() as srv:
        urls = _serve(srv)
        await crawl([urls[0]], tmp_path, fetch__per_host=1)
        with Frontier(tmp_path) as frontier:
            assert frontier.extract_state.load_template_stats(srv.host(0)) is not None
        (tmp_path / "out.jsonl").unlink()
        again = await crawl([urls[0]], tmp_path, fetch__per_host=1)
    assert len(again.docs) == len(urls)  # known from the first page: nothing sent twice
    assert all("Notice" not in str(doc["text"]) for doc in again.docs)


async def test_report_explain_prints_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FaultServer() as srv:
        urls = _serve(srv)
        await crawl([urls[0]], tmp_path, fetch__per_host=1)
    capsys.readouterr()
    assert main(["report", "--data-dir", str(tmp_path), "--explain", srv.url("/watchdog")]) == 0
    decisions = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {"action", "reason", "path", "text"} <= set(decisions[0])
    reasons = {(d["action"], d["reason"]) for d in decisions if "Notice" in d["text"]}
    assert reasons == {("dropped", "template")}
    kept = " ".join(d["text"] for d in decisions if d["action"] == "kept")
    assert "WatchdogInterval seconds" in kept
    assert main(["report", "--data-dir", str(tmp_path), "--explain", srv.url("/nope")]) == 1
