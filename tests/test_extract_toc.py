"""Tables of contents on a learnt host: entries naming other pages are not the page's own,
and link-dense pages are kept for re-extraction at the run's end."""

from __future__ import annotations

from indexer.extract import extract_page
from indexer.extract.template import MemoryTemplateStore, TemplateLearner, TemplateParams
from indexer.models import DecodedText, ExtractedDoc
from indexer.pipeline.learning import link_dense
from indexer.pipeline.page import ProcessedPage

URL = "http://127.0.0.1/manual/"
NAV = '<div class="nav"><a href="/">Home</a> <a href="/up">Up</a> <a href="/next">Next</a></div>'
COMMANDS = [f"COMMAND{n}" for n in range(8)]


def _toc(title: str, nested: bool) -> str:
    entries = "".join(
        f'<dt><a href="/{c}.html">{c}</a> — change the definition of object {c.lower()}</dt>'
        for c in COMMANDS
    )
    toc = (
        f'<dl class="toc"><dt>I. Commands</dt><dd><dl>{entries}</dl></dd></dl>'
        if nested
        else (f'<dl class="toc">{entries}</dl>')
    )
    return (
        f"<html><head><title>{title}</title></head><body>{NAV}<div class='part'>"
        f"<h1>{title}</h1><p>The entries of this part describe each command.</p>{toc}"
        "</div></body></html>"
    )


def _page(n: int) -> str:
    return (
        f"<html><head><title>Topic {n}</title></head><body>{NAV}<div class='sect'>"
        f"<h1>Topic {n}</h1><p>Topic {n} explains one thing at length, sentence by sentence."
        f" It has words of its own, number {n}.</p></div></body></html>"
    )


def test_linked_entries_repeated_on_another_toc_are_not_own_text() -> None:
    learner = TemplateLearner(MemoryTemplateStore(), TemplateParams(min_pages=3))
    pages = [_toc("Reference", True), _toc("SQL Commands", False)] + [_page(n) for n in range(6)]
    for page in pages:
        learner.observe("h", extract_page(page, URL, learn=True).keys)
    template = learner.template("h")
    assert template.known
    text = extract_page(pages[0], URL, template=template, profile="search").doc.text
    assert "The entries of this part describe each command." in text
    assert "COMMAND3" not in text  # named on the other table of contents too
    alone = extract_page(pages[0], URL, profile="search").doc.text
    assert all(c in alone for c in COMMANDS)  # one page alone: its list is its content


def _processed(text: str, links: int) -> ProcessedPage:
    doc = ExtractedDoc(title="t", text=text, outlinks=[f"{URL}{n}" for n in range(links)])
    return ProcessedPage(DecodedText("", "utf-8", "header"), doc)


def test_link_dense_pages_are_tables_of_contents() -> None:
    assert link_dense(_processed("x" * 1500, 40))
    assert not link_dense(_processed("x" * 8000, 40))  # an article with a link box
    assert not link_dense(_processed("x" * 100, 5))  # a short page with a few links
    assert not link_dense(ProcessedPage(DecodedText("", "binary", ""), None))


def test_link_dense_counts_the_links_the_worker_judged() -> None:
    from indexer.crawl.candidates import Candidates, Link

    doc = ExtractedDoc(title="t", text="x" * 1500)  # outlinks left empty by the worker
    links = Candidates(tuple(Link(f"{URL}{n}", "127.0.0.1") for n in range(40)), seen=40)
    assert link_dense(ProcessedPage(DecodedText("", "utf-8", "header"), doc, links=links))
    few = Candidates(tuple(Link(f"{URL}{n}", "127.0.0.1") for n in range(5)), seen=5)
    assert not link_dense(ProcessedPage(DecodedText("", "utf-8", "header"), doc, links=few))
