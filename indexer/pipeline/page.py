"""Decode and extract one page: the CPU-bound step, run in a worker process."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.encoding import decode_body
from indexer.errors import ExtractError
from indexer.extract import SiteRule, extract_page
from indexer.extract.explain import to_lines
from indexer.extract.profile import DEFAULT_PROFILE, Profile
from indexer.extract.template import NO_TEMPLATE, SiteTemplate
from indexer.models import DecodedText, ExtractedDoc


@dataclass(frozen=True, slots=True)
class ProcessedPage:
    """Result of :func:`process_page`.

    Attributes:
        decoded: the decoding (``encoding == "binary"`` means not text; ``extracted`` None).
        extracted: title, main text, metadata and links, or None.
        error: why extraction failed, or ``""``.
        outcome: the outcome the URL ends as when ``extracted`` is None and it is not the
            page default (``wrong-type`` for binary, else ``extract-error``): a document's
            (``parse-error``, ``encrypted``, …) or the format decision's.
        keys: template keys of the page's blocks (:mod:`indexer.extract.template`), when
            asked for.
        explanation: why each block was kept or dropped, JSON lines, when asked for.
    """

    decoded: DecodedText
    extracted: ExtractedDoc | None
    error: str = ""
    outcome: str = ""
    keys: tuple[str, ...] = ()
    explanation: str = ""


def process_page(
    body: bytes,
    content_type: str | None,
    url: str,
    rules: Sequence[SiteRule],
    max_links: int,
    template: SiteTemplate = NO_TEMPLATE,
    learn: bool = False,
    explain: bool = False,
    profile: Profile = DEFAULT_PROFILE,
) -> ProcessedPage:
    """Decode ``body`` (WHATWG order, see :mod:`indexer.encoding`) and extract its content.

    Top-level, so that a process pool can run it; never raises for bad input (``error``).

    Args:
        body: the response body; content_type: its ``Content-Type`` header or None.
        url: the final URL (links resolve against it); rules: ``extract.rules``.
        max_links: outlinks kept (``crawl.max_links_per_page``); template, learn,
            explain, profile: see :func:`indexer.extract.extract_page`.
    """
    decoded = decode_body(body, content_type)
    if decoded.encoding == "binary":
        return ProcessedPage(decoded, None, "binary body")
    try:
        extraction = extract_page(
            decoded.text, url, encoding=decoded.encoding, rules=rules, max_links=max_links,
            template=template, learn=learn, explain=explain, profile=profile,
        )  # fmt: skip
    except ExtractError as exc:
        return ProcessedPage(decoded, None, str(exc)[:300])
    except (ValueError, RecursionError, MemoryError) as exc:  # lxml limits on hostile input
        return ProcessedPage(decoded, None, f"{type(exc).__name__}: {exc}"[:300])
    lines = to_lines(extraction.decisions) if explain else ""
    return ProcessedPage(decoded, extraction.doc, keys=tuple(extraction.keys), explanation=lines)
