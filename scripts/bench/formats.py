"""Benchmark: documents per second and CPU-ms per document for each format, and PDFium
(pypdfium2, what the indexer uses) against pdfminer.six on the same Japanese PDFs.

The documents are made as the tests make them (``tests/formats_fixtures.py``): ReportLab
PDFs with the Japanese CID fonts, the committed LibreOffice PDF with embedded fonts,
python-docx / openpyxl / python-pptx files, cp932 text and CSV. Each format is parsed by
:func:`indexer.extract.formats.parse_document` in this process (no worker round trip).
For PDFs both libraries extract the text of every page; "text right" is the
``difflib`` ratio of the extracted text to the text drawn (whitespace removed, 1.0 =
identical), and ms/page is wall time per page. Ratio printed: pdfminer ms/page ÷ PDFium
ms/page (> 1: PDFium faster).

Ours against Tika: the DOCX, XLSX and PPTX documents are converted by LibreOffice
(``soffice --convert-to``, as ``tests/fixtures/tika/make_fixtures.py`` does) to DOC, RTF,
ODT, XLS, ODS, PPT and ODP with the same content; each document (and the PDFs and OOXML
files) is parsed by our parser where we have one and by our Tika service (one warm JVM,
``tika-service/`` built) in the same run. CPU-ms counts this process and the JVM; "same
text" is the ``difflib`` ratio of Tika's text to ours (whitespace removed).

Usage: PYTHONPATH=. python scripts/bench/formats.py [--seconds S] [--no-tika]
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import io
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pypdfium2 as pdfium
from pdfminer.high_level import extract_text

from indexer.extract.formats import Limits, parse_document
from indexer.extract.formats.tika import tika_document
from indexer.extract.formats.tika_service import (
    TikaProcess,
    build_tika_service,
    find_java,
    service_classpath,
)
from indexer.pipeline.tikadocs import TIKA_FORMATS
from tests.formats_fixtures import (
    FONTS,
    LIBREOFFICE_PDF,
    LIBREOFFICE_TEXT,
    excel_file,
    powerpoint_file,
    reportlab_pdf,
    word_file,
)

SENTENCES = (
    "従業員は、始業時刻までに出勤し、業務の準備をしなければならない。",
    "出張旅費は、旅行命令に基づき実費を支給する。",
    "情報資産の持ち出しには、所属長の許可を必要とする。",
    "年次有給休暇は、本人の請求があった時季に与える。",
)
_SPACE = re.compile(r"\s+")


def _lines(page: int, count: int = 30) -> list[str]:
    return [f"{page}-{n} {SENTENCES[(page + n) % len(SENTENCES)]}" for n in range(count)]


def documents() -> dict[str, tuple[str, bytes]]:
    """``{name: (format, body)}`` of the benchmark."""
    pages = [_lines(p) for p in range(20)]
    rows = [[f"社員{n}", "総務部", SENTENCES[n % 4]] for n in range(500)]
    text = "\n".join(SENTENCES * 200)
    return {
        "pdf (ReportLab, 20 pages)": ("pdf", reportlab_pdf(pages, title="就業規則")),
        "pdf (LibreOffice, 1 page)": ("pdf", LIBREOFFICE_PDF.read_bytes()),
        "docx (200 paragraphs)": ("docx", word_file("規程", list(SENTENCES * 50), [["a", "b"]])),
        "xlsx (500 rows, 2 sheets)": ("xlsx", excel_file("名簿", {"一": rows, "二": rows})),
        "pptx (20 slides)": (
            "pptx",
            powerpoint_file("研修", [(f"第{n}回", SENTENCES[n % 4], "ノート") for n in range(20)]),
        ),
        "text (cp932, 800 lines)": ("text", text.encode("cp932")),
        "csv (cp932, 500 rows)": (
            "csv",
            "\n".join(",".join(r) for r in rows).encode("cp932"),
        ),
    }


def measure(func: Callable[[], object], seconds: float) -> tuple[float, float]:
    """``(runs per second, CPU-ms per run)`` over at least ``seconds`` of wall time."""
    func()  # warm-up: imports, caches
    runs, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds or runs < 3:
        func()
        runs += 1
    elapsed, used = time.perf_counter() - wall, time.process_time() - cpu
    return runs / elapsed, used * 1000 / runs


def pdfium_text(body: bytes) -> str:
    document = pdfium.PdfDocument(body)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def pdfminer_text(body: bytes) -> str:
    return str(extract_text(io.BytesIO(body)))


def accuracy(expected: str, got: str) -> float:
    a, b = _SPACE.sub("", expected), _SPACE.sub("", got)
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def pdf_cases() -> dict[str, tuple[bytes, str, int]]:
    """``{name: (body, expected text, pages)}`` for the library comparison."""
    mincho = [_lines(p) for p in range(0, 20, 2)]
    gothic = [_lines(p) for p in range(1, 20, 2)]
    return {
        f"ReportLab {FONTS[0]}+{FONTS[1]}, 10 pages": (
            reportlab_pdf([*mincho[:5], *gothic[:5]]),
            "".join("".join(p) for p in [*mincho[:5], *gothic[:5]]),
            10,
        ),
        "LibreOffice, embedded IPA fonts, 1 page": (
            LIBREOFFICE_PDF.read_bytes(),
            LIBREOFFICE_TEXT,
            1,
        ),
    }


_CONVERSIONS = {
    "docx": (("doc", "doc:MS Word 97"), ("rtf", "rtf"), ("odt", "odt")),
    "xlsx": (("xls", "xls:MS Excel 97"), ("ods", "ods")),
    "pptx": (("ppt", "ppt:MS PowerPoint 97"), ("odp", "odp")),
}
_MAKER = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "tika" / "make_fixtures.py"


def converted(docs: dict[str, tuple[str, bytes]]) -> dict[str, tuple[str, bytes]]:
    """The OOXML documents of ``docs`` as LibreOffice writes them in the older formats."""
    spec = importlib.util.spec_from_file_location("make_fixtures", _MAKER)
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    out: dict[str, tuple[str, bytes]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (fmt, body) in docs.items():
            for new, target in _CONVERSIONS.get(fmt, ()):
                source = Path(tmp) / f"bench.{fmt}"
                source.write_bytes(body)
                maker.convert(source, target, Path(tmp), Path(tmp))
                out[name.replace(fmt, new, 1)] = (new, (Path(tmp) / f"bench.{new}").read_bytes())
    return out


def measure_both(
    func: Callable[[], object], seconds: float, jvm: psutil.Process
) -> tuple[float, float]:
    """:func:`measure`, with the JVM's CPU time (user + system) added to this process's."""
    func()
    runs, wall = 0, time.perf_counter()
    cpu, jvm_cpu = time.process_time(), sum(jvm.cpu_times()[:2])
    while time.perf_counter() - wall < seconds or runs < 3:
        func()
        runs += 1
    elapsed = time.perf_counter() - wall
    used = time.process_time() - cpu + sum(jvm.cpu_times()[:2]) - jvm_cpu
    return runs / elapsed, used * 1000 / runs


def tika_table(docs: dict[str, tuple[str, bytes]], seconds: float) -> None:
    """Print ours against Tika, per document."""
    build_tika_service()
    tika = TikaProcess(find_java("java"), service_classpath(Path("tika-service")), "512m", 1)
    url, jvm, limits = tika.url, psutil.Process(tika.pid), Limits()
    print("\n| document | parser | docs/s | CPU-ms/doc | same text |\n|---|---|---:|---:|---:|")
    try:
        for name, (fmt, body) in docs.items():
            theirs = tika_document(url, fmt, body, 120).text
            if fmt not in TIKA_FORMATS:
                ours = parse_document(fmt, body, "http://127.0.0.1/x", None, limits)
                rate, cpu = measure(
                    lambda f=fmt, b=body: parse_document(f, b, "http://127.0.0.1/x", None, limits),  # type: ignore[misc]
                    seconds,
                )
                print(f"| {name} | ours ({ours.extracted.extractor}) | {rate:.1f} | {cpu:.1f} | |")
                same = f"{accuracy(ours.extracted.text, theirs):.3f}"
            else:
                same = "(Tika only)"
            rate, cpu = measure_both(
                lambda f=fmt, b=body: tika_document(url, f, b, 120),  # type: ignore[misc]
                seconds,
                jvm,
            )
            print(f"| {name} | Tika | {rate:.1f} | {cpu:.1f} | {same} |")
    finally:
        tika.stop()


def main(argv: list[str] | None = None) -> int:
    """Print the per-format table and the PDF library comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time per measurement")
    parser.add_argument("--no-tika", action="store_true", help="skip ours against Tika")
    args = parser.parse_args(argv)
    limits = Limits()
    print("| document | docs/s | CPU-ms/doc |\n|---|---:|---:|")
    for name, (fmt, body) in documents().items():  # part 1's formats, our parsers
        rate, cpu = measure(
            lambda f=fmt, b=body: parse_document(f, b, "http://127.0.0.1/x", None, limits),  # type: ignore[misc]
            args.seconds,
        )
        print(f"| {name} | {rate:.1f} | {cpu:.1f} |")
    print("\n| PDF | library | text right | ms/page |\n|---|---|---:|---:|")
    for name, (body, expected, pages) in pdf_cases().items():
        per_page = {}
        for library, func in (("pypdfium2", pdfium_text), ("pdfminer.six", pdfminer_text)):
            right = accuracy(expected, func(body))
            rate, _cpu = measure(lambda f=func, b=body: f(b), args.seconds)  # type: ignore[misc]
            per_page[library] = 1000 / rate / pages
            print(f"| {name} | {library} | {right:.3f} | {per_page[library]:.2f} |")
        ratio = per_page["pdfminer.six"] / per_page["pypdfium2"]
        print(f"| {name} | pdfminer ÷ pypdfium2 time | | {ratio:.1f}× |")
    if not args.no_tika:
        docs = {n: d for n, d in documents().items() if d[0] not in ("text", "csv")}
        tika_table({**docs, **converted(docs)}, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
