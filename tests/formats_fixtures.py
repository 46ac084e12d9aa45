"""Documents for the format tests, written by the libraries that make such files.

PDFs come from ReportLab with its built-in Japanese CID fonts (HeiseiMin-W3, HeiseiKakuGo-W5,
not embedded) and from LibreOffice (``fixtures/formats/libreoffice-ja.pdf``, fonts embedded:
made once from a python-docx file with ``soffice --headless --convert-to pdf``); OOXML from
python-docx, openpyxl and python-pptx; text and CSV in legacy Japanese encodings. Each
builder returns the bytes (the site and the hostile set are built once per session and must
not be changed); :data:`EXPECTED` says what title and text each must give.
"""

from __future__ import annotations

import functools
import io
import struct
import zlib
from pathlib import Path

import docx
import openpyxl
import pptx
import pypdfium2 as pdfium
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

LIBREOFFICE_PDF = Path(__file__).parent / "fixtures" / "formats" / "libreoffice-ja.pdf"
#: The text of :data:`LIBREOFFICE_PDF` (its title, then two articles).
LIBREOFFICE_TEXT = (
    "情報システム利用規程"
    "第一条　この規程は、社内の情報システムを安全に利用するために必要な事項を定める。"
    "第二条　利用者は、パスワードを他人に知らせてはならない。"
)
FONTS = ("HeiseiMin-W3", "HeiseiKakuGo-W5")
for _font in FONTS:
    pdfmetrics.registerFont(UnicodeCIDFont(_font))


def reportlab_pdf(
    pages: list[list[str]], title: str | None = None, author: str = "", encrypt: str = ""
) -> bytes:
    """A PDF with one page per list of lines, alternating the two CID fonts."""
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, encrypt=encrypt or None, invariant=True)
    if title:
        pdf.setTitle(title)
    if author:
        pdf.setAuthor(author)
    for number, lines in enumerate(pages):
        pdf.setFont(FONTS[number % 2], 12)
        for row, line in enumerate(lines):
            pdf.drawString(60, 780 - 20 * row, line)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def image_only_pdf() -> bytes:
    """A 'scanned' page: drawn shapes and an inline image, no text layer."""
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, invariant=True)
    for i in range(20):
        pdf.rect(50 + i * 10, 400 + i * 5, 200, 30, fill=1)
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def many_pages_pdf(count: int) -> bytes:
    """``count`` pages, page N saying ``第N頁``."""
    return reportlab_pdf([[f"第{n}頁 の本文です。"] for n in range(1, count + 1)])


def heavy_pdf(pages: int) -> bytes:
    """``pages`` copies of one page of 40 lines (made in milliseconds by PDFium's page
    import; parsing costs about 2 ms of CPU per page)."""
    one = reportlab_pdf([[f"{n}行目 安全衛生委員会の議事録を掲載します。" for n in range(40)]])
    source, target = pdfium.PdfDocument(one), pdfium.PdfDocument.new()
    try:
        target.import_pages(source, [0] * pages)
        out = io.BytesIO()
        target.save(out)
        return out.getvalue()
    finally:
        target.close()
        source.close()


def word_file(title: str, paragraphs: list[str], table: list[list[str]]) -> bytes:
    """A DOCX with paragraphs, then a table."""
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.author = "総務部"
    for text in paragraphs:
        document.add_paragraph(text)
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def excel_file(title: str, sheets: dict[str, list[list[str]]]) -> bytes:
    """An XLSX with the named sheets in order."""
    book = openpyxl.Workbook()
    book.remove(book.active)  # type: ignore[arg-type]
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.properties.title = title
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def powerpoint_file(title: str, slides: list[tuple[str, str, str]]) -> bytes:
    """A PPTX of ``(title, body, notes)`` slides."""
    deck = pptx.Presentation()
    deck.core_properties.title = title
    for heading, body, notes in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = heading  # type: ignore[union-attr]
        slide.placeholders[1].text = body  # type: ignore[attr-defined]
        slide.notes_slide.notes_text_frame.text = notes  # type: ignore[union-attr]
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def _zip_entry(name: bytes, data: bytes, size: int, crc: int, offset: int) -> tuple[bytes, bytes]:
    """A deflated zip entry's local header + data, and its central directory record."""
    local = struct.pack(
        "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), size, len(name), 0
    )
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(data), size, len(name), 0, 0, 0, 0, 0, offset,
    )  # fmt: skip
    return local + name + data, central + name


def docx_bomb(gib: int = 3) -> bytes:
    """A DOCX whose ``word/document.xml`` inflates to ``gib`` GiB of zeros (< 4 GiB).

    Built without deflating gigabytes: each MiB of zeros deflated with a full flush gives
    the same bytes, so the stream is one block repeated; the CRC is computed chunk by chunk.
    """
    chunk = bytes(1 << 20)
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = squeeze.compress(chunk) + squeeze.flush(zlib.Z_FULL_FLUSH)
    again = squeeze.compress(chunk) + squeeze.flush(zlib.Z_FULL_FLUSH)
    count = gib * 1024
    stream = first + again * (count - 1) + squeeze.flush()
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    genuine = word_file("爆弾", ["本文"], [["a"]])
    import zipfile

    parts: list[bytes] = []
    centrals: list[bytes] = []
    offset = 0
    with zipfile.ZipFile(io.BytesIO(genuine)) as package:
        for info in package.infolist():
            if info.filename == "word/document.xml":
                entry = _zip_entry(info.filename.encode(), stream, count << 20, crc, offset)
            else:
                raw = package.read(info)
                packed = zlib.compressobj(6, zlib.DEFLATED, -15)
                data = packed.compress(raw) + packed.flush()
                entry = _zip_entry(info.filename.encode(), data, len(raw), zlib.crc32(raw), offset)
            parts.append(entry[0])
            centrals.append(entry[1])
            offset += len(entry[0])
    directory = b"".join(centrals)
    end = struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(centrals), len(centrals), len(directory), offset, 0
    )
    return b"".join(parts) + directory + end


_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
_SLIDES = [
    ("研修の目的", "全員が受講する。", "十分で説明する。"),
    ("パスワード", "長い合言葉を使う。", "質問を受ける。"),
    ("標的型メール", "添付ファイルを開かず情報システム部へ転送する。", "実例を見せる。"),
]


def _pdfs() -> dict[str, tuple[bytes, str]]:
    """PDFs of two producers, and one sent as application/octet-stream."""
    articles = [
        ["第一条 この規則は従業員の就業に関する事項を定める。"],
        ["第二条 始業は午前九時とする。"],
    ]
    return {
        "/rules/shugyo.pdf": (
            reportlab_pdf(articles, title="就業規則", author="人事部"),
            "application/pdf",
        ),
        "/rules/system.pdf": (LIBREOFFICE_PDF.read_bytes(), "application/pdf"),
        "/dl/octet.pdf": (
            reportlab_pdf([["防災訓練は三月に実施します。"]], title="防災訓練"),
            "application/octet-stream",
        ),
    }


def _office() -> dict[str, tuple[bytes, str]]:
    """DOCX, XLSX (two sheets), PPTX (three slides with notes), and a DOCX as a zip."""
    sheets = {
        "総務部": [["氏名", "内線"], ["山田太郎", "1234"]],
        "経理部": [["鈴木花子", "予算編成担当"]],
    }
    table = [["区分", "日当"], ["国内", "二千円"]]
    return {
        "/rules/ryohi.docx": (word_file("旅費規程", ["出張旅費は実費を支給する。"], table), _DOCX),
        "/lists/meibo.xlsx": (excel_file("社員名簿", sheets), _XLSX),
        "/training/security.pptx": (powerpoint_file("情報セキュリティ研修", _SLIDES), _PPTX),
        "/dl/zipped.docx": (
            word_file("慶弔規程", ["結婚祝金は三万円とする。"], [["種別", "金額"]]),
            "application/zip",
        ),
    }


def _texts() -> dict[str, tuple[bytes, str]]:
    """Shift_JIS and EUC-JP notices, a cp932 CSV export; no charset declared."""
    power = (
        "停電のお知らせ\n\n十二月五日の午後は本館が停電します。"
        "作業中のファイルは保存してください。\n"
    )
    health = "健康診断の日程\n\n健康診断は一月十日に会議室で行います。受診票を持参してください。\n"
    rooms = "会議室,予約者,用途\n第一会議室,佐藤,部内定例会議\n第二会議室,高橋,採用面接\n"
    return {
        "/notice/sjis.txt": (power.encode("cp932"), "text/plain"),
        "/notice/euc.txt": (health.encode("euc_jp"), "text/plain"),
        "/export/kaigi.csv": (rooms.encode("cp932"), "text/csv"),
    }


@functools.cache
def site() -> dict[str, tuple[bytes, str]]:
    """The documents of the crawl test: ``{path: (body, Content-Type)}``."""
    return {**_pdfs(), **_office(), **_texts()}


#: ``{path: (title, a phrase of its text searched for)}`` of :func:`site`.
EXPECTED = {
    "/rules/shugyo.pdf": ("就業規則", "始業は午前九時"),
    "/rules/system.pdf": ("情報システム利用規程", "パスワードを他人に知らせてはならない"),
    "/rules/ryohi.docx": ("旅費規程", "二千円"),
    "/lists/meibo.xlsx": ("社員名簿", "予算編成担当"),
    "/training/security.pptx": ("情報セキュリティ研修", "情報システム部へ転送する"),
    "/notice/sjis.txt": ("停電のお知らせ", "本館が停電します"),
    "/notice/euc.txt": ("健康診断の日程", "受診票を持参してください"),
    "/export/kaigi.csv": ("会議室 予約者 用途", "採用面接"),
    "/dl/octet.pdf": ("防災訓練", "防災訓練は三月に実施します"),
    "/dl/zipped.docx": ("慶弔規程", "結婚祝金は三万円"),
}


@functools.cache
def hostile(pages: int = 3000) -> dict[str, tuple[bytes, str, str]]:
    """Hostile documents: ``{path: (body, Content-Type, expected outcome)}``."""
    whole = reportlab_pdf([["途中で切れる文書です。"] * 10] * 4, title="切断")
    return {
        "/bad/truncated.pdf": (whole[: len(whole) // 2], "application/pdf", "parse-error"),
        "/bad/encrypted.pdf": (
            reportlab_pdf([["秘密の文書"]], encrypt="secret"),
            "application/pdf",
            "encrypted",
        ),
        "/bad/scan.pdf": (image_only_pdf(), "application/pdf", "no-text"),
        "/bad/many.pdf": (many_pages_pdf(pages), "application/pdf", "indexed"),
        "/bad/bomb.docx": (docx_bomb(), "application/octet-stream", "too-large-unpacked"),
        "/bad/claims.pdf": (
            b"<html><body>not a pdf</body></html>",
            "application/pdf",
            "wrong-type",
        ),
    }
