"""The bytes decide the format, consistently; the declared type only breaks ties. Reasons
say what a file of no indexed format is; text declared HTML without markup keeps its lines;
HTML of a ``crawl.formats`` without ``html`` is read for its links (``links-only``)."""

from __future__ import annotations

import gc
import io
import json
import sys
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from indexer import formats as ids
from indexer.cli import main
from indexer.extract.formats import Limits, parse_document
from indexer.extract.formats.sniff import decide
from indexer.outcomes import TABLE, Effect, Outcome, OutcomeClass
from tests.faultserver import FaultServer, Reply, crawl
from tests.formats_fixtures import excel_file, powerpoint_file, reportlab_pdf, word_file

PDF = reportlab_pdf([["本文"]], title="題")
DOCX = word_file("題", ["本文"], [["a"]])
XLSX = excel_file("題", {"表": [["a"]]})
PPTX = powerpoint_file("題", [("a", "b", "c")])
URL = "http://127.0.0.1/a"


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("body", [PDF, DOCX, XLSX, PPTX], ids=["pdf", "docx", "xlsx", "pptx"])
@pytest.mark.parametrize("declared", sorted(set(ids.MEDIA_TYPES.values()) | {"text/html"}))
def test_a_signature_wins_over_every_declared_type(body: bytes, declared: str) -> None:
    expected = decide(body, "application/octet-stream", URL, ids.ALL).format
    verdict = decide(body, declared, URL, ids.ALL)
    assert expected in ("pdf", "docx", "xlsx", "pptx")
    assert (verdict.format, verdict.outcome) == (expected, "")


def test_a_declared_type_breaks_ties_only() -> None:
    broken = DOCX[: len(DOCX) // 3]  # too short to list: the declared type says what it was
    assert decide(broken, ids.MEDIA_TYPES["xlsx"], URL, ids.ALL).format == "xlsx"
    assert decide(broken, ids.MEDIA_TYPES["docx"], URL, ids.ALL).format == "docx"
    assert decide(b"a,b\n1,2\n", "text/csv", URL, ids.ALL).format == "csv"
    assert decide(b"a,b\n1,2\n", "application/x-pdf", URL, ids.ALL).outcome == "wrong-type"
    for alias, fmt in (("application/x-pdf", "pdf"), ("text/comma-separated-values", "csv")):
        assert ids.BY_MEDIA_TYPE[alias] == fmt  # one table of declared types


@pytest.mark.parametrize(
    ("body", "declared", "said"),
    [
        (b"", "application/pdf", "0 bytes"),
        (b"", ids.MEDIA_TYPES["docx"], "0 bytes"),
        (b"", "application/octet-stream", "0 bytes"),  # the URL's extension says .../a.pdf
        (_zip({"a.txt": b"x", "b.txt": b"y"}), "application/zip", "zip archive of 2 entries"),
        (_zip({"a.txt": b"x"}), ids.MEDIA_TYPES["docx"], "not an Office Open XML"),
        (b"PK\x03\x04" + bytes(40), "application/zip", "zip archive that cannot be read"),
    ],
)
def test_reasons_say_what_the_file_is(body: bytes, declared: str, said: str) -> None:
    verdict = decide(body, declared, URL + ".pdf", ids.ALL)
    assert (verdict.format, verdict.outcome) == (None, "wrong-type")
    assert said in verdict.reason and "text" not in verdict.reason.split("bytes are ")[1]


def test_text_declared_as_html_without_markup_keeps_its_lines() -> None:
    lines = ["お知らせ", "", "一、会議は午後三時から。", "二、資料は各自で印刷 (a < b)。"]
    body = "\r\n".join(lines).encode("cp932")
    for declared in ("text/html", "text/html; charset=shift_jis", "application/xhtml+xml"):
        verdict = decide(body, declared, URL, ids.ALL)
        assert verdict.format == "text"
        parsed = parse_document("text", body, URL, declared, Limits())
        assert parsed.extracted.text.splitlines() == lines
        assert parsed.extracted.title == "お知らせ"
    marked = [b"<p>x</p>", b"x<br>y", b"<!-- c -->x", b"a &amp; <b>b</b>"]
    assert [decide(m, "text/html", URL, ids.ALL).format for m in marked] == ["html"] * 4
    assert decide(body, "text/html", URL, ("html", "pdf")).format == "html"  # text not chosen


async def test_html_without_html_in_formats_is_read_for_its_links(tmp_path: Path) -> None:
    assert TABLE[Outcome.LINKS_ONLY].klass is OutcomeClass.SKIPPED
    assert TABLE[Outcome.LINKS_ONLY].effect is Effect.DELETE_AFTER_GRACE
    with FaultServer() as srv:
        srv.page("/", "home", ["/list.html", "/top.pdf"])
        srv.page("/list.html", "list", ["/deep/report.pdf", "/closed.html"])
        srv.page(
            "/closed.html",
            "closed",
            ["/hidden.pdf"],
            head='<meta name="robots" content="nofollow">',
        )
        srv.route("/top.pdf", Reply(body=PDF, content_type="application/pdf"))
        deep, hidden = reportlab_pdf([["深い報告書"]]), reportlab_pdf([["隠れた資料"]])
        srv.route("/deep/report.pdf", Reply(body=deep, content_type="application/pdf"))
        srv.route("/hidden.pdf", Reply(body=hidden, content_type="application/pdf"))
        run = await crawl([srv.url("/")], tmp_path, crawl__formats=("pdf",))
        base = srv.base()
    got = {u.removeprefix(base): o for u, (o, _r) in run.outcomes.items()}
    assert got == {
        "/": "links-only",
        "/list.html": "links-only",
        "/closed.html": "links-only",
        "/top.pdf": "indexed",
        "/deep/report.pdf": "indexed",
    }
    assert "html not in crawl.formats" in run.outcomes[base + "/"][1]
    assert sorted(str(d["url"]).removeprefix(base) for d in run.docs) == [
        "/deep/report.pdf",
        "/top.pdf",
    ]


def test_indexer_extract_says_links_only_as_a_crawl_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "list.html"
    page.write_text("<html><title>一覧</title><p>資料の一覧。<a href=a.pdf>a</a></p></html>")
    monkeypatch.setenv("INDEXER_CRAWL_FORMATS", "pdf,docx")
    assert main(["extract", str(page)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["outcome"] == "links-only" and "crawl.formats" in record["error"]


_TIKA = Path(__file__).parent / "fixtures" / "tika"


def _padded(body: bytes, words: str) -> bytes:
    """An OLE2 file followed by one more sector holding ``words`` in UTF-16 (as a
    document's own text is stored), not in its directory."""
    extra = words.encode("utf-16le")
    return body + extra + bytes(-len(extra) % 512)


@pytest.mark.parametrize(
    ("name", "words", "expected"),
    [
        ("sample.xls", "WordDocument ストリームの説明", "xls"),
        ("sample.ppt", "Workbook の使い方", "ppt"),
        ("sample.doc", "EncryptedPackage という名前のストリーム", "doc"),
    ],
)
def test_an_ole2_file_is_known_by_its_directory_not_its_text(
    name: str, words: str, expected: str
) -> None:
    body = _padded((_TIKA / name).read_bytes(), words)
    for declared in ("application/octet-stream", ids.MEDIA_TYPES["doc"], ids.MEDIA_TYPES["xls"]):
        assert decide(body, declared, URL + ".bin", ids.ALL).format == expected, declared


def test_an_ole2_file_without_an_office_stream_is_wrong_type_whatever_its_name() -> None:
    body = (_TIKA / "sample.doc").read_bytes()
    renamed = body.replace("WordDocument".encode("utf-16le"), "XordDocument".encode("utf-16le"))
    verdict = decide(renamed, ids.MEDIA_TYPES["doc"], URL + ".doc", ids.ALL)
    assert (verdict.format, verdict.outcome) == (None, "wrong-type"), verdict
    assert "without a Word, Excel or PowerPoint stream" in verdict.reason


@pytest.mark.parametrize("name", ["sample.doc", "sample.xls", "sample.ppt"])
def test_sniffing_an_ole2_file_keeps_no_reference_to_its_body(name: str) -> None:
    """A document's bytes are freed when its visit lets them go, not at the next cyclic
    garbage collection (olefile's objects form cycles): with the collector off, sniffing
    leaves the body's reference count where it was."""
    body = (_TIKA / name).read_bytes() + b"\0" * 512  # its own object, referenced only here
    gc.disable()
    try:
        before = sys.getrefcount(body)
        assert decide(body, "application/octet-stream", URL + ".bin", ids.ALL).format
        assert sys.getrefcount(body) == before
    finally:
        gc.enable()


@pytest.mark.parametrize("lead", [b"\n  ", b"\xef\xbb\xbf\n"])
def test_sniffing_copies_no_body_that_starts_with_space(lead: bytes) -> None:
    """The RTF signature and the markup check are read in place: a large body that opens
    with whitespace (or a BOM) is not copied whole to be stripped."""
    body = lead + b"plain words " * (1 << 19)  # 6 MiB
    tracemalloc.start()
    try:
        decide(body, "text/html", URL, ids.ALL)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(body) // 4, peak
