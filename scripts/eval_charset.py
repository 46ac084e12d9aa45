"""Score :func:`indexer.encoding.decode_body` on the charset corpus (../shared/corpus/charset).

Metric and stripping recipe: the corpus README ("The metric"). Every file is decoded as
stored and with its declarations stripped; a file is correct when the text equals the
reference text (or the WHATWG alternative for EUC-JP/ISO-2022-JP). Prints accuracy per
set and per true encoding in both modes, alt-only matches and the BOM-less UTF-16 files
separately. Exit status 1 when any file is wrong, 2 when the corpus is missing.

Usage: python scripts/eval_charset.py [--corpus DIR] [--verbose]
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from indexer.encoding import decode_body

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "charset"

STRIP_XML = re.compile(
    rb'^((?:\xef\xbb\xbf)?\s*<\?xml\b[^>]*?)\s+encoding\s*=\s*(["\'])[^"\']*\2', re.I
)
STRIP_META = re.compile(rb"<meta\b[^>]*\bcharset\b[^>]*>", re.I)
CODEC = {
    "cp932": "cp932",
    "euc_jp": "euc_jp",
    "iso2022_jp": "iso2022_jp",
    "utf-8": "utf-8",
    "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
    "windows-1252": "cp1252",
    "iso-8859-1": "latin-1",
    "big5": "big5",
    "gb18030": "gb18030",
    "euc_kr": "euc_kr",
    "ascii": "ascii",
}
WHATWG_JIS = str.maketrans(
    {0x301C: 0xFF5E, 0x2016: 0x2225, 0x2212: 0xFF0D, 0xA2: 0xFFE0, 0xA3: 0xFFE1, 0xAC: 0xFFE2}
)
BOMLESS_UTF16 = re.compile(r"ja-utf16(le-0[4-6]|be-)")


def strip_declarations(data: bytes) -> bytes:
    """The README's recipe: drop the XML ``encoding=`` and every ``<meta ... charset ...>``."""
    return STRIP_META.sub(b"", STRIP_XML.sub(rb"\1", data, count=1))


def reference_texts(data: bytes, true_encoding: str) -> tuple[str, str | None]:
    """``(reference, alternative or None)`` per the README (BOM removed, strict decode)."""
    for bom in (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"):
        if data.startswith(bom) and (true_encoding == "utf-8") == (len(bom) == 3):
            data = data[len(bom) :]
            break
    ref = data.decode(CODEC[true_encoding])
    alt = ref.translate(WHATWG_JIS) if true_encoding in ("euc_jp", "iso2022_jp") else None
    return ref, (alt if alt != ref else None)


@dataclass
class Outcome:
    """One file in one mode."""

    file_id: str
    set_name: str
    true_encoding: str
    correct: bool
    alt_only: bool
    got: str
    source: str


def evaluate(corpus: Path, strip: bool) -> list[Outcome]:
    """Decode every corpus file (stripped or not) and compare with its reference."""
    outcomes = []
    with (corpus / "index.tsv").open(encoding="utf-8") as index:
        for row in csv.DictReader(index, delimiter="\t"):
            data = (corpus / row["file"]).read_bytes()
            if strip:
                data = strip_declarations(data)
            ref, alt = reference_texts(data, row["true_encoding"])
            result = decode_body(data)
            outcomes.append(
                Outcome(
                    row["id"],
                    row["set"],
                    row["true_encoding"],
                    result.text in (ref, alt),
                    result.text == alt and result.text != ref,
                    result.encoding,
                    result.source,
                )
            )
    return outcomes


def _report(mode: str, outcomes: list[Outcome], verbose: bool) -> None:
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        for key in ((o.set_name, "*"), (o.set_name, o.true_encoding)):
            cells[key][0] += o.correct
            cells[key][1] += 1
    total = sum(o.correct for o in outcomes)
    print(f"== {mode}: {total}/{len(outcomes)} correct")
    for (set_name, enc), (ok, n) in sorted(cells.items()):
        print(f"  {set_name:4} {enc:13} {ok:3}/{n}")
    bomless = [o for o in outcomes if BOMLESS_UTF16.match(o.file_id)]
    print(f"  BOM-less UTF-16: {sum(o.correct for o in bomless)}/{len(bomless)}")
    print(f"  matched only the WHATWG alternative: {sum(o.alt_only for o in outcomes)}")
    for o in outcomes:
        if verbose or not o.correct:
            mark = "ok " if o.correct else "BAD"
            print(f"  {mark} {o.file_id:20} true={o.true_encoding:12} got={o.got} ({o.source})")


def main(argv: list[str] | None = None) -> int:
    """Run both modes, print the report; 0 when every file is right."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--verbose", action="store_true", help="list every file")
    args = parser.parse_args(argv)
    if not (args.corpus / "index.tsv").is_file():
        print(f"eval_charset: no corpus at {args.corpus}", file=sys.stderr)
        return 2
    wrong = 0
    for mode, strip in (("declarations honoured", False), ("declarations stripped", True)):
        outcomes = evaluate(args.corpus, strip)
        _report(mode, outcomes, args.verbose)
        wrong += sum(not o.correct for o in outcomes)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
