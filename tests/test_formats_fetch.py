"""Fetch limits for documents: ``fetch.content_types`` as an explicit filter on the
declared type, ``fetch.max_document_bytes`` beside the page cap, ``crawl.formats``."""

from __future__ import annotations

from pathlib import Path

from tests.faultserver import FaultServer, Reply, crawl
from tests.formats_fixtures import heavy_pdf, many_pages_pdf, reportlab_pdf

PDF = reportlab_pdf([["安全衛生委員会の議事録"]], title="議事録")


def _serve(srv: FaultServer) -> None:
    big = many_pages_pdf(400)
    srv.page("/", "home", ["/minutes.pdf", "/big.pdf", "/page.bin", "/plain.txt"])
    srv.route("/minutes.pdf", Reply(body=PDF, content_type="application/pdf"))
    srv.route("/big.pdf", Reply(body=big, content_type="application/pdf"))
    page = b"<html><body><p>" + b"x" * 150_000 + b"</p></body></html>"
    srv.route("/page.bin", Reply(body=page, content_type="application/octet-stream"))
    srv.route("/plain.txt", Reply(body="お知らせです。".encode("cp932"), content_type="text/plain"))


async def test_documents_have_their_own_cap_and_html_keeps_the_page_cap(tmp_path: Path) -> None:
    with FaultServer() as srv:
        _serve(srv)
        run = await crawl(
            [srv.url("/")],
            tmp_path,
            fetch__max_body_bytes=200_000,
            fetch__max_document_bytes=len(PDF) + 10_000,
            extract__max_pdf_pages=5,
        )
    got = {u.removeprefix(srv.base()): o for u, (o, _r) in run.outcomes.items()}
    assert got["/minutes.pdf"] == got["/plain.txt"] == "indexed"
    assert got["/big.pdf"] == "too-large"  # over fetch.max_document_bytes
    assert got["/page.bin"] == "indexed"  # HTML sent as octet-stream, within the page cap
    with FaultServer() as srv:
        _serve(srv)
        run = await crawl([srv.url("/")], tmp_path / "b", fetch__max_body_bytes=100_000)
    got = {u.removeprefix(srv.base()): o for u, (o, _r) in run.outcomes.items()}
    assert got["/page.bin"] == "too-large"  # the bytes are HTML: the page cap applies
    assert got["/big.pdf"] == "indexed"


async def test_explicit_content_types_and_formats_filter(tmp_path: Path) -> None:
    with FaultServer() as srv:
        _serve(srv)
        run = await crawl(
            [srv.url("/")], tmp_path, fetch__content_types=("text/html", "application/pdf")
        )
        log = srv.log()
    got = {u.removeprefix(srv.base()): r for u, (o, r) in run.outcomes.items() if o != "indexed"}
    assert got == {
        "/page.bin": "content type application/octet-stream",
        "/plain.txt": "content type text/plain",
    }
    assert sum(1 for hit in log if hit.path == "/plain.txt") == 1  # refused, not retried
    with FaultServer() as srv:
        _serve(srv)
        run = await crawl([srv.url("/")], tmp_path / "b", crawl__formats=("html", "text"))
    outcomes = {u.removeprefix(srv.base()): o for u, (o, _r) in run.outcomes.items()}
    assert outcomes["/minutes.pdf"] == outcomes["/big.pdf"] == "excluded-format"
    assert outcomes["/plain.txt"] == outcomes["/page.bin"] == "indexed"


async def test_a_document_over_its_time_costs_one_worker_and_the_crawl_goes_on(
    tmp_path: Path,
) -> None:
    with FaultServer() as srv:
        srv.page("/", "home", ["/slow.pdf", "/minutes.pdf", "/plain.txt"])
        srv.route("/slow.pdf", Reply(body=heavy_pdf(1000), content_type="application/pdf"))
        srv.route("/minutes.pdf", Reply(body=PDF, content_type="application/pdf"))
        srv.route(
            "/plain.txt", Reply(body="お知らせです。".encode("cp932"), content_type="text/plain")
        )
        run = await crawl(
            [srv.url("/")], tmp_path, extract__document_timeout=0.2, fetch__per_host=1
        )
    got = {u.removeprefix(srv.base()): (o, r) for u, (o, r) in run.outcomes.items()}
    assert got["/slow.pdf"][0] == "parse-timeout", got["/slow.pdf"]
    assert "extract.document_timeout=0.2" in got["/slow.pdf"][1]
    assert got["/minutes.pdf"][0] == got["/plain.txt"][0] == "indexed"


async def test_a_slow_parse_does_not_hold_its_host(tmp_path: Path) -> None:
    """With one request per host in flight (the default), a document being parsed asks
    nothing of the server: the host's next URLs are fetched meanwhile, not after it."""
    slow = heavy_pdf(3000)  # seconds of parsing, cut by the document timeout
    with FaultServer() as srv:
        srv.page("/", "home", ["/slow1.pdf", "/slow2.pdf", "/slow3.pdf"])
        for n in (1, 2, 3):
            srv.route(f"/slow{n}.pdf", Reply(body=slow, content_type="application/pdf"))
        run = await crawl(
            [srv.url("/")], tmp_path, extract__document_timeout=2.0, fetch__per_host=1
        )
        starts = [srv.log(path=f"/slow{n}.pdf")[0].start for n in (1, 2, 3)]
    assert len(run.outcomes) == 4, run.outcomes
    # Held for the parse, the three would start at least one document timeout apart.
    assert max(starts) - min(starts) < 1.5, starts
