"""RTF whose body opens with ``\\uN`` escapes (or plain text) before any font or paragraph
word: Tika's parser takes that text for the header's and drops it, so the body start is
made explicit first (:mod:`indexer.extract.formats.rtfbody`); LibreOffice's RTF, which
opens its body with ``\\pard\\plain``, goes to Tika unchanged."""

from __future__ import annotations

import asyncio

import pytest

from indexer.extract.formats import ParsedDocument
from indexer.extract.formats.rtfbody import with_body_start
from indexer.pipeline.docworkers import Job
from indexer.pipeline.tikadocs import TikaDocuments
from indexer.settings import ExtractSettings
from tests.tika_fixtures import EXPECTED, FIXTURES, built_service

FONTS = rb"{\fonttbl{\f0\fnil\fcharset128 MS Mincho;}}"
#: ``{name: (rtf, its text)}``: hand-written RTF of the kinds Tika loses, and one it keeps.
HAND_WRITTEN = {
    "no font table": (rb"{\rtf1\ansi \u26481?\u20140?\u12391?\u12377?\u12290?\par}", "東京です。"),
    "uc0, no par": (rb"{\rtf1\ansi\uc0 \u20250\u35696\u23460}", "会議室"),
    "font table, no font word": (
        rb"{\rtf1\ansi\deff0" + FONTS + rb"\u31038?\u20869?\u22577?\par}",
        "社内報",
    ),
    "in a bold group": (rb"{\rtf1\ansi {\b \u26481?}\u20140?\par}", "東京"),
    "negative escape": (rb"{\rtf1\ansi \u-30000?\u12391?\par}", "諐で"),
    "text before the escapes": (rb"{\rtf1\ansi\ansicpg932 No.1 \u26481?\u20140?\par}", "No.1 東京"),
    "after a font word": (rb"{\rtf1\ansi" + FONTS + rb"\f0 \u26481?\u20140?\par}", "東京"),
}


def test_the_body_start_goes_before_the_first_text_outside_the_header() -> None:
    opened = with_body_start(rb"{\rtf1\ansi{\*\generator x;}{\info{\title \u31038?}}Hi \u26481?}")
    assert opened == rb"{\rtf1\ansi{\*\generator x;}{\info{\title \u31038?}}\pard Hi \u26481?}"
    assert with_body_start(rb"{\rtf1\ansi {\b \u26481?}}") == rb"{\rtf1\ansi {\b \pard \u26481?}}"
    for kept in (
        rb"{\rtf1\ansi" + FONTS + rb"\f0 \u26481?}",  # a font word after the font table
        rb"{\rtf1\ansi\pard\plain \u26481?}",
        (FIXTURES / "sample.rtf").read_bytes(),  # LibreOffice's
    ):
        assert with_body_start(kept) == kept


@pytest.mark.slow
def test_japanese_rtf_by_hand_and_from_libreoffice_comes_out_right() -> None:
    tika = TikaDocuments(ExtractSettings(tika_service_dir=built_service()), 2)
    cases = {**HAND_WRITTEN, "LibreOffice": ((FIXTURES / "sample.rtf").read_bytes(), "")}

    async def run() -> list[object]:
        jobs = [
            Job("rtf", body, f"http://127.0.0.1/{i}.rtf", None)
            for i, (body, _) in enumerate(cases.values())
        ]
        return list(await asyncio.gather(*(tika.parse(job) for job in jobs)))

    try:
        answers = dict(zip(cases, asyncio.run(run()), strict=True))
    finally:
        tika.close()
    for name, (_body, text) in HAND_WRITTEN.items():
        answer = answers[name]
        assert isinstance(answer, ParsedDocument), (name, answer)
        assert answer.extracted.text == text, (name, answer.extracted.text)
    office = answers["LibreOffice"]
    assert (
        isinstance(office, ParsedDocument) and office.extracted.title == EXPECTED["sample.rtf"][1]
    )
    assert all(phrase in office.extracted.text for phrase in EXPECTED["sample.rtf"][2])
