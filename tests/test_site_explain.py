"""``indexer extract --explain``: every block's decision, and the decisions match the text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.cli import main
from indexer.cli.extract_cmd import learn_template
from indexer.extract import extract_page
from indexer.extract.explain import Decision

SAMPLE = Path(__file__).resolve().parents[1] / "indexer" / "demo" / "sample_site"
PARAGRAPH = (
    "The committee met on Tuesday and agreed on the new budget, which raises the share "
    "spent on the library, the school buses and the repair of the old town hall roof. "
)
PAGE = f"""<html><head><title>The committee agrees on the budget</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>
<div style="display:none"><p>Subscribe to our newsletter for weekly updates.</p></div>
<div id="main"><h1>The committee agrees on the budget</h1>
<p>{PARAGRAPH * 2}</p><p>{PARAGRAPH}</p>
<h2>Comments</h2>
<div><p>Taro (2006/10/12 18:03)</p><p>Good news for the school buses, thank you.</p></div>
<div><p>Hanako (2006/10/13 09:10)</p><p>What about the swimming pool?</p></div>
</div></body></html>"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, str]]:
    capsys.readouterr()
    assert main(["extract", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_explain_prints_one_json_line_per_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    decisions = _run(capsys, "--explain", str(page))
    assert all(set(d) == {"action", "reason", "path", "text"} for d in decisions)
    by_text = {d["text"]: (d["action"], d["reason"]) for d in decisions}
    assert by_text["Home News About us"] == ("dropped", "navigation")
    assert by_text["Subscribe to our newsletter for weekly updates."] == ("dropped", "hidden")
    assert by_text["What about the swimming pool?"] == ("dropped", "comments")
    assert by_text[PARAGRAPH.strip()][0] == "kept"
    assert any(d["path"].endswith("div/p") for d in decisions)


def _kept_text(decisions: list[Decision]) -> str:
    return "\n".join(d.text for d in decisions if d.action == "kept")


@pytest.mark.parametrize("learned", [False, True])
def test_the_kept_decisions_are_the_text(learned: bool) -> None:
    pages = sorted(SAMPLE.rglob("*.html"))
    template = learn_template(pages) if learned else None
    assert template is None or template.known
    for path in pages:
        html = path.read_bytes().decode("utf-8", "replace")
        kwargs = {"template": template} if template is not None else {}
        page = extract_page(html, "http://127.0.0.1/", explain=True, **kwargs)
        assert _kept_text(page.decisions) == page.doc.text, path
        assert all(d.action in ("kept", "dropped") and d.reason for d in page.decisions)


def test_site_learning_drops_the_sample_sites_template(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = SAMPLE / "it" / "vpn.html"
    alone = _run(capsys, "--explain", str(page))
    learned = _run(capsys, "--explain", "--site", str(SAMPLE), str(page))
    assert not any(d["reason"] == "template" for d in alone)
    template = [d for d in learned if d["reason"] == "template"]
    assert template and all(d["action"] == "dropped" for d in template)
    assert {d["text"] for d in learned if d["action"] == "kept"} >= {
        d["text"] for d in alone if d["action"] == "kept"
    }
