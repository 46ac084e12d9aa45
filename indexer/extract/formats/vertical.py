"""Reading order of vertical Japanese text (縦書き) on a PDF page.

Japanese vertical text is read top to bottom within a column and the columns right to left
(JIS X 4051, 縦組); a page set in bands (段組) reads its bands top to bottom. PDFium's text
gets this wrong in two ways, depending on the producer: ReportLab's vertical CID fonts come
out column by column left to right, LibreOffice's ``tb-rl`` pages one character per line.
:func:`vertical_text` rebuilds the lines from the character boxes: consecutive characters
form a run while each next one lies below the last (a column) or right of it (a horizontal
line); a page where steps down outnumber steps right is vertical, and its runs are ordered
by band (top first), within a band right to left. Horizontal runs (a title, a page number)
are bands of their own, placed by their height on the page. A horizontal page is left to
PDFium (None).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

#: Characters whose boxes are looked at before a page is taken as horizontal (cost bound).
SAMPLE_CHARS = 160
Box = tuple[float, float, float, float]  # left, bottom, right, top (PDF units, y up)


def _below(a: Box, b: Box) -> bool:
    """Box ``b`` lies below box ``a``, overlapping it sideways (the next char of a column)."""
    return b[3] <= (a[1] + a[3]) / 2 and b[0] < a[2] and a[0] < b[2]


def _right(a: Box, b: Box) -> bool:
    """Box ``b`` lies right of box ``a`` on the same line (the next char of a line)."""
    return b[0] >= (a[0] + a[2]) / 2 and b[1] < a[3] and a[1] < b[3]


@dataclass(slots=True)
class _Run:
    """Characters in reading order along one direction (``down``, ``right`` or ``""``)."""

    chars: list[str] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    way: str = ""

    def box(self) -> Box:
        lefts, bottoms, rights, tops = zip(*self.boxes, strict=True)
        return min(lefts), min(bottoms), max(rights), max(tops)


def _chars(textpage: pdfium.PdfTextPage, limit: int) -> list[tuple[str, Box | None]]:
    """The page's characters with their boxes (None: a space, which has no place); PDFium's
    generated line ends are left out."""
    out: list[tuple[str, Box | None]] = []
    for index in range(min(textpage.count_chars(), limit)):
        char = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index))
        if char in "\r\n":
            continue
        out.append((char, None if char.isspace() else textpage.get_charbox(index)))
    return out


def _runs(chars: list[tuple[str, Box | None]]) -> list[_Run]:
    """Consecutive characters joined while they keep one direction. A single character
    followed by one right of it that heads a column (the next is below it) stays alone:
    the last short column and the next one's head are side by side too."""
    boxes = [box for _char, box in chars if box is not None]
    runs: list[_Run] = []
    seen = 0  # boxes taken so far
    for char, box in chars:
        run = runs[-1] if runs else None
        if box is None:
            if run is not None:
                run.chars.append(char)
            continue
        seen += 1
        after = boxes[seen] if seen < len(boxes) else None
        way = "" if run is None else _way(run, box, after)
        if run is None or not way or run.way not in ("", way):
            runs.append(_Run([char], [box]))
            continue
        run.chars.append(char)
        run.boxes.append(box)
        run.way = way
    return runs


def _way(run: _Run, box: Box, after: Box | None) -> str:
    """How ``box`` continues ``run``: ``down``, ``right`` or not at all (``""``)."""
    last = run.boxes[-1]
    if _below(last, box):
        return "down"
    if not _right(last, box):
        return ""
    heads_column = not run.way and after is not None and _below(box, after)
    return "" if heads_column else "right"


def _is_vertical(runs: list[_Run]) -> bool:
    down = sum(len(r.boxes) - 1 for r in runs if r.way == "down")
    right = sum(len(r.boxes) - 1 for r in runs if r.way == "right")
    return down >= 2 and down > right


def _bands(runs: list[_Run]) -> list[list[_Run]]:
    """Runs grouped into bands, top first: columns (and single characters) whose heights
    overlap share one; a horizontal run is a band of its own."""
    bands: list[list[_Run]] = []
    bottom = 0.0
    open_band = False  # the last band holds columns and takes more
    for run in sorted(runs, key=lambda item: -item.box()[3]):
        upright = run.way != "right"
        if bands and open_band and upright and run.box()[3] > bottom:
            bands[-1].append(run)
            bottom = min(bottom, run.box()[1])
            continue
        bands.append([run])
        bottom, open_band = run.box()[1], upright
    return bands


def vertical_text(textpage: pdfium.PdfTextPage) -> str | None:
    """The page's text in vertical reading order (runs joined by ``\\n``), or None when the
    page is not set vertically (the caller keeps PDFium's text)."""
    if not _is_vertical(_runs(_chars(textpage, SAMPLE_CHARS))):
        return None
    runs = _runs(_chars(textpage, textpage.count_chars()))
    ordered = []
    for band in _bands(runs):
        for run in sorted(band, key=lambda item: -item.box()[2]):  # right to left
            ordered.append("".join(run.chars).strip())
    return "\n".join(line for line in ordered if line)
