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

Usage: PYTHONPATH=. python scripts/bench/formats.py [--seconds S]
"""

from __future__ import annotations

import argparse
import difflib
import io
import re
import time
from collections.abc import Callable

import pypdfium2 as pdfium
from pdfminer.high_level import extract_text

from indexer.extract.formats import Limits, parse_document
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


def main(argv: list[str] | None = None) -> int:
    """Print the per-format table and the PDF library comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time per measurement")
    args = parser.parse_args(argv)
    limits = Limits()
    print("| document | docs/s | CPU-ms/doc |\n|---|---:|---:|")
    for name, (fmt, body) in documents().items():
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
